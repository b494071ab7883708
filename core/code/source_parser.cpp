// The parser of a whole .cu file (source_parser.hpp): the file's top level, kernel and
// __device__ bodies statement by statement, and launches in host code.
//
// [SECTION] The file's top level
// [SECTION] Functions and templates
// [SECTION] Statements
// [SECTION] Declarations
// [SECTION] Host code: constants and launches
#include "core/code/source_parser.hpp"

#include <algorithm>
#include <utility>

#include "core/code/expression_parser.hpp"

namespace banklab::code {
namespace {

constexpr int kMaxStatementDepth = 256;
// Statements nested too deep: an error of the whole file, which statement() lets through
// rather than skipping the statement as one it cannot read.
struct TooDeep : Failure {};

struct TemplateParam {
  std::string name;
  bool is_type = false;
  TypeRef type;
  int default_value = -1;
  Pos pos;
};

class SourceParser : public ExpressionParser {
 public:
  SourceParser(std::vector<Token> tokens, Program& program)
      : ExpressionParser(std::move(tokens), Dialect::file, program) {}

  void file();

 private:
  int add_stmt(Stmt s) {
    program_.stmts.push_back(std::move(s));
    return static_cast<int>(program_.stmts.size()) - 1;
  }
  int new_var(Variable v);
  void skip_balanced();
  void skip_statement();
  int unread(std::size_t from, Pos begin, const std::string& reason);

  void alias();
  void record_type(bool templated = false, bool typedef_name = false);
  void add_record(Record r, const std::string& tag);
  void record_members(Record& r);
  bool nested_record(Record& outer);
  void static_member(const Record& r);
  int global_constant(std::string name, const TypeRef& type, Pos pos, int init);
  void enumeration();
  std::vector<TemplateParam> template_header();
  void declaration(std::vector<TemplateParam> templ);
  void function(const std::string& name, Pos pos, TypeRef returns, bool kernel, bool device,
                int launch_bounds, std::vector<TemplateParam> templ);
  void parameters(Function& f);

  int block();
  int statement();
  int statement_inner();
  int for_statement(Pos begin);
  int if_statement(Pos begin);
  bool looks_like_declaration() const;
  int local_declaration(Pos begin, bool constant);
  std::vector<int> shared_declarations(Pos begin, bool is_extern = false, bool is_volatile = false);
  int declarators(const TypeRef& type, bool constant, Pos begin);
  int declarators_at(const Token& first, const TypeRef& type, bool constant, Pos begin);
  void skip_balanced_angles();

  void host_body();
  void host_declaration();
  void launch(const Token& kernel);

