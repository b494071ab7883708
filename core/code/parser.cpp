// The recursive-descent parser of kernel code (parser.hpp; kernel_code.hpp has the grammar),
// reading the token stream of the preprocessor (preprocessor.hpp).
//
// [SECTION] The types the code may name
// [SECTION] The parser: tokens, types, expressions
// [SECTION] Expressions, by precedence
// [SECTION] Statements: the declaration, definitions, the guarded access, asm
// [SECTION] The entry points
#include "core/code/parser.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_map>
#include <utility>

#include "core/code/preprocessor.hpp"

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
// clang-format on

// The words that combine into one integer type: "unsigned long long int".
bool is_integer_word(std::string_view w) {
  return w == "unsigned" || w == "signed" || w == "int" || w == "long" || w == "short" ||
         w == "char";
}

// [SECTION] The parser: tokens, types, expressions

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : in_(std::move(tokens)) {}

  Program& program() { return program_; }
  Program finish() {
    program_.macros = in_.macro_names();
    return std::move(program_);
  }
  const Token& peek(std::size_t ahead = 0) const { return in_.peek(ahead); }
  bool at_end() const { return in_.at_end(); }
  bool is(std::string_view punct, std::size_t ahead = 0) const { return in_.is(punct, ahead); }
  bool is_name(std::string_view name, std::size_t ahead = 0) const {
    return in_.is_name(name, ahead);
  }
  Token take() { return in_.take(); }
  // A statement ends at ';', or where its line or its source ends.
  void end_statement(std::string_view what) {
    if (is(";")) {
      take();
    } else if (!at_end() && !peek().line_start) {
      fail(peek().pos, "expected ';' " + std::string(what) + ", found " + describe(peek()));
    }
  }
  void expect(std::string_view punct, std::string_view what) {
    if (!is(punct))
      fail(peek().pos, "expected '" + std::string(punct) + "' " + std::string(what) + ", found " +
                           describe(peek()));
    take();
  }
  static std::string describe(const Token& t) {
    if (t.kind == Tok::end) return "the end of the code";
    if (t.kind == Tok::string) return "a string";
    return "'" + t.text + "'";
  }

  int add(Node n) {
    program_.nodes.push_back(std::move(n));
    return static_cast<int>(program_.nodes.size()) - 1;
  }

  // A type: one known word, or integer words ("unsigned long long"), then '*'s when allowed.
  std::optional<TypeRef> try_type(bool allow_pointer) {
    std::size_t ahead = 0;
    while (is_name("const", ahead) || is_name("volatile", ahead)) ++ahead;
    const Token& first = peek(ahead);
    if (first.kind != Tok::name) return std::nullopt;
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
    } else {
      return std::nullopt;
    }
    for (std::size_t i = 0; i < ahead; ++i) take();
    while (is_name("const") || is_name("volatile")) take();
    if (allow_pointer && is("*")) {
      take();
      type.pointer = true;
      if (is("*")) fail(peek().pos, "pointers to pointers are not supported");
    }
    while (is("&") && allow_pointer) take();  // a reference names the same memory
    return type;
  }

  int expression(int depth = 0);
  int ternary(int depth);
  int binary(int min_prec, int depth);
  int unary(int depth);
  int postfix(int depth);
  int primary(int depth);
  int call(const Token& name, int depth);
  int cast_to(Pos pos, TypeRef type, int depth);
  void statement();
  void guarded_statement(Pos begin);
  void asm_statement(Pos begin);
  std::vector<int> asm_operands();
  void shared_declaration(Pos begin);
  void definition(const TypeRef& type, Pos begin);
  void set_access(AccessForm form, int node, Pos begin);

 private:
  TokenStream in_;
  Program program_;
  std::unordered_map<std::string, int> definitions_;  // name -> its index in program_.defs
};

// [SECTION] Expressions, by precedence

int precedence(std::string_view op) {
  static constexpr std::pair<std::string_view, int> kPrec[] = {
      {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5},  {"==", 6},
      {"!=", 6}, {"<", 7},  {"<=", 7}, {">", 7},  {">=", 7}, {"<<", 8},
      {">>", 8}, {"+", 9},  {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10},
  };
  for (const auto& [name, prec] : kPrec)
    if (name == op) return prec;
  return 0;
}

int Parser::expression(int depth) {
  if (depth > kMaxDepth) fail(peek().pos, "the expression nests deeper than 200 levels");
  return ternary(depth + 1);
}

