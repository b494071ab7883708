#pragma once
// The evaluator of kernel code: the values of the parser's syntax tree (parser.hpp) for one lane
// at a time: integers as C++ computes them (integer.hpp: types, conversions, and what C++
// leaves undefined as errors), and the places in the shared array that pointers, rows and
// elements stand for.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/code/integer.hpp"
#include "core/code/kernel_code.hpp"
#include "core/code/parser.hpp"

namespace banklab::code {

// What an expression is: a number of a C++ integer type, or a place in the shared array (a
// pointer, a whole array or one of its rows, an element), or an ldmatrix/stmatrix call.
struct Value {
  enum class Kind : std::uint8_t { integer, pointer, array, lvalue, matrix };
  Kind kind = Kind::integer;
  std::int64_t v = 0;      // the integer's bits (Int::bits), or a byte offset into the array
  IntType type = kInt;     // integer: its C++ type
  std::int64_t bytes = 0;  // pointer: the size it points to; array: its size; lvalue: the width
  int scalar = 0;          // lvalue and pointer: one component (the .x of a float4)
  int level = 0;           // array: subscripts applied; pointer: the level it points to
  Op op = Op::ld;          // matrix
  Int as_int() const { return {v, type}; }
};

// The shared array with its bounds evaluated.
struct Shape {
  SharedArray array;
  std::vector<std::int64_t> sizes;  // sizes[L]: bytes of one sub-array after L subscripts
  int levels() const { return static_cast<int>(array.dims.size()); }
};

// Evaluates the code for one lane (or for no thread: the array's bounds, the tests' integer
// expressions). The definitions are evaluated once per lane, in the order of the code, when
// the lane is set: a chain of 7,000 locals is 7,000 evaluations, not a recursion 7,000 deep,
// and A1 = A0 + A0, A2 = A1 + A1, ... is linear, not exponential. A definition that fails
// keeps its failure, reported where it is used (an unused one is harmless, as in C++).
class Evaluator {
 public:
  Evaluator(const Program& p, const KernelParams& params, const Shape* shape);

  void set_constant();
  void set_thread(int lane, std::array<int, 3> thread);
  const std::vector<std::int64_t>& indices() const { return indices_; }

  Value eval(int node);
  Int integer(int node);
  bool truth(int node) { return integer(node).bits != 0; }
  // "lane 5 (threadIdx 5,0,0): ", the start of a message about one lane's values.
  std::string where() const;

 private:
  struct Slot {  // one definition's value for the current lane, or why it has none
    Value value;
    std::optional<Failure> failure;
  };
  const Node& at(int node) const { return p_.nodes[static_cast<std::size_t>(node)]; }
  void prepare();
  std::optional<IntType> static_type(int node);
  std::optional<IntType> compute_static_type(const Node& n);
  std::string not_integer(const Value& v) const;
  bool is_value_name(const Node& n) const;
  Value name(const Node& n);
  std::optional<Value> let(const Node& n) const;
  Value binary(const Node& n);
  Value arithmetic(const Operator& op, const Value& a, const Value& b, int b_node);
  Value postfix(int node);
  Value subscript(const Node& n, const Value& base);
  Value member(const Node& n, const Value& v) const;
  Value deref(const Node& n, Value ptr) const;
  Value decay(Value v) const;
  Value cast(const Node& n);
  Value call(const Node& n);
  Value matrix_call(const Node& n);
  Value offset(Pos pos, Value ptr, Int k, bool minus) const;

  const Program& p_;
  const KernelParams& params_;
  const Shape* shape_;
  std::optional<std::array<int, 3>> thread_;
  int lane_ = 0;
  std::vector<std::int64_t> indices_;
  std::vector<Slot> defs_;          // by definition, for the current lane
  int preparing_ = -1;              // the definition being evaluated by prepare()
  std::vector<std::int8_t> typed_;  // static_type: 0 not yet, 1 integer, 2 not one
  std::vector<IntType> types_;      // static_type's answers, by node
};

// threadIdx.x/y/z, blockDim.x/y/z, warpSize: the names the block gives values.
bool is_builtin_name(std::string_view name);

// The op a matrix call names: ldmatrix.x4, ldmatrix_x2, ldmatrix.sync.aligned.m8n8.x1.shared.b16.
Op matrix_op(const Node& n);

// The array's bounds, each a constant of 1 or more, and the whole within the limits of its
// declaration (core/model/shared_limits.hpp: 48 KB static, 227 KB a block).
Shape shape_of(const Program& p, const KernelParams& params);

}  // namespace banklab::code
