// The parser of the Code window's code (parser.hpp): the statements of the snippet grammar on
// top of the shared expressions (expression_parser.hpp). Each rule the grammar has (one array,
// one access, one guard) is a message that says what to write instead.
#include "core/code/parser.hpp"

#include <utility>

#include "core/code/expression_parser.hpp"

namespace banklab::code {
namespace {

class SnippetParser : public ExpressionParser {
 public:
  SnippetParser(std::vector<Token> tokens, Program& program)
      : ExpressionParser(std::move(tokens), Dialect::snippet, program) {
    Function code{.name = "code", .kernel = true};
    code.body = add_stmt({.kind = StmtKind::block});
    program_.functions.push_back(std::move(code));
  }

  void statement();

 private:
  int add_stmt(Stmt s) {
    program_.stmts.push_back(std::move(s));
    return static_cast<int>(program_.stmts.size()) - 1;
  }
  void append(Stmt s) {
    const int i = add_stmt(std::move(s));
    program_.stmts[static_cast<std::size_t>(program_.functions[0].body)].body.push_back(i);
  }
  // A statement ends at ';', or where its line or its source ends.
  void end_statement(std::string_view what) {
    if (is(";")) {
      take();
    } else if (!at_end() && !peek().line_start) {
      fail(peek().pos, "expected ';' " + std::string(what) + ", found " + describe(peek()));
    }
  }
  bool is_memory(int node) const;
  void set_access(AccessForm form, int node, Pos begin);
  void shared_declaration(Pos begin);
  void definition(const TypeRef& type, bool constant, Pos begin);
  void guarded_statement(Pos begin);
  void matrix_asm(Pos begin);