int Parser::ternary(int depth) {
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
int Parser::binary(int min_prec, int depth) {
  int left = unary(depth);
  while (peek().kind == Tok::punct) {
    const int prec = precedence(peek().text);
    if (prec == 0 || prec < min_prec) break;
    Node n{.kind = NodeKind::binary, .pos = peek().pos};
    n.args.push_back(left);
    while (peek().kind == Tok::punct && precedence(peek().text) == prec) {
      const Token op = take();
      n.ops.push_back({op.text, op.pos});
      n.args.push_back(binary(prec + 1, depth + 1));
    }
    left = add(std::move(n));
  }
  return left;
}

int Parser::unary(int depth) {
  if (depth > kMaxDepth) fail(peek().pos, "the expression nests deeper than 200 levels");
  const Token& t = peek();
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
      fail(t.pos, t.text + " changes a variable: write the value it has (--let)");
    }
    if (t.text == "(") {
      const Pos open = t.pos;
      const std::size_t saved = in_.position();
      take();
      if (std::optional<TypeRef> type = try_type(true)) {
        expect(")", "to close the cast");
        return cast_to(open, *type, depth);
      }
      in_.rewind(saved);
    }
  }
  return postfix(depth);
}

int Parser::cast_to(Pos pos, TypeRef type, int depth) {
  if (!type.pointer && !type.integer) {
    fail(pos, "a cast to " + type.name +
                  " makes a value that is not an integer: cast a pointer "
                  "(" +
                  type.name + "*) or to an integer type");
  }
  Node n{.kind = NodeKind::cast, .pos = pos, .type = type};
  n.a = unary(depth + 1);
  return add(std::move(n));
}

int Parser::postfix(int depth) {
  int node = primary(depth);
  while (true) {
    if (is("[")) {
      Node n{.kind = NodeKind::subscript, .pos = take().pos};
      n.a = node;
      n.b = expression(depth + 1);
      expect("]", "to close the subscript");
      node = add(std::move(n));
    } else if (is(".")) {
      const Pos pos = take().pos;
      if (peek().kind != Tok::name) fail(peek().pos, "expected a member name after '.'");
      Node n{.kind = NodeKind::member, .pos = pos, .text = take().text};
      n.a = node;
      node = add(std::move(n));
    } else if (is("++") || is("--") || is("->")) {
      fail(peek().pos, "'" + peek().text + "' is not supported in an index expression");
    } else {
      return node;
    }
  }
}

int Parser::primary(int depth) {
  const Token t = peek();
  if (t.kind == Tok::number) {
    take();
    return add({.kind = NodeKind::number,
                .pos = t.pos,
                .text = t.text,
                .number = t.number,
                .type = {type_name(t.number_type), t.number_type.bits / 8, t.number_type.bits / 8,
                         t.number_type, false}});
  }
  if (t.kind == Tok::punct && t.text == "(") {
    take();
    const int inner = expression(depth + 1);
    expect(")", "to close '('");
    return inner;
  }
  if (t.kind != Tok::name) fail(t.pos, "expected a value, found " + describe(t));
  take();
  if (t.text == "reinterpret_cast" || t.text == "static_cast" || t.text == "const_cast") {
    expect("<", "after " + t.text);
    std::optional<TypeRef> type = try_type(true);
    if (!type)
      fail(peek().pos, "expected a type in " + t.text + "<...>, found " + describe(peek()));
    expect(">", "to close " + t.text + "<...>");
    expect("(", "after " + t.text + "<...>");
    const int inner = expression(depth + 1);
    expect(")", "to close " + t.text + "<...>(...)");
    if (!type->pointer && !type->integer) {
      fail(t.pos, t.text + "<" + type->name + "> makes a value that is not an integer");
    }
    return add({.kind = NodeKind::cast, .pos = t.pos, .type = *type, .a = inner});
  }
  if (is("(")) return call(t, depth);
  if (find_type(t.text) != nullptr || is_integer_word(t.text)) {
    fail(t.pos, "expected a value, found the type " + t.text);
  }
  // A name declared before this point is its definition (C++ reads the code in order).
  const auto def = definitions_.find(t.text);
  return add({.kind = NodeKind::name,
              .pos = t.pos,
              .text = t.text,
              .definition = def == definitions_.end() ? -1 : def->second});
}

int Parser::call(const Token& name, int depth) {
  Node n{.kind = NodeKind::call, .pos = name.pos, .text = name.text};
  take();  // '('
  while (!is(")")) {
    n.args.push_back(expression(depth + 1));
    if (!is(")")) expect(",", "between the arguments of " + name.text + "(...)");
  }
  take();
  return add(std::move(n));
}

// [SECTION] Statements: the declaration, definitions, the guarded access, asm

