#pragma once
// The syntax tree of kernel code, as both parsers build it: the Code window's snippet (one
// declaration and one access, parser.hpp) and a whole .cu file (source_parser.hpp). One tree,
// so that one machine (machine.hpp) runs both.
//
//   Program   nodes (expressions), statements, variables, shared arrays, functions, launches
//   Function  a kernel or a __device__ function: parameters, template parameters, a body
//   Stmt      block, declaration, expression, if, for, while, do, break, continue, return,
//             asm, a __shared__ array's declaration
//   Node      one expression: numbers, names (resolved to a variable, an array or nothing),
//             operators (a chain of one precedence is one node), subscripts, members, calls,
//             casts, &, *, assignments, ++ and --
//
// Names are resolved while parsing, as C++ reads code: a name refers to the declaration before
// it in the innermost scope that has one; a name with none stays unresolved and gets its value
// from a --let, a built-in (threadIdx.x) or nowhere.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/code/integer.hpp"
#include "core/code/tokenizer.hpp"

namespace banklab::code {

// A C++ type the code names: a scalar or vector element type, an integer type, a struct of the
// file, or auto.
struct TypeRef {
  std::string name{};                // "float4", "unsigned int"
  int bytes = 0;                     // sizeof (0 for a struct: the machine lays it out)
  int scalar_bytes = 0;              // one component (the same as bytes for scalars)
  std::optional<IntType> integer{};  // an integer type (int, unsigned, uint32_t, bool, ...)
  bool pointer = false;              // T*
  int align = 0;                     // alignof where it is not the size (float3: 4)
  int record = -1;                   // a struct of the file (Program::records)
  bool is_volatile = false;          // volatile T (or, for a pointer, what it points to)
  bool reference = false;            // T& (a parameter that names its argument)
  std::vector<int> rows{};           // T (*)[A][B]: a pointer to arrays of these bounds (nodes)
  bool is_auto() const { return name == "auto"; }
  // A type BankLab knows the size of (a struct of the file has one once it is laid out; a
  // struct of a header or a template type parameter has none).
  bool known() const { return bytes > 0 || is_auto() || (record >= 0 && !pointer); }
};

// A struct (or class, or union) of the file: its data members in order, laid out by the machine
// (Machine::layout) as C++ does: each at the next multiple of its alignment, the size a multiple
// of the largest.
struct Field {
  std::string name{};
  TypeRef type{};
  std::vector<int> dims{};  // an array member's bounds (nodes)
};
struct Record {
  std::string name{};
  Pos pos{};
  bool is_union = false;
  int align = -1;  // __align__(N) / alignas(N): the node
  std::vector<Field> fields{};
  std::string unreadable{};  // why BankLab cannot lay it out (a bit-field, a virtual method)
};
// A type name the code may use as one word ("float4", "uint32_t"), or null.
const TypeRef* find_type(std::string_view name);
// The words that combine into one integer type: "unsigned long long int".
bool is_integer_word(std::string_view word);

enum class NodeKind : std::uint8_t {
  number,     // number (an integer literal; a floating one has `floating`)
  name,       // text: "j", "threadIdx.x"; var or array when resolved
  unary,      // text: "-", "+", "~", "!"; a
  binary,     // operators of one precedence, left to right: args[0] ops[0] args[1] ops[1] ...
  ternary,    // a ? b : c
  subscript,  // a[b]
  member,     // a.text (a vector component: x, y, z, w; or a member BankLab does not track)
  call,       // text(args); template arguments in `templ`
  cast,       // (type) a, reinterpret_cast<type>(a), static_cast<type>(a), type(a)
  address,    // &a
  deref,      // *a
  assign,     // a = b, a += b (text: the operator)
  step,       // ++a, --a, a++, a-- (text: "++" or "--"; number 1: postfix)
  comma,      // a, b
  list,       // { args } (an initializer)
  sizeof_,    // sizeof(type) or sizeof(a): number, when known
};

// One operator of a binary chain and where it stands.
struct Operator {
  std::string text{};
  Pos pos{};
};

// A chain of one precedence (a + b - c + ...) is one node, evaluated in a loop: a sum of 9,000
// terms is not 9,000 levels of recursion.
struct Node {
  NodeKind kind = NodeKind::number;
  Pos pos{};  // where the caret goes: the operator, the name, the opening bracket
  std::string text = {};
  std::int64_t number = 0;
  TypeRef type = {};  // casts; a number's literal type
  int a = -1, b = -1, c = -1;
  int var = -1;                    // name: the Variable it refers to, if declared before it
  int array = -1;                  // name: the shared array it names
  bool floating = false;           // number: a floating-point literal (1.5f): no integer value
  std::vector<int> args = {};      // calls; the operands of a binary chain; a list's items
  std::vector<Operator> ops = {};  // binary: the operator after each operand but the last
  std::vector<int> templ = {};     // call: explicit template arguments (nodes)
};

// A name the code declares with a type: a local, a parameter, a constant (also a global one),
// a template parameter.
struct Variable {
  std::string name{};
  TypeRef type{};
  Pos pos{};
  int function = -1;            // the function it belongs to; -1: the file's scope
  int slot = 0;                 // its place in that function's frame (or the file's)
  bool constant = false;        // constexpr, or const with an initializer
  bool parameter = false;       // a function's parameter
  bool template_param = false;  // a template parameter (a value from the launch or --let)
  int default_value = -1;       // a template parameter's default (a node)
  bool changed = false;         // a host variable assigned after its declaration
  std::vector<int> dims{};      // a local array's bounds (nodes): BankLab does not track it
};

// A __shared__ array: static (bounds given) or extern (the first bound is the launch's).
struct ArrayDecl {
  Pos pos{};
  std::string name{};
  TypeRef type{};
  bool is_extern = false;
  std::vector<int> dims{};  // nodes; -1 for the empty first bound of an extern array
  std::vector<Pos> dim_pos{};
  int align = -1;            // __align__(N): the node
  bool is_volatile = false;  // volatile __shared__: every access stays as written
};

enum class StmtKind : std::uint8_t {
  block,      // body: the statements
  decl,       // vars[i] = inits[i] (an init of -1: none)
  array,      // the shared array `index`
  expr,       // the expression `a`
  if_,        // a: the condition; body[0] then, body[1] else (if any)
  for_,       // body[0] init (or none), a: condition (-1: none), c: step, body[1] the body
  while_,     // a: condition, body[0]
  do_,        // body[0], a: condition
  break_,     //
  continue_,  //
  return_,    // a: the value, or -1
  asm_,       // text: the instruction(s); args: operands in order; outputs: how many
  unread,     // a statement BankLab could not read: text the reason; vars the variables it
              // names (unknown after it); index 1 when it names a shared array or a pointer
};

struct Stmt {
  StmtKind kind = StmtKind::block;
  Pos begin{}, end{};  // the first token and the one after the statement
  int a = -1, c = -1;
  int index = -1;            // array: the ArrayDecl
  std::vector<int> body{};   // statements
  std::vector<int> vars{};   // decl: the variables declared
  std::vector<int> inits{};  // decl: each variable's initializer node, or -1
  std::string text{};        // asm: the instruction text
  std::vector<int> args{};   // asm: the operands' nodes, outputs first
  int outputs = 0;           // asm: how many operands are outputs
  int unroll = -1;           // for/while: #pragma unroll N before it (0: unroll, 1: not)
};

struct Function {
  std::string name{};
  Pos pos{};
  bool kernel = false;                 // __global__
  bool host = false;                   // a host function: only its launches and constants read
  std::vector<int> params{};           // variables
  std::vector<int> template_params{};  // variables
  int body = -1;                       // the block statement; -1 for a declaration
  int launch_bounds = -1;              // __launch_bounds__(N): the node
  int frame = 0;                       // how many variables its frame holds
  TypeRef returns{};
};

// name<<<grid, block, bytes>>>(args) in a host function, with the constants of that function:
// where a kernel's block, grid and dynamic shared memory come from.
struct Launch {
  std::string kernel{};
  Pos pos{};
  int host = -1;              // the host function it is in (its variables give the values)
  std::vector<int> config{};  // grid, block, and the bytes when given (nodes)
  std::vector<int> args{};    // the kernel's arguments (nodes)
  std::vector<int> templ{};   // template arguments (nodes)
};

// The one access of the Code window's code, and how it was written.
enum class AccessForm : std::uint8_t { load, store, bare };
struct SnippetAccess {
  AccessForm form = AccessForm::bare;
  int node = -1;   // the shared-memory expression (the call for ldmatrix/stmatrix)
  int guard = -1;  // if (guard) around it: lanes where it is 0 take no part
  Pos begin{}, end{};
};

struct Program {
  std::vector<Node> nodes{};
  std::vector<Stmt> stmts{};
  std::vector<Variable> vars{};
  std::vector<ArrayDecl> arrays{};
  std::vector<Function> functions{};
  std::vector<Launch> launches{};
  std::vector<Record> records{};
  std::vector<std::string> macros{};      // the names #defined
  int globals = 0;                        // how many variables the file's scope holds
  int global_body = -1;                   // the file's declarations, run before a kernel
  std::optional<SnippetAccess> access{};  // the Code window's code only
  const Node& node(int i) const { return nodes[static_cast<std::size_t>(i)]; }
  const Stmt& stmt(int i) const { return stmts[static_cast<std::size_t>(i)]; }
};

// Whether the node is a matrix call ("ldmatrix.x4(...)", "stmatrix_x4(...)").
bool is_matrix_call(const Node& n);

}  // namespace banklab::code
