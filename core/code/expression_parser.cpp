// What both parsers of kernel code share (expression_parser.hpp): types, expressions by
// precedence, scopes.
//
// [SECTION] The types the code may name
// [SECTION] Tokens and scopes
// [SECTION] Expressions, by precedence
// [SECTION] Postfix and primary expressions
#include "core/code/expression_parser.hpp"

#include <algorithm>
#include <utility>

#include "core/base/find.hpp"

namespace banklab::code {
namespace {

// [SECTION] The types the code may name

constexpr int kMaxDepth = 200;  // nesting of parentheses and operators

// clang-format off
const TypeRef kTypes[] = {
    {"float", 4, 4, {}, false},          {"double", 8, 8, {}, false},
    {"half", 2, 2, {}, false},           {"__half", 2, 2, {}, false},
    {"__nv_bfloat16", 2, 2, {}, false},  {"nv_bfloat16", 2, 2, {}, false},
    {"__nv_fp8_e4m3", 1, 1, {}, false},  {"__nv_fp8_e5m2", 1, 1, {}, false},
    {"half2", 4, 2, {}, false},          {"__half2", 4, 2, {}, false},
    {"__nv_bfloat162", 4, 2, {}, false}, {"nv_bfloat162", 4, 2, {}, false},
    {"float2", 8, 4, {}, false},         {"float4", 16, 4, {}, false},
    {"double2", 16, 8, {}, false},       {"int2", 8, 4, {}, false},
    {"int4", 16, 4, {}, false},          {"uint2", 8, 4, {}, false},
    {"uint4", 16, 4, {}, false},         {"char2", 2, 1, {}, false},
    {"char4", 4, 1, {}, false},          {"uchar2", 2, 1, {}, false},
    {"uchar4", 4, 1, {}, false},         {"short2", 4, 2, {}, false},
    {"short4", 8, 2, {}, false},         {"ushort2", 4, 2, {}, false},
    {"ushort4", 8, 2, {}, false},        {"longlong2", 16, 8, {}, false},
    {"int8_t", 1, 1, IntType{8, true}, false},    {"uint8_t", 1, 1, IntType{8, false}, false},
    {"int16_t", 2, 2, IntType{16, true}, false},  {"uint16_t", 2, 2, IntType{16, false}, false},
    {"int32_t", 4, 4, kInt, false},               {"uint32_t", 4, 4, kUnsignedInt, false},
    {"int64_t", 8, 8, kLongLong, false},          {"uint64_t", 8, 8, kSizeT, false},
    {"size_t", 8, 8, kSizeT, false},              {"ptrdiff_t", 8, 8, kLongLong, false},
    {"unsigned", 4, 4, kUnsignedInt, false},      {"int", 4, 4, kInt, false},
    {"char", 1, 1, IntType{8, true}, false},      {"short", 2, 2, IntType{16, true}, false},
    {"long", 8, 8, kLongLong, false},             {"bool", 1, 1, kBool, false},
    {"auto", 0, 0, {}, false},  // deduced from the initializer
};
// The types a .cu file uses that a Code window's access never does.
const TypeRef kFileTypes[] = {
    {"void", 0, 0, {}, false},  {"dim3", 12, 4, {}, false, 4},   {"float3", 12, 4, {}, false, 4},
    {"int3", 12, 4, {}, false, 4}, {"uint3", 12, 4, {}, false, 4}, {"uint", 4, 4, kUnsignedInt, false},
    {"ulong", 8, 8, kSizeT, false}, {"__nv_bfloat16_raw", 2, 2, {}, false},
};
// clang-format on

constexpr std::string_view kQualifiers[] = {"const",    "volatile", "__restrict__", "__restrict",
                                            "restrict", "static",   "register",     "typename",
                                            "struct",   "class",    "__device__",   "__shared__"};
bool is_qualifier(std::string_view w) {
  return std::find(std::begin(kQualifiers), std::end(kQualifiers), w) != std::end(kQualifiers);
}

bool is_assignment(const Token& t) {
  static constexpr std::string_view kOps[] = {
      "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
  return t.kind == Tok::punct &&
         std::find(std::begin(kOps), std::end(kOps), t.text) != std::end(kOps);
}

}  // namespace

bool is_integer_word(std::string_view w) {
  return w == "unsigned" || w == "signed" || w == "int" || w == "long" || w == "short" ||
         w == "char";
}

const TypeRef* find_type(std::string_view name) {
  const auto it = find_by(kTypes, &TypeRef::name, name);
  return it == std::end(kTypes) ? nullptr : &*it;
}

bool is_matrix_call(const Node& n) {
  return n.kind == NodeKind::call &&
         (n.text.starts_with("ldmatrix") || n.text.starts_with("stmatrix"));
}

// [SECTION] Tokens and scopes

ExpressionParser::ExpressionParser(std::vector<Token> tokens, Dialect dialect, Program& program)
    : in_(std::move(tokens)), dialect_(dialect), program_(program) {
  push_scope();
}

void ExpressionParser::expect(std::string_view punct, std::string_view what) {
  if (!is(punct)) {
    fail(peek().pos, "expected '" + std::string(punct) + "' " + std::string(what) + ", found " +
                         describe(peek()));
  }
  take();
}

std::string ExpressionParser::describe(const Token& t) {
  if (t.kind == Tok::end) return "the end of the code";
  if (t.kind == Tok::string) return "a string";
  return "'" + t.text + "'";
}

int ExpressionParser::add(Node n) {
  program_.nodes.push_back(std::move(n));
  return static_cast<int>(program_.nodes.size()) - 1;
}

const ExpressionParser::Binding* ExpressionParser::lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    if (const auto found = it->find(name); found != it->end()) return &found->second;
  }
  return nullptr;
}