void Parser::set_access(AccessForm form, int node, Pos begin) {
  if (program_.access) {
    fail(begin,
         "a second shared-memory access: BankLab analyses one instruction, the first is "
         "at column " +
             std::to_string(program_.access->begin.offset + 1));
  }
  program_.access = AccessStmt{form, node, begin, peek().pos};
}

// Whether an expression reads or writes shared memory at its top: a subscript, *p, v.x, or an
// ldmatrix/stmatrix call (casts to integers and parentheses around them included).
bool is_memory(const Program& p, int node) {
  const Node& n = p.nodes[static_cast<std::size_t>(node)];
  if (n.kind == NodeKind::cast && !n.type.pointer) return is_memory(p, n.a);
  return n.kind == NodeKind::subscript || n.kind == NodeKind::deref || n.kind == NodeKind::member ||
         is_matrix_call(n);
}

void Parser::shared_declaration(Pos begin) {
  SharedDecl d;
  d.pos = begin;
  if (is_name("extern")) {
    take();
    d.is_extern = true;
  }
  if (!is_name("__shared__"))
    fail(peek().pos,
         "extern declares the dynamic shared array: "
         "extern __shared__ T name[];");
  take();
  const auto skip_align = [&] {
    while (is_name("__align__") || is_name("alignas")) {
      take();
      expect("(", "after the alignment keyword");
      expression();
      expect(")", "to close the alignment");
    }
  };
  skip_align();
  std::optional<TypeRef> type = try_type(false);
  if (!type)
    fail(peek().pos,
         "expected the element type of the shared array (float, "
         "__nv_bfloat16, float4, half2, int, ...), found " +
             describe(peek()));
  if (type->name == "auto" || type->name == "bool")
    fail(begin, "a shared array of " + type->name + " is not supported");
  skip_align();
  d.type = *type;
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
  if (d.dims.empty()) fail(peek().pos, "the shared declaration needs an array: " + d.name + "[N]");
  if (d.is_extern && d.dims.front() != -1) {
    fail(d.dim_pos.front(),
         "an extern __shared__ array has an empty first bound, name[]: its "
         "size comes from the launch");
  }
  if (!d.is_extern && d.dims.front() == -1) fail(d.dim_pos.front(), "only extern arrays have []");
  if (program_.shared) fail(begin, "a second __shared__ declaration: give one array");
  program_.shared = std::move(d);
  end_statement("after the shared declaration");
}

// TYPE NAME = expr [, NAME = expr]; : constants and locals, or a load into a new variable.
void Parser::definition(const TypeRef& type, Pos begin) {
  while (true) {
    if (peek().kind != Tok::name) fail(peek().pos, "expected a name after the type " + type.name);
    const Token name = take();
    if (is("["))
      fail(name.pos, "only a __shared__ array is understood; " + name.text + " has no __shared__");
    if (is(";") || is(",") || at_end() || peek().line_start) {  // a register: float v;
      if (!is(",")) break;
      take();
      continue;
    }
    if (!is("=") && !is("{"))
      fail(peek().pos, name.text + " needs a value: " + name.text + " = ...");
    const bool brace = take().text == "{";
    const int value = expression();
    if (brace) expect("}", "to close the initializer");
    if (is_memory(program_, value)) {
      set_access(AccessForm::load, value, begin);
    } else {
      if (definitions_.contains(name.text)) fail(name.pos, name.text + " is defined twice");
      definitions_.emplace(name.text, static_cast<int>(program_.defs.size()));
      program_.defs.push_back({name.text, value, type});
    }
    if (!is(",")) break;
    take();
  }
  end_statement("after the definition");
}

// if (cond) access; / if (cond) { access; }: the lanes for which cond is 0 take no part.
void Parser::guarded_statement(Pos begin) {
  take();
  expect("(", "after if");
  const int cond = expression();
  expect(")", "to close the condition");
  const bool brace = is("{");
  if (brace) take();
  const bool had_access = program_.access.has_value();
  statement();
  if (brace) expect("}", "to close the if");
  if (is_name("else")) fail(peek().pos, "else is not supported: the if guards the one access");
  if (had_access || !program_.access) {
    fail(begin, "an if must guard the access: if (threadIdx.x < 16) x = tile[..];");
  }
  if (program_.guard >= 0) fail(begin, "one if around the access: join the conditions with &&");
  program_.guard = cond;
}

