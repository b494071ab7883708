#pragma once
// The parser of kernel code: the syntax tree, and the recursive-descent parser that builds it
// from the preprocessed token stream (the grammar is in kernel_code.hpp). The evaluator
// (evaluator.hpp) gives the tree its values per lane.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/code/integer.hpp"
#include "core/code/kernel_code.hpp"
#include "core/code/tokenizer.hpp"

namespace banklab::code {

// A C++ type the code names: a scalar or vector element type, an integer type, or auto.
struct TypeRef {
  std::string name;                // "float4", "unsigned int"
  int bytes = 0;                   // sizeof
  int scalar_bytes = 0;            // one component (the same as bytes for scalars)
  std::optional<IntType> integer;  // an integer type (int, unsigned, uint32_t, bool, ...)
  bool pointer = false;            // T*
  bool is_auto() const { return name == "auto"; }
};
// A type name the code may use as one word ("float4", "uint32_t"), or null.
const TypeRef* find_type(std::string_view name);

enum class NodeKind : std::uint8_t {
  number,     // number
  name,       // text: "j", "threadIdx.x"
  unary,      // text: "-", "+", "~", "!"; a
  binary,     // operators of one precedence, left to right: args[0] ops[0] args[1] ops[1] ...
  ternary,    // a ? b : c
  subscript,  // a[b]
  member,     // a.text (a vector component: x, y, z, w)
  call,       // text(args)
  cast,       // (type) a, reinterpret_cast<type>(a), static_cast<type>(a)
  address,    // &a
  deref,      // *a
};

// One operator of a binary chain and where it stands.
struct Operator {
  std::string text;
  Pos pos;
};

// A chain of one precedence (a + b - c + ...) is one node, evaluated in a loop: a sum of 9,000
// terms is not 9,000 levels of recursion.
struct Node {
  NodeKind kind = NodeKind::number;
  Pos pos;  // where the caret goes: the operator, the name, the opening bracket
  std::string text = {};
  std::int64_t number = 0;
  TypeRef type = {};  // casts; a number's literal type
  int a = -1, b = -1, c = -1;
  int definition = -1;             // name: the Definition it refers to, if declared before it
  std::vector<int> args = {};      // calls; the operands of a binary chain
  std::vector<Operator> ops = {};  // binary: the operator after each operand but the last
};

// TYPE NAME = value: a constant or a local, seen by the code after it.
struct Definition {
  std::string name;
  int value = -1;  // the node
  TypeRef type;
};

struct SharedDecl {
  Pos pos;
  std::string name;
  TypeRef type;
  bool is_extern = false;
  std::vector<int> dims;  // nodes; -1 for the empty first bound of an extern array
  std::vector<Pos> dim_pos;
};

enum class AccessForm : std::uint8_t { load, store, bare };

struct AccessStmt {
  AccessForm form = AccessForm::bare;
  int node = -1;  // the shared-memory expression (the call for ldmatrix/stmatrix)
  Pos begin, end;
};

struct Program {
  std::vector<Node> nodes;
  std::vector<Definition> defs;     // constants and locals, in the order of the code
  std::vector<std::string> macros;  // the names #defined
  std::optional<SharedDecl> shared;
  std::optional<AccessStmt> access;
  int guard = -1;  // if (guard) around the access: lanes where it is 0 take no part
};

// The whole code: throws Failure for the first thing it cannot read.
Program parse_program(std::span<const CodeSource> sources);
// One expression and nothing after it (evaluate_integer).
Program parse_expression(std::string_view text, int* root);

// Whether the node is a matrix call ("ldmatrix.x4(...)", "stmatrix_x4(...)").
bool is_matrix_call(const Node& n);

}  // namespace banklab::code