std::optional<TypeRef> ExpressionParser::try_type(bool allow_pointer) {
  const bool file = dialect_ == Dialect::file;
  std::size_t ahead = 0;
  bool is_volatile = false;
  while (is_name("const", ahead) || is_name("volatile", ahead) ||
         (file && peek(ahead).kind == Tok::name && is_qualifier(peek(ahead).text))) {
    is_volatile = is_volatile || is_name("volatile", ahead);
    ++ahead;
  }
  const Token& first = peek(ahead);
  if (first.kind != Tok::name) return std::nullopt;
  if (file && ahead == 0 && lookup(first.text) != nullptr && !type_names.contains(first.text)) {
    return std::nullopt;  // a variable named like a type (half, uint) is the variable
  }
  TypeRef type;
  if (is_integer_word(first.text)) {
    std::string words;
    while (peek(ahead).kind == Tok::name && is_integer_word(peek(ahead).text)) {
      words += (words.empty() ? "" : " ") + peek(ahead).text;
      ++ahead;
    }
    const bool is_long = words.find("long") != std::string::npos;
    const bool is_short = words.find("short") != std::string::npos;
    const bool is_char = words.find("char") != std::string::npos;
    const bool is_unsigned = words.find("unsigned") != std::string::npos;
    const int bytes = is_long ? 8 : is_short ? 2 : is_char ? 1 : 4;
    const IntType t{static_cast<std::uint8_t>(8 * bytes), !is_unsigned};
    type = {words, bytes, bytes, t, false};
  } else if (const TypeRef* t = find_type(first.text)) {
    type = *t;
    ++ahead;
  } else if (const auto f = find_by(kFileTypes, &TypeRef::name, first.text);
             file && f != std::end(kFileTypes)) {
    type = *f;
    ++ahead;
  } else if (const auto alias = aliases.find(first.text); file && alias != aliases.end()) {
    type = alias->second;
    ++ahead;
  } else if (file && type_names.contains(first.text)) {
    type = {first.text, 0, 0, {}, false};  // a struct or a template type: its size unknown here
    if (const auto r = record_index.find(first.text); r != record_index.end())
      type.record = r->second;  // a struct of the file: the machine lays it out
    ++ahead;
    if (in_.is("<", ahead)) {  // Foo<...>: the arguments skipped
      int depth = 0;
      do {
        if (in_.is("<", ahead)) ++depth;
        if (in_.is(">", ahead)) --depth;
        if (in_.is(">>", ahead)) depth -= 2;
        if (peek(ahead).kind == Tok::end) return std::nullopt;
        ++ahead;
      } while (depth > 0);
    }
  } else {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < ahead; ++i) take();
  while (is_name("const") || is_name("volatile") ||
         (file && (is_name("__restrict__") || is_name("__restrict")))) {
    is_volatile = is_volatile || take().text == "volatile";
  }
  type.is_volatile = is_volatile;  // of the value, or of what a pointer points to
  if (allow_pointer && is("*")) {
    take();
    type.pointer = true;
    while (is_name("const") || is_name("volatile") ||
           (file && (is_name("__restrict__") || is_name("__restrict")))) {
      take();
    }
    if (is("*")) {
      if (!file) fail(peek().pos, "pointers to pointers are not supported");
      while (is("*")) take();
      type.name += "*";  // a pointer to pointers: BankLab follows none
      type.bytes = 0;
    }
  }
  if (allow_pointer) pointer_to_array(type, nullptr);  // reinterpret_cast<float (*)[33]>
  while ((is("&") || is("&&")) && allow_pointer) {     // a reference names the same memory
    take();
    type.reference = true;
  }
  return type;
}