  int guard_ = -1;
};

// Whether an expression reads or writes shared memory at its top: a subscript, *p, v.x, or an
// ldmatrix/stmatrix call (casts to integers and parentheses around them included).
bool SnippetParser::is_memory(int node) const {
  const Node& n = program_.node(node);
  if (n.kind == NodeKind::cast && !n.type.pointer) return is_memory(n.a);
  return n.kind == NodeKind::subscript || n.kind == NodeKind::deref || n.kind == NodeKind::member ||
         is_matrix_call(n);
}

void SnippetParser::set_access(AccessForm form, int node, Pos begin) {
  if (program_.access) {
    fail(begin,
         "a second shared-memory access: BankLab analyses one instruction, the first is "
         "at column " +
             std::to_string(program_.access->begin.offset + 1));
  }
  program_.access = SnippetAccess{form, node, -1, begin, peek().pos};
}

void SnippetParser::shared_declaration(Pos begin) {
  ArrayDecl d = array_declaration(begin);
  if (!program_.arrays.empty()) fail(begin, "a second __shared__ declaration: give one array");
  declare_array(d.name, 0);
  program_.arrays.push_back(std::move(d));
  append({.kind = StmtKind::array, .begin = begin, .index = 0});
  end_statement("after the shared declaration");
}

// TYPE NAME = expr [, NAME = expr]; : constants and locals, or a load into a new variable.
void SnippetParser::definition(const TypeRef& type, bool constant, Pos begin) {
  Stmt decl{.kind = StmtKind::decl, .begin = begin};
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
    if (is_memory(value)) {
      set_access(AccessForm::load, value, begin);
    } else {
      if (declared_here(name.text)) fail(name.pos, name.text + " is defined twice");
      const int var = static_cast<int>(program_.vars.size());
      program_.vars.push_back({.name = name.text,
                               .type = type,
                               .pos = name.pos,
                               .function = 0,
                               .slot = program_.functions[0].frame++,
                               .constant = constant});
      declare_var(name.text, var);
      decl.vars.push_back(var);
      decl.inits.push_back(value);
    }
    if (!is(",")) break;
    take();
  }
  end_statement("after the definition");
  if (!decl.vars.empty()) append(std::move(decl));
}

// if (cond) access; / if (cond) { access; }: the lanes for which cond is 0 take no part.
void SnippetParser::guarded_statement(Pos begin) {
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
  if (guard_ >= 0) fail(begin, "one if around the access: join the conditions with &&");
  guard_ = cond;
  program_.access->guard = cond;
}

// asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : outputs :
// inputs): the instruction's name and the operand in [...], the row address.
void SnippetParser::matrix_asm(Pos begin) {
  const Asm a = asm_statement();
  const std::size_t start = a.text.find_first_not_of(" \t\n");
  const std::string name = a.text.substr(start == std::string::npos ? 0 : start,
                                         a.text.find_first_of(" \t\n", start) - start);
  if (!name.starts_with("ldmatrix") && !name.starts_with("stmatrix")) {
    fail(a.text_pos,
         "asm: only ldmatrix and stmatrix are understood; write a load or a store "
         "in C++");
  }
  const std::size_t open = a.text.find("[%");
  std::size_t digits = open == std::string::npos ? 0 : open + 2;
  std::size_t index = 0;
  while (digits < a.text.size() && std::isdigit(static_cast<unsigned char>(a.text[digits])))
    index = index * 10 + static_cast<std::size_t>(a.text[digits++] - '0');
  if (open == std::string::npos || digits == open + 2 || index >= a.operands.size()) {
    fail(a.text_pos, "asm: the row address must be an operand in brackets, [%N]");
  }
  Node n{.kind = NodeKind::call, .pos = begin, .text = name};
  n.args.push_back(a.operands[index]);
  set_access(AccessForm::bare, add(std::move(n)), begin);
  end_statement("after asm(...)");
}

void SnippetParser::statement() {
  const Pos begin = peek().pos;
  if (is(";")) {
    take();
    return;
  }
  if (is_name("__syncthreads")) fail(begin, "one access at a time: leave out __syncthreads()");
  if (is_name("if")) return guarded_statement(begin);
  if (is_name("asm") || is_name("__asm__")) return matrix_asm(begin);
  if (is_name("for") || is_name("while") || is_name("else")) {
    fail(begin, "'" + peek().text +
                    "' is not supported: give the loop variable a value with "
                    "--let NAME=VALUE and write the access alone");
  }
  if (is_name("extern") || is_name("__shared__")) return shared_declaration(begin);
  bool constant = false;
  while (is_name("static") || is_name("constexpr") || is_name("__device__") ||
         is_name("register")) {
    constant = constant || is_name("constexpr");
    take();
  }
  constant = constant || is_name("const");
  if (std::optional<TypeRef> type = try_type(true)) return definition(*type, constant, begin);
  const int lhs = expression();
  if (is("=")) {
    take();
    const int rhs = expression();
    if (is_memory(lhs)) {
      if (is_memory(rhs)) {
        fail(begin,
             "this statement loads and stores: BankLab analyses one instruction, "
             "write the load and the store apart");
      }
      set_access(AccessForm::store, lhs, begin);
    } else if (is_memory(rhs)) {
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

Program parse_program(std::span<const CodeSource> sources) {
  std::vector<Token> tokens;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    std::vector<Token> part = tokenize(sources[s].text, static_cast<int>(s));
    if (s + 1 < sources.size()) part.pop_back();  // one end token, after the last source
    if (!part.empty()) part.front().line_start = true;
    tokens.insert(tokens.end(), part.begin(), part.end());
  }
  Preprocessed pre = preprocess(std::move(tokens), Dialect::snippet);
  Program program;
  program.macros = std::move(pre.macros);
  SnippetParser p(std::move(pre.tokens), program);
  while (!p.at_end()) p.statement();
  return program;
}

Program parse_expression(std::string_view text, int* root) {
  Program program;
  SnippetParser p(preprocess(tokenize(text, 0), Dialect::snippet).tokens, program);
  *root = p.expression();
  if (!p.at_end())
    fail(p.peek().pos,
         "unexpected " + ExpressionParser::describe(p.peek()) + " after the expression");
  return program;
}

}  // namespace banklab::code