// "constraint"(expr), ... up to the next ':' or ')'.
std::vector<int> Parser::asm_operands() {
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

// asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : outputs :
// inputs): the instruction's name and the operand in [...], the row address.
void Parser::asm_statement(Pos begin) {
  take();
  while (is_name("volatile") || is_name("__volatile__")) take();
  expect("(", "after asm");
  if (peek().kind != Tok::string) fail(peek().pos, "asm takes the instruction as a string");
  const Pos text_pos = peek().pos;
  std::string text;
  while (peek().kind == Tok::string) text += take().text;
  std::vector<int> operands;
  for (int part = 0; part < 3 && is(":"); ++part) {
    take();
    if (part < 2) {
      const std::vector<int> more = asm_operands();
      operands.insert(operands.end(), more.begin(), more.end());
    } else {
      while (peek().kind == Tok::string || is(",")) take();  // clobbers
    }
  }
  expect(")", "to close asm(...)");
  const std::size_t start = text.find_first_not_of(" \t\n");
  const std::string name = text.substr(start == std::string::npos ? 0 : start,
                                       text.find_first_of(" \t\n", start) - start);
  if (!name.starts_with("ldmatrix") && !name.starts_with("stmatrix")) {
    fail(text_pos,
         "asm: only ldmatrix and stmatrix are understood; write a load or a store "
         "in C++");
  }
  const std::size_t open = text.find("[%");
  std::size_t digits = open == std::string::npos ? 0 : open + 2;
  std::size_t index = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    index = index * 10 + static_cast<std::size_t>(text[digits++] - '0');
  if (open == std::string::npos || digits == open + 2 || index >= operands.size()) {
    fail(text_pos, "asm: the row address must be an operand in brackets, [%N]");
  }
  Node n{.kind = NodeKind::call, .pos = begin, .text = name};
  n.args.push_back(operands[index]);
  set_access(AccessForm::bare, add(std::move(n)), begin);
  end_statement("after asm(...)");
}

void Parser::statement() {
  const Pos begin = peek().pos;
  if (is("#")) return in_.define();
  if (is(";")) {
    take();
    return;
  }
  if (is_name("__syncthreads")) fail(begin, "one access at a time: leave out __syncthreads()");
  if (is_name("if")) return guarded_statement(begin);
  if (is_name("asm") || is_name("__asm__")) return asm_statement(begin);
  if (is_name("for") || is_name("while") || is_name("else")) {
    fail(begin, "'" + peek().text +
                    "' is not supported: give the loop variable a value with "
                    "--let NAME=VALUE and write the access alone");
  }
  if (is_name("extern") || is_name("__shared__")) return shared_declaration(begin);
  while (is_name("static") || is_name("constexpr") || is_name("__device__") || is_name("register"))
    take();
  if (std::optional<TypeRef> type = try_type(true)) return definition(*type, begin);
  const int lhs = expression();
  if (is("=")) {
    take();
    const int rhs = expression();
    if (is_memory(program_, lhs)) {
      if (is_memory(program_, rhs)) {
        fail(begin,
             "this statement loads and stores: BankLab analyses one instruction, "
             "write the load and the store apart");
      }
      set_access(AccessForm::store, lhs, begin);
    } else if (is_memory(program_, rhs)) {
      set_access(AccessForm::load, rhs, begin);
    } else {
      fail(begin, "neither side of '=' accesses the shared array");
    }
  } else if (peek().kind == Tok::punct && peek().text.size() == 2 && peek().text[1] == '=' &&
             peek().text != "==" && peek().text != "!=") {
    fail(peek().pos, "'" + peek().text + "' both loads and stores: write the load or the store");
  } else {
    set_access(AccessForm::bare, lhs, begin);
  }
  end_statement("after the statement");
}

}  // namespace

// [SECTION] The entry points

const TypeRef* find_type(std::string_view name) {
  const auto it = std::ranges::find(kTypes, name, &TypeRef::name);
  return it == std::end(kTypes) ? nullptr : &*it;
}

bool is_matrix_call(const Node& n) {
  return n.kind == NodeKind::call &&
         (n.text.starts_with("ldmatrix") || n.text.starts_with("stmatrix"));
}

Program parse_program(std::span<const CodeSource> sources) {
  std::vector<Token> tokens;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    std::vector<Token> part = tokenize(sources[s].text, static_cast<int>(s));
    if (s + 1 < sources.size()) part.pop_back();  // one end token, after the last source
    if (!part.empty()) part.front().line_start = true;
    tokens.insert(tokens.end(), part.begin(), part.end());
  }
  Parser p(std::move(tokens));
  while (!p.at_end()) p.statement();
  return p.finish();
}

Program parse_expression(std::string_view text, int* root) {
  Parser p(tokenize(text, 0));
  *root = p.expression();
  if (!p.at_end())
    fail(p.peek().pos, "unexpected " + Parser::describe(p.peek()) + " after the expression");
  return std::move(p.program());
}

}  // namespace banklab::code