bool ExpressionParser::pointer_to_array(TypeRef& type, Token* name) {
  if (dialect_ != Dialect::file || type.pointer || !is("(") || !(is("*", 1) || is("&", 1)))
    return false;
  const bool reference = is("&", 1);
  std::size_t ahead = 2;
  while (is_name("const", ahead) || is_name("volatile", ahead) || is_name("__restrict__", ahead) ||
         is_name("__restrict", ahead))
    ++ahead;
  const bool named = peek(ahead).kind == Tok::name;
  if (named != (name != nullptr)) return false;
  if (named) ++ahead;
  if (!is(")", ahead) || !is("[", ahead + 1)) return false;
  for (std::size_t i = 0; i < ahead; ++i) {
    const Token t = take();
    if (named && i + 1 == ahead) *name = t;
  }
  take();  // ')'
  std::vector<int> rows;
  while (is("[")) {
    take();
    rows.push_back(expression());
    expect("]", "to close the array bound");
  }
  // A reference names the array it is bound to, which has these bounds itself.
  type.reference = reference;
  type.pointer = !reference;
  if (!reference) type.rows = std::move(rows);
  return true;
}

ArrayDecl ExpressionParser::array_declaration(Pos begin, bool is_extern) {
  ArrayDecl d;
  d.pos = begin;
  d.is_extern = is_extern;
  while (is_name("extern") || is_name("volatile") || is_name("static")) {
    const Token t = take();
    d.is_extern = d.is_extern || t.text == "extern";
    d.is_volatile = d.is_volatile || t.text == "volatile";
  }
  if (!is_name("__shared__"))
    fail(peek().pos,
         "extern declares the dynamic shared array: "
         "extern __shared__ T name[];");
  take();
  const auto align = [&] {
    while (is_name("__align__") || is_name("alignas")) {
      take();
      expect("(", "after the alignment keyword");
      d.align = expression();
      expect(")", "to close the alignment");
    }
  };
  align();
  std::optional<TypeRef> type = try_type(false);
  if (!type && dialect_ == Dialect::file && peek().kind == Tok::name && peek(1).kind == Tok::name)
    type = TypeRef{take().text, 0, 0, {}, false};  // of a header BankLab does not read: no size
  if (!type)
    fail(peek().pos,
         "expected the element type of the shared array (float, "
         "__nv_bfloat16, float4, half2, int, ...), found " +
             describe(peek()));
  if (type->name == "auto" || type->name == "bool")
    fail(begin, "a shared array of " + type->name + " is not supported");
  align();
  d.type = *type;
  d.is_volatile = d.is_volatile || type->is_volatile;
  if (peek().kind != Tok::name) fail(peek().pos, "expected the array's name");
  d.name = take().text;
  while (is("[")) {
    d.dim_pos.push_back(take().pos);
    if (is("]") && d.is_extern && d.dims.empty()) {
      d.dims.push_back(-1);
    } else {
      d.dims.push_back(expression());
    }
    expect("]", "to close the array bound");
  }
  // A file may declare one shared variable (__shared__ float total;): an array of no bound.
  if (d.dims.empty() && (dialect_ == Dialect::snippet || d.is_extern))
    fail(peek().pos, "the shared declaration needs an array: " + d.name + "[N]");
  if (d.dims.empty()) return d;
  if (d.is_extern && d.dims.front() != -1) {
    fail(d.dim_pos.front(),
         "an extern __shared__ array has an empty first bound, name[]: its "
         "size comes from the launch");
  }
  if (!d.is_extern && d.dims.front() == -1) fail(d.dim_pos.front(), "only extern arrays have []");
  return d;
}

