#pragma once
// What both parsers of kernel code share (parser.cpp reads the Code window's snippet,
// source_parser.cpp a whole .cu file): the token cursor, C++ types, expressions by precedence,
// and the scopes that resolve each name to its declaration as the code is read.
//
// The two dialects differ in what an expression may do. The snippet's is an index: no
// assignment, no ++/--, no ->, and a cast only to an integer or a pointer type (each refused
// with a message saying what to write instead). A file's is any C++ expression a kernel uses:
// assignments (a chain of them is right-associative), ++/--, the comma operator, ->, ::,
// sizeof, functional casts (int(x)), braces, template arguments of known template functions.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/code/preprocessor.hpp"
#include "core/code/syntax.hpp"

namespace banklab::code {

class ExpressionParser {
 public:
  ExpressionParser(std::vector<Token> tokens, Dialect dialect, Program& program);

  const Token& peek(std::size_t ahead = 0) const { return in_.peek(ahead); }
  bool at_end() const { return in_.at_end(); }
  bool is(std::string_view punct, std::size_t ahead = 0) const { return in_.is(punct, ahead); }
  bool is_name(std::string_view name, std::size_t ahead = 0) const {
    return in_.is_name(name, ahead);
  }
  Token take() { return in_.take(); }
  void expect(std::string_view punct, std::string_view what);
  static std::string describe(const Token& t);

  // An expression without the comma operator (an argument, an initializer, a condition).
  int expression(int depth = 0);
  // A file's expression statement: assignments and commas included. `depth` carries the
  // nesting of an enclosing expression ((...) and [...] in a file hold comma expressions).
  int comma_expression(int depth = 0);
  // A type: cv-qualifiers, one known word or integer words ("unsigned long long"), in a file
  // also a typedef of one, a struct or template type name (its size unknown), then '*' when
  // allowed.
  std::optional<TypeRef> try_type(bool allow_pointer);
  // After a type, in a file: (*)[A][B], or (*name)[A][B] where name is given, makes the type a
  // pointer to arrays of those bounds (TypeRef::rows); (&name)[A] a reference to such an array.
  // False, nothing taken, where it is not one.
  bool pointer_to_array(TypeRef& type, Token* name);
  // An expression read from other tokens than the cursor's (a launch's <<<...>>>, whose '>>'
  // the cursor's expression would take for a shift), in the same scopes.
  int parse_slice(std::vector<Token> tokens);
  int add(Node n);

  // [extern] [volatile] __shared__ [__align__(N)] T name[D0][D1]... (the tokens from the first
  // of those words on; `is_extern` when the caller took `extern` already): the declaration,
  // without its ';'. In a file, a shared variable of no bound (__shared__ float total) too.
  ArrayDecl array_declaration(Pos begin, bool is_extern = false);
  // asm [volatile] ("text" : outputs : inputs : clobbers): the text, where it stands, and the
  // operands, outputs first.
  struct Asm {
    std::string text;
    Pos text_pos;
    std::vector<int> operands;
    int outputs = 0;
  };
  Asm asm_statement();

  // Scopes: a name declared in the innermost scope that has it.
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }
  void declare_var(const std::string& name, int var) { scopes_.back()[name] = {var, -1}; }
  void declare_array(const std::string& name, int array) { scopes_.back()[name] = {-1, array}; }
  bool declared_here(const std::string& name) const { return scopes_.back().contains(name); }
  // Names a file declares as types (struct, class, typedef, using, typename T).
  std::unordered_set<std::string> type_names;
  std::unordered_map<std::string, TypeRef> aliases;   // typedef/using of a type BankLab knows
  std::unordered_map<std::string, int> record_index;  // structs of the file: Program::records
  // Functions a file declares with template parameters: name<...>( is a call, not a compare.
  std::unordered_set<std::string> template_functions;

 protected:
  struct Binding {
    int var = -1;
    int array = -1;
  };
  const Binding* lookup(const std::string& name) const;
  int ternary(int depth);
  int binary(int min_prec, int depth);
  int unary(int depth);
  int postfix(int depth);
  int primary(int depth);
  int name_expression(const Token& t, int depth);
  int call(const Token& name, std::vector<int> templ, int depth);
  int dotted(const Token& t, const std::string& name);
  int expression_call(int callee, int depth);
  int cast_to(Pos pos, TypeRef type, int depth);
  std::vector<int> template_arguments(int depth);
  std::vector<int> asm_operands();

  TokenCursor in_;
  Dialect dialect_;
  Program& program_;
  std::vector<std::unordered_map<std::string, Binding>> scopes_;
};

}  // namespace banklab::code