  int statement_depth_ = 0;            // statements open around the one being read
  std::optional<Token> pending_name_;  // a declarator's name read before its type was known
  int function_ = -1;                  // the function being read; -1: the file's scope
  int pending_unroll_ = -1;            // #pragma unroll N before the next loop
  std::vector<int> globals_;           // the file's declarations, in order
};

int SourceParser::new_var(Variable v) {
  v.function = function_;
  v.slot = function_ >= 0 ? program_.functions[static_cast<std::size_t>(function_)].frame++
                          : program_.globals++;
  const int index = static_cast<int>(program_.vars.size());
  declare_var(v.name, index);
  program_.vars.push_back(std::move(v));
  return index;
}

// From an opening bracket to the one that closes it, both taken.
void SourceParser::skip_balanced() {
  int depth = 0;
  do {
    if (at_end()) return;
    const Token t = take();
    if (t.kind == Tok::punct && (t.text == "(" || t.text == "[" || t.text == "{")) ++depth;
    if (t.kind == Tok::punct && (t.text == ")" || t.text == "]" || t.text == "}")) --depth;
  } while (depth > 0);
}

// To the end of the statement: its ';' at depth 0, or the '}' closing a block it opened.
void SourceParser::skip_statement() {
  int depth = 0;
  while (!at_end()) {
    if (depth == 0 && is("}")) return;  // the enclosing block's end: not this statement's
    const Token t = take();
    if (t.kind != Tok::punct) continue;
    if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
    if (t.text == ")" || t.text == "]") --depth;
    if (t.text == "}" && --depth == 0 && !is("else") && !is(";")) return;
    if (t.text == ";" && depth == 0) return;
  }
}

// From '<' to the '>' that closes it (template arguments).
void SourceParser::skip_balanced_angles() {
  int depth = 0;
  do {
    if (at_end()) return;
    const Token t = take();
    if (t.kind == Tok::punct && t.text == "<") ++depth;
    if (t.kind == Tok::punct && t.text == ">") --depth;
    if (t.kind == Tok::punct && t.text == ">>") depth -= 2;
  } while (depth > 0);
}

// A statement BankLab could not read, from token `from` on: skipped, with the variables it
// names made unknown and a note whether it touches shared memory.
int SourceParser::unread(std::size_t from, Pos begin, const std::string& reason) {
  in_.rewind(from);
  const std::size_t start = in_.position();
  skip_statement();
  const std::size_t end = in_.position();
  Stmt s{.kind = StmtKind::unread, .begin = begin, .end = peek().pos, .index = 0, .text = reason};
  in_.rewind(start);
  const auto changes = [](const Token& t) {  // an operator that writes the name beside it
    return t.kind == Tok::punct && (t.text == "++" || t.text == "--" || t.text == "&" ||
                                    (t.text.ends_with("=") && t.text != "==" && t.text != "!=" &&
                                     t.text != "<=" && t.text != ">="));
  };
  Token before;
  while (in_.position() < end) {
    const Token t = take();
    const Token& after = peek();
    if (t.kind == Tok::name && t.text == "__shared__") s.index = 1;  // a declaration not read
    if (t.kind == Tok::name) {
      if (const Binding* b = lookup(t.text)) {
        if (b->array >= 0) s.index = 1;
        if (b->var >= 0) {
          if (program_.vars[static_cast<std::size_t>(b->var)].type.pointer) s.index = 1;
          if (changes(after) || changes(before)) s.vars.push_back(b->var);
        }
      }
    }
    before = t;
  }
  return add_stmt(std::move(s));
}

// [SECTION] The file's top level

void SourceParser::file() {
  int blocks = 0;  // namespaces and extern "C" blocks open
  while (!at_end()) {
    if (peek().kind == Tok::pragma || is(";")) {
      take();
      continue;
    }
    if (is("}")) {
      take();
      if (blocks > 0) --blocks;
      continue;
    }
    if (is_name("namespace")) {
      while (!is("{") && !is(";") && !at_end()) take();
      if (!at_end() && take().text == "{") ++blocks;
      continue;
    }
    if (is_name("extern") && peek(1).kind == Tok::string) {
      take();
      take();
      if (is("{")) {
        take();
        ++blocks;
      }
      continue;
    }
    if (is_name("using") || is_name("typedef")) {
      alias();
      continue;
    }
    if (is_name("static_assert")) {
      skip_statement();
      continue;
    }
    if ((is_name("struct") || is_name("class") || is_name("union")) && peek(1).kind == Tok::name &&
        (is("{", 2) || is(":", 2) || is(";", 2) || is("<", 2) || is_name("__align__", 1) ||
         is_name("alignas", 1))) {
      record_type();
      continue;
    }
    if (is_name("enum")) {
      enumeration();
      continue;
    }
    std::vector<TemplateParam> templ;
    if (is_name("template")) templ = template_header();
    if (is_name("struct") || is_name("class")) {  // a template struct: its name is a type
      record_type(!templ.empty());
      continue;
    }
    declaration(std::move(templ));
  }
  program_.global_body = add_stmt({.kind = StmtKind::block, .body = globals_});
}

// typedef T NAME; using NAME = T; using namespace X;
void SourceParser::alias() {
  const bool is_using = take().text == "using";
  if (is_using && is_name("namespace")) {
    skip_statement();
    return;
  }
  std::string name;
  std::optional<TypeRef> type;
  if (is_using) {
    if (peek().kind == Tok::name) name = take().text;
    if (is("=")) {
      take();
      type = try_type(true);
    }
  } else if (is_name("struct") || is_name("class") || is_name("union")) {
    record_type(false, true);  // typedef struct [TAG] { ... } NAME;
    return;
  } else {
    type = try_type(true);
    if (peek().kind == Tok::name) name = peek().text;
  }
  if (!name.empty()) {
    type_names.insert(name);
    if (type && type->known()) aliases[name] = *type;
  }
  skip_statement();
}

// struct [__align__(N)] NAME [: bases] { members }; its name is a type, its data members are
// recorded for the machine to lay out (a template struct's are not: its name is a type alone).
// After typedef (typedef_name), the name is the one after the members (typedef struct [TAG]
// { ... } NAME;), or an alias of the struct TAG (typedef struct TAG NAME;).
void SourceParser::record_type(bool templated, bool typedef_name) {
  Record r{.is_union = take().text == "union"};  // struct, class or union
  while (is_name("__align__") || is_name("alignas") || (is("[") && is("[", 1))) {
    if (is("[")) {
      skip_balanced();
      continue;
    }
    take();
    expect("(", "after the alignment keyword");
    r.align = expression();
    expect(")", "to close the alignment");
  }
  std::string tag;
  if (peek().kind == Tok::name) {
    const Token name = take();
    tag = r.name = name.text;
    r.pos = name.pos;
    type_names.insert(r.name);
  } else if (!typedef_name || !is("{")) {  // an anonymous struct: nothing names it
    skip_statement();
    return;
  }
  if (typedef_name && !is("{")) {  // typedef struct TAG NAME;: another name of TAG's record
    if (peek().kind == Tok::name) {
      type_names.insert(peek().text);
      if (const auto known = record_index.find(tag); known != record_index.end())
        record_index[peek().text] = known->second;
    }
    skip_statement();
    return;
  }
  if (templated || is("<") || is(";")) {  // a template, or a declaration: no layout here
    skip_statement();
    return;
  }
  if (is(":")) r.unreadable = r.name + " derives from another type";
  while (!at_end() && !is("{") && !is(";")) take();
  if (is("{")) record_members(r);
  if (typedef_name && peek().kind == Tok::name) {
    const Token name = take();
    r.name = name.text;
    if (r.pos.offset == 0) r.pos = name.pos;
    type_names.insert(r.name);
    skip_statement();
  } else if (!is(";") && peek().kind == Tok::name) {
    skip_statement();  // struct P { ... } p;: a variable of it, not followed
  } else if (is(";")) {
    take();
  }
  if (!r.name.empty()) add_record(std::move(r), tag);
}

// A struct of the file under its name (and its tag). BankLab does not scope names: two structs
// of one name (in two functions) lay out neither, and say why.
void SourceParser::add_record(Record r, const std::string& tag) {
  const int index = static_cast<int>(program_.records.size());
  for (const std::string& name : {r.name, tag}) {
    if (name.empty()) continue;
    if (const auto known = record_index.find(name);
        known != record_index.end() && known->second != index) {
      const std::string why = "two structs of the file are named " + name +
                              ": BankLab does not tell them apart by scope";
      program_.records[static_cast<std::size_t>(known->second)].unreadable = why;
      r.unreadable = why;
    }
    record_index[name] = index;
  }
  program_.records.push_back(std::move(r));
}

// { T a; T b[N], c; ... }: the data members in order. Methods, constructors, static members,
// types and access labels change no layout and are skipped; what BankLab cannot lay out (a
// bit-field, a reference, a virtual method, a member of a type it does not know) leaves the
// struct without a layout, and why.
void SourceParser::record_members(Record& r) {
  take();  // '{'
  const auto unreadable = [&](const std::string& why) {
    if (r.unreadable.empty()) r.unreadable = why;
  };
  while (!at_end() && !is("}")) {
    if ((is_name("public") || is_name("private") || is_name("protected")) && is(":", 1)) {
      take();
      take();
      continue;
    }
    if (is(";")) {
      take();
      continue;
    }
    if ((is_name("struct") || is_name("class") || is_name("union")) && nested_record(r)) continue;
    if (is_name("static") || is_name("constexpr")) {
      static_member(r);
      continue;
    }
    if (is_name("using") || is_name("typedef") || is_name("friend") || is_name("template") ||
        is_name("enum") || is_name("static_assert")) {
      skip_statement();
      continue;
    }
    if (is_name("virtual")) unreadable(r.name + " has a virtual method");
    const std::size_t from = in_.position();
    while (is_name("__device__") || is_name("__host__") || is_name("__forceinline__") ||
           is_name("inline") || is_name("mutable") || is_name("virtual") || is_name("explicit"))
      take();
    if ((is_name(r.name) && is("(", 1)) || (is("~") && is_name(r.name, 1))) {
      skip_statement();  // a constructor or destructor
      continue;
    }
    std::optional<TypeRef> type = try_type(true);
    if (!type || peek().kind != Tok::name) {
      in_.rewind(from);
      unreadable("a member of " + r.name + " BankLab cannot read, at '" + peek().text + "'");
      skip_statement();
      continue;
    }
    if (is("(", 1) || is_name("operator")) {  // a method
      skip_statement();
      continue;
    }
    while (true) {
      TypeRef t = *type;
      while (is("*")) {
        take();
        t.pointer = true;
      }
      if (peek().kind != Tok::name) break;
      Field f{.name = take().text, .type = t};
      while (is("[")) {
        take();
        f.dims.push_back(expression());
        expect("]", "to close the member's array bound");
      }
      if (t.reference) unreadable(r.name + "::" + f.name + " is a reference");
      if (is(":")) unreadable(r.name + "::" + f.name + " is a bit-field");
      if (is("=") || is("{")) {  // a default member initializer: no layout change
        if (take().text == "{") {
          in_.rewind(in_.position() - 1);
          skip_balanced();
        } else {
          expression();
        }
      }
      r.fields.push_back(std::move(f));
      if (!is(",")) break;
      take();
    }
    if (!is(";")) {
      unreadable("a member of " + r.name + " BankLab cannot read, at '" + peek().text + "'");
      skip_statement();
      continue;
    }
    take();
  }
  if (is("}")) take();
}

// A struct or union defined inside a struct: a type of its own (union Phase { ... };), a member
// of it (union { ... } u;), or an anonymous one whose members are the outer struct's (union {
// float a[64]; int b[64]; };: a Field with no name). False where none is defined here (struct
// Tile t;: an ordinary member, read as one).
bool SourceParser::nested_record(Record& outer) {
  if (!is("{", 1) && !(peek(1).kind == Tok::name && is("{", 2))) {
    take();  // the keyword of an elaborated type
    return false;
  }
  Record inner{.is_union = take().text == "union"};
  std::string tag;
  if (peek().kind == Tok::name) {
    const Token name = take();
    tag = inner.name = name.text;
    inner.pos = name.pos;
    type_names.insert(tag);
  } else {
    inner.name = outer.name + "'s anonymous " + (inner.is_union ? "union" : "struct");
    inner.pos = peek().pos;
  }
  record_members(inner);
  TypeRef type{inner.name, 0, 0, {}, false};
  type.record = static_cast<int>(program_.records.size());
  if (tag.empty())
    program_.records.push_back(std::move(inner));  // no name to find it by
  else
    add_record(std::move(inner), tag);
  if (is(";") && tag.empty()) outer.fields.push_back({.name = "", .type = type});
  while (peek().kind == Tok::name) {
    Field f{.name = take().text, .type = type};
    while (is("[")) {
      take();
      f.dims.push_back(expression());
      expect("]", "to close the member's array bound");
    }
    outer.fields.push_back(std::move(f));
    if (!is(",")) break;
    take();
  }
  if (!is(";")) {
    if (outer.unreadable.empty())
      outer.unreadable =
          "a member of " + outer.name + " BankLab cannot read, at '" + peek().text + "'";
    skip_statement();
    return true;
  }
  take();
  return true;
}

// static constexpr int kTile = 32; in a struct of the file: the constant Traits::kTile (and,
// through a template type parameter given Traits, Cfg::kTile). Other static members, and those
// of structs inside functions, change no layout and are skipped.
void SourceParser::static_member(const Record& r) {
  const std::size_t from = in_.position();
  bool constant = false;
  while (is_name("static") || is_name("constexpr") || is_name("const") || is_name("inline") ||
         is_name("__device__") || is_name("__host__")) {
    constant = constant || is_name("constexpr") || is_name("const");
    take();
  }
  const std::optional<TypeRef> type = try_type(false);
  if (function_ >= 0 || !constant || !type || !type->integer || peek().kind != Tok::name ||
      !is("=", 1) || r.name.empty()) {
    in_.rewind(from);
    skip_statement();
    return;
  }
  const Token name = take();
  take();  // '='
  const int init = expression();
  global_constant(r.name + "::" + name.text, *type, name.pos, init);
  if (is(";")) take();
}

// A constant of the file's scope (an enumerator, a struct's static member) and its
// declaration, run before a kernel: its variable.
int SourceParser::global_constant(std::string name, const TypeRef& type, Pos pos, int init) {
  Variable v{.name = std::move(name), .type = type, .pos = pos};
  v.constant = true;
  const int var = new_var(std::move(v));
  globals_.push_back(add_stmt(
      {.kind = StmtKind::decl, .begin = pos, .end = peek().pos, .vars = {var}, .inits = {init}}));
  return var;
}

// enum [class] [NAME] [: T] { A, B = 4, C }: each enumerator an int constant.
void SourceParser::enumeration() {
  take();
  if (is_name("class") || is_name("struct")) take();
  if (peek().kind == Tok::name) type_names.insert(take().text);
  if (is(":")) {
    take();
    try_type(false);
  }
  if (!is("{")) {
    skip_statement();
    return;
  }
  take();
  int previous = -1;
  while (!at_end() && !is("}")) {
    if (peek().kind != Tok::name) {
      skip_statement();
      return;
    }
    const Token name = take();
    const TypeRef int_type{"int", 4, 4, kInt, false};
    int value = -1;
    if (is("=")) {
      take();
      value = expression();
    } else {
      // The one before, plus 1 (0 for the first).
      Node number{.kind = NodeKind::number, .pos = name.pos};
      number.text = previous < 0 ? "0" : "1";
      number.number = previous < 0 ? 0 : 1;
      number.type = int_type;
      value = add(std::move(number));
      if (previous >= 0) {
        Node prev{.kind = NodeKind::name, .pos = name.pos};
        prev.text = program_.vars[static_cast<std::size_t>(previous)].name;
        prev.var = previous;
        Node sum{.kind = NodeKind::binary, .pos = name.pos};
        sum.args = {add(std::move(prev)), value};
        sum.ops.push_back({"+", name.pos});
        value = add(std::move(sum));
      }
    }
    previous = global_constant(name.text, int_type, name.pos, value);
    if (is(",")) take();
  }
  skip_statement();
}

// [SECTION] Functions and templates

std::vector<TemplateParam> SourceParser::template_header() {
  take();  // template
  std::vector<TemplateParam> params;
  expect("<", "after template");
  while (!at_end() && !is(">")) {
    TemplateParam p;
    p.pos = peek().pos;
    if (is_name("typename") || is_name("class")) {
      take();
      p.is_type = true;
      if (is("...")) take();
    } else if (std::optional<TypeRef> t = try_type(false)) {
      p.type = *t;
    } else {
      take();
    }
    if (peek().kind == Tok::name) p.name = take().text;
    if (is("=")) {
      take();
      if (p.is_type) {
        if (std::optional<TypeRef> t = try_type(true)) {
          p.type = *t;
        }
      } else {
        p.default_value = binary(8, 0);  // above the comparisons: '>' ends the list
      }
    }
    if (p.is_type) type_names.insert(p.name);
    params.push_back(std::move(p));
    if (is(",")) take();
  }
  expect(">", "to close the template's parameters");
  return params;
}

void SourceParser::declaration(std::vector<TemplateParam> templ) {
  const Pos begin = peek().pos;
  bool kernel = false, device = false, shared = false, constant = false;
  bool is_extern = false, is_volatile = false;
  int launch_bounds = -1;
  const auto specifiers = [&] {
    while (true) {
      if (is_name("__global__")) {
        kernel = true;
      } else if (is_name("__device__") || is_name("__constant__") || is_name("__managed__")) {
        device = true;
      } else if (is_name("__shared__")) {
        shared = true;
        return;  // the array's own declaration reads it
      } else if (is_name("constexpr") || is_name("const")) {
        constant = true;
      } else if (is_name("__launch_bounds__") || is_name("__align__") || is_name("alignas") ||
                 is_name("__maxnreg__")) {
        const bool bounds = peek().text == "__launch_bounds__";
        take();
        if (is("(")) {
          take();
          const int n = expression();
          if (bounds) launch_bounds = n;
          while (is(",")) {
            take();
            expression();
          }
          expect(")", "to close the attribute");
        }
        continue;
      } else if (is("[") && is("[", 1)) {
        skip_balanced();
        continue;
      } else if (!(is_name("__host__") || is_name("__forceinline__") || is_name("__noinline__") ||
                   is_name("inline") || is_name("static") || is_name("extern") ||
                   is_name("volatile") || is_name("__inline__"))) {
        return;
      }
      is_extern = is_extern || is_name("extern");
      is_volatile = is_volatile || is_name("volatile");
      take();
    }
  };
  specifiers();
  if (shared || (is_name("extern") && is_name("__shared__", 1))) {
    for (int s : shared_declarations(begin, is_extern, is_volatile)) globals_.push_back(s);
    if (is(";")) take();
    return;
  }
  std::optional<TypeRef> type = try_type(true);
  if (!type && peek().kind == Tok::name &&
      (peek(1).kind == Tok::name || is("*", 1) || is("&", 1))) {
    type = TypeRef{take().text, 0, 0, {}, false};  // a type of a header BankLab does not read
    while (is("*") || is("&")) type->pointer = take().text == "*" || type->pointer;
  }
  if (!type) {
    skip_statement();  // something else at the top level: nothing the scan needs
    return;
  }
  specifiers();
  if (peek().kind != Tok::name) {
    skip_statement();
    return;
  }
  const Token name = take();
  std::string full = name.text;
  while (is("::") && peek(1).kind == Tok::name) {  // Class::method: not a kernel's concern
    take();
    full += "::" + take().text;
  }
  if (is("(")) {
    function(full, name.pos, *type, kernel, device, launch_bounds, std::move(templ));
    return;
  }
  globals_.push_back(declarators_at(name, *type, constant, begin));
}

void SourceParser::parameters(Function& f) {
  expect("(", "to open the parameters");
  if (is_name("void") && is(")", 1)) take();
  while (!at_end() && !is(")")) {
    std::optional<TypeRef> type = try_type(true);
    if (!type && peek().kind == Tok::name) {
      // A type of a header BankLab does not read, qualified or not: const std::vector<float>&.
      while (is_name("const") || is_name("volatile")) take();
      std::string qualified = take().text;
      if (is("<")) skip_balanced_angles();
      while (is("::") && peek(1).kind == Tok::name) {
        take();
        qualified += "::" + take().text;
        if (is("<")) skip_balanced_angles();
      }
      type = TypeRef{qualified, 0, 0, {}, false};
      while (is("*") || is("&") || is_name("const") || is_name("__restrict__")) {
        type->pointer = type->pointer || is("*");
        type->reference = type->reference || is("&");
        take();
      }
    }
    if (!type) fail(peek().pos, "expected a parameter, found " + describe(peek()));
    Variable v{.name = "", .type = *type, .pos = peek().pos, .parameter = true};
    if (Token name; pointer_to_array(v.type, &name)) {  // half (*dst)[kHeadDim + kPad]
      v.name = name.text;
      v.pos = name.pos;
    } else if (peek().kind == Tok::name) {
      v.name = take().text;
    }
    while (is("[")) {  // T a[] is T* a
      skip_balanced();
      v.type.pointer = true;
    }
    if (is("=")) {  // a default value: the launch passes one
      take();
      expression();
    }
    f.params.push_back(new_var(std::move(v)));
    if (is(",")) take();
  }
  expect(")", "to close the parameters");
}

void SourceParser::function(const std::string& name, Pos pos, TypeRef returns, bool kernel,
                            bool device, int launch_bounds, std::vector<TemplateParam> templ) {
  const int index = static_cast<int>(program_.functions.size());
  program_.functions.push_back({.name = name,
                                .pos = pos,
                                .kernel = kernel,
                                .host = !kernel && !device,
                                .launch_bounds = launch_bounds,
                                .returns = returns});
  if (!templ.empty()) template_functions.insert(name);
  const int outer = function_;
  function_ = index;
  push_scope();
  for (const TemplateParam& t : templ) {
    Variable v{.name = t.name,
               .type = t.is_type ? TypeRef{"typename", 0, 0, {}, false} : t.type,
               .pos = t.pos,
               .constant = true,
               .template_param = true,
               .default_value = t.default_value};
    if (t.is_type) v.type.name = "typename " + t.name + (t.type.known() ? "=" + t.type.name : "");
    const int var = new_var(std::move(v));
    program_.functions[static_cast<std::size_t>(index)].template_params.push_back(var);
  }
  Function& f = program_.functions[static_cast<std::size_t>(index)];
  parameters(f);
  while (is_name("const") || is_name("noexcept") || is_name("override")) take();
  if (is("->")) {
    take();
    try_type(true);
  }
  if (is("{")) {
    if (program_.functions[static_cast<std::size_t>(index)].host) {
      host_body();
    } else {
      const int body = block();
      program_.functions[static_cast<std::size_t>(index)].body = body;
    }
  } else {
    skip_statement();  // a declaration: the definition comes later
  }
  pop_scope();
  function_ = outer;
}

// [SECTION] Statements

int SourceParser::block() {
  const Pos begin = peek().pos;
  expect("{", "to open a block");
  push_scope();
  Stmt s{.kind = StmtKind::block, .begin = begin};
  while (!at_end() && !is("}")) {
    const int st = statement();
    if (st >= 0) s.body.push_back(st);
  }
  s.end = peek().pos;
  expect("}", "to close the block");
  pop_scope();
  return add_stmt(std::move(s));
}

// A statement, or one "not read" with the reason when BankLab cannot read it. Statements
// nested past kMaxStatementDepth (blocks, if, else if, loops) stop the whole file: each level is
// a frame of the parser and of the machine, and no kernel nests that deep.
int SourceParser::statement() {
  const std::size_t from = in_.position();
  const Pos begin = peek().pos;
  const std::size_t scopes = scopes_.size();
  if (statement_depth_ == kMaxStatementDepth) {
    throw TooDeep{begin, "statements nest deeper than " + std::to_string(kMaxStatementDepth) +
                             " levels (blocks, if, else if and loops inside one another)"};
  }
  ++statement_depth_;
  struct Leave {
    int& depth;
    ~Leave() { --depth; }
  } leave{statement_depth_};
  try {
    return statement_inner();
  } catch (const TooDeep&) {
    throw;
  } catch (Failure& f) {
    scopes_.resize(std::max<std::size_t>(scopes, 1));
    return unread(from, begin, f.message);
  }
}

int SourceParser::statement_inner() {
  const Pos begin = peek().pos;
  if (peek().kind == Tok::pragma) {
    pending_unroll_ = static_cast<int>(take().number);
    return -1;
  }
  if (is("{")) return block();
  if (is(";")) {
    take();
    return -1;
  }
  if ((is_name("struct") || is_name("class") || is_name("union")) && peek(1).kind == Tok::name &&
      (is("{", 2) || is_name("__align__", 1) || is_name("alignas", 1))) {
    record_type();  // a struct of the function: laid out as one of the file
    return -1;
  }
  if (is_name("typedef") && (is_name("struct", 1) || is_name("union", 1))) {
    alias();
    return -1;
  }
  if (is_name("if")) return if_statement(begin);
  if (is_name("for")) return for_statement(begin);
  if (is_name("while")) {
    take();
    Stmt s{.kind = StmtKind::while_, .begin = begin, .unroll = std::exchange(pending_unroll_, -1)};
    expect("(", "after while");
    s.a = comma_expression();
    expect(")", "to close the condition");
    s.body.push_back(statement());
    if (s.body[0] < 0) s.body[0] = add_stmt({.kind = StmtKind::block});
    s.end = peek().pos;
    return add_stmt(std::move(s));
  }
  if (is_name("do")) {
    take();
    Stmt s{.kind = StmtKind::do_, .begin = begin, .unroll = std::exchange(pending_unroll_, -1)};
    s.body.push_back(statement());
    if (s.body[0] < 0) s.body[0] = add_stmt({.kind = StmtKind::block});
    if (!is_name("while")) fail(peek().pos, "expected while after do's body");
    take();
    expect("(", "after while");
    s.a = comma_expression();
    expect(")", "to close the condition");
    s.end = peek().pos;
    expect(";", "after do ... while (...)");
    return add_stmt(std::move(s));
  }
  if (is_name("break") || is_name("continue")) {
    const StmtKind kind = take().text == "break" ? StmtKind::break_ : StmtKind::continue_;
    expect(";", "after break or continue");
    return add_stmt({.kind = kind, .begin = begin});
  }
  if (is_name("return")) {
    take();
    Stmt s{.kind = StmtKind::return_, .begin = begin};
    if (!is(";")) s.a = comma_expression();
    s.end = peek().pos;
    expect(";", "after return");
    return add_stmt(std::move(s));
  }
  for (std::string_view word : {"switch", "goto", "try", "throw", "case", "default"}) {
    if (is_name(word)) fail(begin, "'" + std::string(word) + "' is not read by BankLab");
  }
  if (is_name("asm") || is_name("__asm__") || is_name("__asm")) {
    Asm a = asm_statement();
    Stmt s{.kind = StmtKind::asm_,
           .begin = begin,
           .end = peek().pos,
           .text = std::move(a.text),
           .args = std::move(a.operands),
           .outputs = a.outputs};
    expect(";", "after asm(...)");
    return add_stmt(std::move(s));
  }
  if (is_name("__shared__") || (is_name("extern") && is_name("__shared__", 1)) ||
      ((is_name("static") || is_name("volatile")) && is_name("__shared__", 1))) {
    Stmt s{.kind = StmtKind::block, .begin = begin, .body = shared_declarations(begin)};
    expect(";", "after the shared declaration");
    return s.body.size() == 1 ? s.body[0] : add_stmt(std::move(s));
  }
  bool constant = false;
  while (is_name("static") || is_name("constexpr") || is_name("register") ||
         is_name("__device__")) {
    constant = constant || is_name("constexpr");
    take();
  }
  if (looks_like_declaration()) return local_declaration(begin, constant || is_name("const"));
  Stmt s{.kind = StmtKind::expr, .begin = begin};
  s.a = comma_expression();
  s.end = peek().pos;
  expect(";", "after the statement");
  return add_stmt(std::move(s));
}

int SourceParser::if_statement(Pos begin) {
  take();
  if (is_name("constexpr")) take();
  Stmt s{.kind = StmtKind::if_, .begin = begin};
  expect("(", "after if");
  s.a = comma_expression();
  expect(")", "to close the condition");
  const int then = statement();
  s.body.push_back(then >= 0 ? then : add_stmt({.kind = StmtKind::block}));
  if (is_name("else")) {
    take();
    const int otherwise = statement();
    s.body.push_back(otherwise >= 0 ? otherwise : add_stmt({.kind = StmtKind::block}));
  }
  s.end = peek().pos;
  return add_stmt(std::move(s));
}

int SourceParser::for_statement(Pos begin) {
  take();
  Stmt s{.kind = StmtKind::for_, .begin = begin, .unroll = std::exchange(pending_unroll_, -1)};
  expect("(", "after for");
  push_scope();
  int init = -1;
  if (is(";")) {
    take();
  } else if (looks_like_declaration() || is_name("const") || is_name("constexpr")) {
    bool constant = false;
    while (is_name("const") || is_name("constexpr")) {
      constant = true;
      take();
    }
    init = local_declaration(peek().pos, constant);
  } else {
    init = add_stmt({.kind = StmtKind::expr, .begin = peek().pos, .a = comma_expression()});
    expect(";", "after the loop's start");
  }
  if (!is(";")) s.a = comma_expression();
  expect(";", "after the loop's condition");
  if (!is(")")) s.c = comma_expression();
  expect(")", "to close for (...)");
  const int body = statement();
  s.body = {init, body >= 0 ? body : add_stmt({.kind = StmtKind::block})};
  s.end = peek().pos;
  pop_scope();
  return add_stmt(std::move(s));
}

// [SECTION] Declarations

// T name ...: a type BankLab knows, or a name followed by a declarator (T x = ..., T* p, T a[4]).
bool SourceParser::looks_like_declaration() const {
  std::size_t i = 0;
  while (is_name("const", i) || is_name("volatile", i) || is_name("unsigned", i) ||
         is_name("signed", i) || is_name("struct", i) || is_name("typename", i)) {
    if (is_name("unsigned", i) || is_name("signed", i)) return true;
    ++i;
  }
  const Token& t = peek(i);
  if (t.kind != Tok::name) return false;
  if (i == 0 && lookup(t.text) != nullptr && !type_names.contains(t.text)) return false;
  if (find_type(t.text) != nullptr || is_integer_word(t.text) || aliases.contains(t.text) ||
      type_names.contains(t.text) || t.text == "dim3" || t.text == "float3" || t.text == "int3" ||
      t.text == "uint3" || t.text == "uint") {
    // float (*rows)[33], float (&row)[33]: a pointer to arrays, a reference to one; float(x)
    // alone is a cast.
    return !is("(", i + 1) || t.text == "dim3" || is("*", i + 2) ||
           (is("&", i + 2) && peek(i + 3).kind == Tok::name && is(")", i + 4));
  }
  if (lookup(t.text) != nullptr) return false;
  // An unknown type: NAME NAME, NAME * NAME, NAME & NAME, NAME<...> NAME.
  if (peek(i + 1).kind == Tok::name) return true;
  if ((is("*", i + 1) || is("&", i + 1)) && peek(i + 2).kind == Tok::name &&
      (is("=", i + 3) || is(";", i + 3) || is(",", i + 3) || is("[", i + 3))) {
    return true;
  }
  return false;
}

int SourceParser::local_declaration(Pos begin, bool constant) {
  std::optional<TypeRef> type = try_type(true);
  if (!type) {
    if (is_name("struct") || is_name("typename")) take();
    type = TypeRef{take().text, 0, 0, {}, false};
    if (is("<")) skip_balanced_angles();
    while (is("*") || is("&")) type->pointer = take().text == "*" || type->pointer;
  }
  const int s = declarators(*type, constant, begin);
  expect(";", "after the declaration");
  return s;
}

int SourceParser::declarators_at(const Token& first, const TypeRef& type, bool constant,
                                 Pos begin) {
  pending_name_ = first;
  const int s = declarators(type, constant, begin);
  if (is(";")) take();
  return s;
}

// name [= v | (v) | {v}] [[N]...], ...: each a variable; its initializer read before it is
// declared, as C++ sees it.
int SourceParser::declarators(const TypeRef& type, bool constant, Pos begin) {
  Stmt s{.kind = StmtKind::decl, .begin = begin};
  while (true) {
    TypeRef t = type;
    while (is("*")) {
      take();
      t.pointer = true;
    }
    while (is("&") || is("&&")) {
      take();
      t.reference = true;
    }
    Token name;
    if (pending_name_) {
      name = *std::exchange(pending_name_, std::nullopt);
    } else if (!pointer_to_array(t, &name)) {  // float (*rows)[33] names it inside
      if (peek().kind != Tok::name) fail(peek().pos, "expected a name after the type " + t.name);
      name = take();
    }
    Variable v{.name = name.text, .type = t, .pos = name.pos};
    while (is("[")) {
      take();
      v.dims.push_back(is("]") ? -1 : comma_expression());
      expect("]", "to close the array bound");
    }
    int init = -1;
    if (is("=")) {
      take();
      init = expression();
    } else if (is("(") || is("{")) {
      const bool paren = is("(");
      const Pos open = take().pos;
      Node list{.kind = NodeKind::list, .pos = open};
      while (!at_end() && !is(paren ? ")" : "}")) {
        list.args.push_back(expression());
        if (is(",")) take();
      }
      take();
      // T x(v) and T x{v} of a scalar type are T x = v; a dim3 keeps its three values.
      init = list.args.size() == 1 && t.name != "dim3" ? list.args[0] : add(std::move(list));
    }
    v.constant = constant && init >= 0;
    s.vars.push_back(new_var(std::move(v)));
    s.inits.push_back(init);
    if (!is(",")) break;
    take();
  }
  s.end = peek().pos;
  return add_stmt(std::move(s));
}

// __shared__ [__align__(N)] T a[..][..], b[..]; extern __shared__ T s[]: each an array.
std::vector<int> SourceParser::shared_declarations(Pos begin, bool is_extern, bool is_volatile) {
  std::vector<int> stmts;
  ArrayDecl first = array_declaration(begin, is_extern);
  first.is_volatile = first.is_volatile || is_volatile;
  while (true) {
    const int index = static_cast<int>(program_.arrays.size());
    declare_array(first.name, index);
    const ArrayDecl copy = first;
    program_.arrays.push_back(std::move(first));
    stmts.push_back(
        add_stmt({.kind = StmtKind::array, .begin = begin, .end = peek().pos, .index = index}));
    if (!is(",")) break;
    take();
    ArrayDecl next{.pos = peek().pos,
                   .type = copy.type,
                   .is_extern = copy.is_extern,
                   .align = copy.align,
                   .is_volatile = copy.is_volatile};
    if (peek().kind != Tok::name) fail(peek().pos, "expected the array's name");
    next.name = take().text;
    while (is("[")) {
      next.dim_pos.push_back(take().pos);
      next.dims.push_back(is("]") ? -1 : expression());
      expect("]", "to close the array bound");
    }
    if (next.dims.empty() && next.is_extern)
      fail(peek().pos, "the shared declaration needs an array: " + next.name + "[N]");
    first = std::move(next);
  }
  return stmts;
}

// [SECTION] Host code: constants and launches

// A host function's body: searched for launches (kernel<<<grid, block, bytes>>>(args)) and
// the declarations of integers and dim3s they may use; a variable changed after its
// declaration has no value the scan can trust.
void SourceParser::host_body() {
  Function& f = program_.functions[static_cast<std::size_t>(function_)];
  (void)f;
  take();  // '{'
  push_scope();
  Stmt body{.kind = StmtKind::block, .begin = peek().pos};
  int depth = 1;
  bool statement_start = true;
  while (!at_end() && depth > 0) {
    const std::size_t at = in_.position();
    if (statement_start && (looks_like_declaration() || is_name("const") || is_name("constexpr") ||
                            is_name("static"))) {
      try {
        bool constant = false;
        while (is_name("const") || is_name("constexpr") || is_name("static")) {
          constant = constant || !is_name("static");
          take();
        }
        const int d = local_declaration(peek().pos, constant);
        body.body.push_back(d);
        continue;
      } catch (Failure&) {
        in_.rewind(at);
      }
    }
    const Token t = take();
    statement_start = t.kind == Tok::punct && (t.text == ";" || t.text == "{" || t.text == "}");
    if (t.kind == Tok::punct && t.text == "{") ++depth;
    if (t.kind == Tok::punct && t.text == "}") --depth;
    if (t.kind != Tok::name) continue;
    // name<<<...>>>(...), name<T, N><<<...>>>(...): a launch.
    std::size_t ahead = 0;
    if (is("<") && template_functions.contains(t.text)) {
      int angle = 0;
      do {
        if (is("<", ahead)) ++angle;
        if (is(">", ahead)) --angle;
        ++ahead;
      } while (angle > 0 && peek(ahead).kind != Tok::end);
    }
    if (is("<<", ahead) && is("<", ahead + 1)) {
      try {
        launch(t);
      } catch (Failure&) {
        // a launch BankLab cannot read: the kernel's block comes from elsewhere
      }
      continue;
    }
    // A variable of this function changed after its declaration: x = .., x += .., ++x, &x.
    if (const Binding* b = lookup(t.text); b != nullptr && b->var >= 0) {
      const bool changed =
          (peek().kind == Tok::punct && peek().text.ends_with("=") && peek().text != "==" &&
           peek().text != "!=" && peek().text != "<=" && peek().text != ">=") ||
          is("++") || is("--");
      if (changed) program_.vars[static_cast<std::size_t>(b->var)].changed = true;
    }
  }
  pop_scope();
  body.end = peek().pos;
  program_.functions[static_cast<std::size_t>(function_)].body = add_stmt(std::move(body));
}

void SourceParser::launch(const Token& kernel) {
  Launch l{.kernel = kernel.text, .pos = kernel.pos, .host = function_};
  if (is("<")) l.templ = template_arguments(0);
  take();  // <<
  take();  // <
  // The configuration up to '>>' '>' (or '>>>'), split at its commas.
  std::vector<std::vector<Token>> parts(1);
  int depth = 0;
  while (!at_end()) {
    if (depth == 0 && is(">>") && is(">", 1)) {
      take();
      take();
      break;
    }
    const Token t = take();
    if (t.kind == Tok::punct && (t.text == "(" || t.text == "[" || t.text == "{")) ++depth;
    if (t.kind == Tok::punct && (t.text == ")" || t.text == "]" || t.text == "}")) --depth;
    if (depth == 0 && t.kind == Tok::punct && t.text == ",") {
      parts.emplace_back();
      continue;
    }
    parts.back().push_back(t);
  }
  for (auto& part : parts) l.config.push_back(parse_slice(std::move(part)));
  expect("(", "after the launch's <<<...>>>");
  while (!at_end() && !is(")")) {
    std::vector<Token> arg;
    int d = 0;
    while (!at_end() && !(d == 0 && (is(",") || is(")")))) {
      const Token t = take();
      if (t.kind == Tok::punct && (t.text == "(" || t.text == "[" || t.text == "{")) ++d;
      if (t.kind == Tok::punct && (t.text == ")" || t.text == "]" || t.text == "}")) --d;
      arg.push_back(t);
    }
    int node = -1;
    try {
      node = parse_slice(std::move(arg));
    } catch (Failure&) {
      node = -1;  // an argument BankLab cannot read: that parameter has no value
    }
    l.args.push_back(node);
    if (is(",")) take();
  }
  program_.launches.push_back(std::move(l));
}

}  // namespace

Program parse_source(std::string_view text) {
  Preprocessed pre = preprocess(tokenize(text, 0), Dialect::file);
  Program program;
  program.macros = std::move(pre.macros);
  SourceParser p(std::move(pre.tokens), program);
  p.file();
  return program;
}

}  // namespace banklab::code