// "constraint"(expr), ... up to the next ':' or ')'.
std::vector<int> ExpressionParser::asm_operands() {
  std::vector<int> operands;
  while (peek().kind == Tok::string) {
    take();
    expect("(", "after the operand's constraint");
    operands.push_back(expression());
    expect(")", "to close the operand");
    if (!is(",")) break;
    take();
  }
  return operands;
}

ExpressionParser::Asm ExpressionParser::asm_statement() {
  take();
  while (is_name("volatile") || is_name("__volatile__")) take();
  expect("(", "after asm");
  if (peek().kind != Tok::string) fail(peek().pos, "asm takes the instruction as a string");
  Asm a;
  a.text_pos = peek().pos;
  while (peek().kind == Tok::string) a.text += take().text;
  // ':' outputs ':' inputs ':' clobbers; "::" (one token) skips a part.
  std::size_t colons = 0;
  std::vector<int> inputs;
  while (is(":") || is("::")) {
    colons += take().text.size();
    if (colons == 1) {
      a.operands = asm_operands();
      a.outputs = static_cast<int>(a.operands.size());
    } else if (colons == 2) {
      inputs = asm_operands();
    } else {
      while (peek().kind == Tok::string || is(",")) take();  // clobbers
    }
  }
  a.operands.insert(a.operands.end(), inputs.begin(), inputs.end());
  expect(")", "to close asm(...)");
  return a;
}

int ExpressionParser::parse_slice(std::vector<Token> tokens) {
  Token end;
  end.pos = tokens.empty() ? peek().pos : tokens.back().pos;
  tokens.push_back(end);
  TokenCursor saved = std::move(in_);
  in_ = TokenCursor(std::move(tokens));
  struct Restore {
    TokenCursor& in;
    TokenCursor& saved;
    ~Restore() { in = std::move(saved); }
  } restore{in_, saved};
  const int node = expression();
  if (!at_end()) fail(peek().pos, "unexpected " + describe(peek()) + " here");
  return node;
}

// [SECTION] Expressions, by precedence

int ExpressionParser::expression(int depth) {
  if (depth > kMaxDepth) fail(peek().pos, "the expression nests deeper than 200 levels");
  const int left = ternary(depth + 1);
  if (dialect_ == Dialect::file && is_assignment(peek())) {
    // a = b = c is a = (b = c): right-associative, each level one deeper.
    const Token op = take();
    Node n{.kind = NodeKind::assign, .pos = op.pos, .text = op.text};
    n.a = left;
    n.b = expression(depth + 1);
    return add(std::move(n));
  }
  return left;
}

int ExpressionParser::comma_expression(int depth) {
  const int first = expression(depth);
  if (!is(",")) return first;
  Node n{.kind = NodeKind::comma, .pos = peek().pos};
  n.args.push_back(first);
  while (is(",")) {
    take();
    n.args.push_back(expression(depth));
  }
  return add(std::move(n));
}

int ExpressionParser::ternary(int depth) {
  const int cond = binary(1, depth);
  if (!is("?")) return cond;
  Node n{.kind = NodeKind::ternary, .pos = take().pos};
  n.a = cond;
  n.b = expression(depth);
  expect(":", "between the two choices of '?'");
  n.c = expression(depth);
  return add(std::move(n));
}

// Every binary operator is left-associative: a - b + c is (a - b) + c. The operators of one
// precedence in a row become one chain node, evaluated in a loop from the left.
int ExpressionParser::binary(int min_prec, int depth) {
  int left = unary(depth);
  while (peek().kind == Tok::punct) {
    const int prec = binary_precedence(peek().text);
    if (prec == 0 || prec < min_prec) break;
    Node n{.kind = NodeKind::binary, .pos = peek().pos};
    n.args.push_back(left);
    while (peek().kind == Tok::punct && binary_precedence(peek().text) == prec) {
      const Token op = take();
      n.ops.push_back({op.text, op.pos});
      n.args.push_back(binary(prec + 1, depth + 1));
    }
    left = add(std::move(n));
  }
  return left;
}

int ExpressionParser::unary(int depth) {
  if (depth > kMaxDepth) fail(peek().pos, "the expression nests deeper than 200 levels");
  const Token& t = peek();
  const bool file = dialect_ == Dialect::file;
  if (t.kind == Tok::punct) {
    if (t.text == "-" || t.text == "+" || t.text == "~" || t.text == "!") {
      Node n{.kind = NodeKind::unary, .pos = t.pos, .text = take().text};
      n.a = unary(depth + 1);
      return add(std::move(n));
    }
    if (t.text == "&" || t.text == "*") {
      Node n{.kind = t.text == "&" ? NodeKind::address : NodeKind::deref, .pos = take().pos};
      n.a = unary(depth + 1);
      return add(std::move(n));
    }
    if (t.text == "++" || t.text == "--") {
      if (!file) fail(t.pos, t.text + " changes a variable: write the value it has (--let)");
      Node n{.kind = NodeKind::step, .pos = t.pos, .text = take().text, .number = 0};
      n.a = unary(depth + 1);
      return add(std::move(n));
    }
    if (t.text == "(") {
      const Pos open = t.pos;
      const std::size_t saved = in_.position();
      take();
      if (std::optional<TypeRef> type = try_type(true)) {
        if (is(")")) {
          take();
          return cast_to(open, *type, depth);
        }
      }
      in_.rewind(saved);
    }
  }
  if (file && t.kind == Tok::name && (t.text == "sizeof" || t.text == "alignof")) {
    Node n{.kind = NodeKind::sizeof_, .pos = take().pos, .text = t.text};
    const std::size_t saved = in_.position();
    if (is("(")) {
      take();
      if (std::optional<TypeRef> type = try_type(true); type && is(")")) {
        take();
        n.type = *type;
        return add(std::move(n));
      }
      in_.rewind(saved);
    }
    n.a = unary(depth + 1);
    return add(std::move(n));
  }
  return postfix(depth);
}

int ExpressionParser::cast_to(Pos pos, TypeRef type, int depth) {
  if (dialect_ == Dialect::snippet && !type.pointer && !type.integer) {
    fail(pos, "a cast to " + type.name +
                  " makes a value that is not an integer: cast a pointer "
                  "(" +
                  type.name + "*) or to an integer type");
  }
  Node n{.kind = NodeKind::cast, .pos = pos, .type = type};
  n.a = unary(depth + 1);
  return add(std::move(n));
}

// [SECTION] Postfix and primary expressions

int ExpressionParser::postfix(int depth) {
  int node = primary(depth);
  const bool file = dialect_ == Dialect::file;
  while (true) {
    if (is("[")) {
      Node n{.kind = NodeKind::subscript, .pos = take().pos};
      n.a = node;
      n.b = file ? comma_expression(depth + 1) : expression(depth + 1);
      expect("]", "to close the subscript");
      node = add(std::move(n));
    } else if (is(".") || (file && is("->"))) {
      const Token dot = take();
      if (peek().kind != Tok::name)
        fail(peek().pos, "expected a member name after '" + dot.text + "'");
      Node n{.kind = NodeKind::member, .pos = dot.pos, .text = take().text};
      n.a = node;
      if (dot.text == "->") {  // p->m is (*p).m
        Node d{.kind = NodeKind::deref, .pos = dot.pos};
        d.a = node;
        n.a = add(std::move(d));
      }
      node = add(std::move(n));
    } else if (file && (is("++") || is("--"))) {
      Node n{.kind = NodeKind::step, .pos = peek().pos, .text = take().text, .number = 1};
      n.a = node;
      node = add(std::move(n));
    } else if (file && is("(")) {  // (*f)(x), obj.method(x): a call BankLab does not know
      node = expression_call(node, depth);
    } else if (is("++") || is("--") || is("->")) {
      fail(peek().pos, "'" + peek().text + "' is not supported in an index expression");
    } else {
      return node;
    }
  }
}

std::vector<int> ExpressionParser::template_arguments(int depth) {
  std::vector<int> args;
  take();  // '<'
  while (!is(">")) {
    if (std::optional<TypeRef> type = try_type(true)) {
      args.push_back(
          add({.kind = NodeKind::sizeof_, .pos = peek().pos, .text = "type", .type = *type}));
    } else {
      args.push_back(binary(8, depth + 1));  // above the comparisons: '>' ends the list
    }
    if (!is(">")) expect(",", "between template arguments");
  }
  take();
  return args;
}

int ExpressionParser::primary(int depth) {
  const Token t = peek();
  const bool file = dialect_ == Dialect::file;
  if (t.kind == Tok::number) {
    take();
    return add({.kind = NodeKind::number,
                .pos = t.pos,
                .text = t.text,
                .number = t.number,
                .type = {type_name(t.number_type), t.number_type.bits / 8, t.number_type.bits / 8,
                         t.number_type, false},
                .floating = t.floating});
  }
  if (file && t.kind == Tok::string) {  // printf("...", ...): a value BankLab does not follow
    take();
    while (peek().kind == Tok::string) take();
    return add({.kind = NodeKind::number, .pos = t.pos, .text = "a string", .floating = true});
  }
  if (t.kind == Tok::punct && t.text == "(") {
    take();
    const int inner = file ? comma_expression(depth + 1) : expression(depth + 1);
    expect(")", "to close '('");
    return inner;
  }
  if (file && t.kind == Tok::punct && t.text == "{") {
    Node n{.kind = NodeKind::list, .pos = take().pos};
    while (!is("}")) {
      n.args.push_back(expression(depth + 1));
      if (!is("}")) expect(",", "between the values in braces");
    }
    take();
    return add(std::move(n));
  }
  if (file && t.kind == Tok::punct && t.text == "::") take();  // ::name
  if (peek().kind != Tok::name) fail(peek().pos, "expected a value, found " + describe(peek()));
  return name_expression(take(), depth);
}

int ExpressionParser::name_expression(const Token& t, int depth) {
  const bool file = dialect_ == Dialect::file;
  if (t.text == "reinterpret_cast" || t.text == "static_cast" || t.text == "const_cast") {
    expect("<", "after " + t.text);
    std::optional<TypeRef> type = try_type(true);
    if (!type)
      fail(peek().pos, "expected a type in " + t.text + "<...>, found " + describe(peek()));
    expect(">", "to close " + t.text + "<...>");
    expect("(", "after " + t.text + "<...>");
    const int inner = expression(depth + 1);
    expect(")", "to close " + t.text + "<...>(...)");
    if (!file && !type->pointer && !type->integer) {
      fail(t.pos, t.text + "<" + type->name + "> makes a value that is not an integer");
    }
    return add({.kind = NodeKind::cast, .pos = t.pos, .type = *type, .a = inner});
  }
  if (file && (t.text == "true" || t.text == "false")) {
    return add({.kind = NodeKind::number,
                .pos = t.pos,
                .text = t.text,
                .number = t.text == "true" ? 1 : 0,
                .type = {"bool", 1, 1, kBool, false}});
  }
  std::string name = t.text;
  if (file) {
    while (is("::") && peek(1).kind == Tok::name) {  // std::min, cuda::std::max
      take();
      name += "::" + take().text;
    }
    for (std::string_view ns : {"std::", "cuda::std::", "cuda::"}) {
      if (name.starts_with(ns)) name = name.substr(ns.size());
    }
  }
  std::vector<int> templ;
  if (file && is("<") && template_functions.contains(name)) templ = template_arguments(depth);
  if (file && is("{") && lookup(name) == nullptr &&
      (type_names.contains(name) || find_type(name) != nullptr)) {
    const int list = primary(depth + 1);  // Pair{a, b}: a value BankLab does not follow
    return add({.kind = NodeKind::cast, .pos = t.pos, .type = {name, 0, 0, {}, false}, .a = list});
  }
  if (file && is("(") && lookup(name) == nullptr) {
    // A type before '(' is a functional cast: int(x), unsigned(v).
    if (const TypeRef* type = find_type(name); type != nullptr && !type->is_auto()) {
      take();
      const int inner = expression(depth + 1);
      expect(")", "to close " + name + "(...)");
      return add({.kind = NodeKind::cast, .pos = t.pos, .type = *type, .a = inner});
    }
  }
  if (is("(")) {
    // sm.at(r, c): the tokenizer's one name is a method of sm, called on it.
    if (const std::size_t dot = name.find('.'); file && dot != std::string::npos &&
                                                lookup(name) == nullptr &&
                                                lookup(name.substr(0, dot)) != nullptr)
      return expression_call(dotted(t, name), depth);
    Token named = t;
    named.text = name;
    return call(named, std::move(templ), depth);
  }
  if ((find_type(name) != nullptr || is_integer_word(name)) &&
      (dialect_ == Dialect::snippet || lookup(name) == nullptr)) {
    fail(t.pos, "expected a value, found the type " + name);
  }
  // A name declared before this point is its declaration (C++ reads the code in order). A
  // dotted name ("v.x", "s.a.b") whose first part is declared is that and its members.
  if (const Binding* b = lookup(name)) {
    return add(
        {.kind = NodeKind::name, .pos = t.pos, .text = name, .var = b->var, .array = b->array});
  }
  if (const std::size_t dot = name.find('.');
      dot != std::string::npos && lookup(name.substr(0, dot)) != nullptr)
    return dotted(t, name);
  return add({.kind = NodeKind::name, .pos = t.pos, .text = name});
}

// "s.a.b" whose first part is declared: that name and its members, one node each.
int ExpressionParser::dotted(const Token& t, const std::string& name) {
  const std::size_t dot = name.find('.');
  const Binding* b = lookup(name.substr(0, dot));
  int node = add({.kind = NodeKind::name,
                  .pos = t.pos,
                  .text = name.substr(0, dot),
                  .var = b->var,
                  .array = b->array});
  std::size_t from = dot + 1;
  while (from <= name.size()) {
    const std::size_t next = std::min(name.find('.', from), name.size());
    Node m{.kind = NodeKind::member,
           .pos = {t.pos.source, t.pos.offset + static_cast<int>(from) - 1},
           .text = name.substr(from, next - from)};
    m.a = node;
    node = add(std::move(m));
    from = next + 1;
  }
  return node;
}

// callee(args) of an expression: (*f)(x), obj.method(x), a call BankLab does not know (the
// machine's unknown_call), the callee its first argument.
int ExpressionParser::expression_call(int callee, int depth) {
  Node n{.kind = NodeKind::call, .pos = peek().pos, .text = "(expression)"};
  take();
  while (!is(")")) {
    n.args.push_back(expression(depth + 1));
    if (!is(")")) expect(",", "between the arguments");
  }
  take();
  n.args.insert(n.args.begin(), callee);
  return add(std::move(n));
}

int ExpressionParser::call(const Token& name, std::vector<int> templ, int depth) {
  Node n{.kind = NodeKind::call, .pos = name.pos, .text = name.text, .templ = std::move(templ)};
  take();  // '('
  while (!is(")")) {
    n.args.push_back(expression(depth + 1));
    if (!is(")")) expect(",", "between the arguments of " + name.text + "(...)");
  }
  take();
  return add(std::move(n));
}

}  // namespace banklab::code
