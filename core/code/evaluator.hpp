#pragma once
// The evaluator of kernel code: the values of the parser's syntax tree (parser.hpp) for one lane
// at a time, in 64-bit integers with every step checked (overflow, division by zero and shifts
// outside 0..63 are errors, not wrapped values), and the places in the shared array that
// pointers, rows and elements stand for.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/code/kernel_code.hpp"
#include "core/code/parser.hpp"

namespace banklab::code {

// What an expression is: a number, or a place in the shared array (a pointer, a whole array or
// one of its rows, an element), or an ldmatrix/stmatrix call.
struct Value {
  enum class Kind : std::uint8_t { integer, pointer, array, lvalue, matrix };
  Kind kind = Kind::integer;
  std::int64_t v = 0;      // the number, or a byte offset into the shared array
  std::int64_t bytes = 0;  // pointer: the size it points to; array: its size; lvalue: the width
  int scalar = 0;          // lvalue and pointer: one component (the .x of a float4)
  int level = 0;           // array: subscripts applied; pointer: the level it points to
  Op op = Op::ld;          // matrix
};

// The shared array with its bounds evaluated.
struct Shape {
  SharedArray array;
  std::vector<std::int64_t> sizes;  // sizes[L]: bytes of one sub-array after L subscripts
  int levels() const { return static_cast<int>(array.dims.size()); }
};

class Evaluator {
 public:
  Evaluator(const Program& p, const KernelParams& params, const Shape* shape)
      : p_(p), params_(params), shape_(shape) {}

  // No thread: the bounds of the array, the integer expressions of the tests.
  void set_constant() { thread_.reset(); }
  void set_thread(int lane, std::array<int, 3> thread) {
    lane_ = lane;
    thread_ = thread;
  }
  const std::vector<std::int64_t>& indices() const { return indices_; }

  Value eval(int node);
  std::int64_t integer(int node) {
    const Value v = eval(node);
    if (v.kind != Value::Kind::integer) fail(at(node).pos, not_integer(v));
    return v.v;
  }
  // "lane 5 (threadIdx 5,0,0): ", the start of a message about one lane's values.
  std::string where() const {
    if (!thread_) return {};
    const auto& t = *thread_;
    return "lane " + std::to_string(lane_) + " (threadIdx " + std::to_string(t[0]) + "," +
           std::to_string(t[1]) + "," + std::to_string(t[2]) + "): ";
  }
  bool is_defined(const std::string& name) const;

 private:
  const Node& at(int node) const { return p_.nodes[static_cast<std::size_t>(node)]; }
  std::string not_integer(const Value& v) const;
  Value name(const Node& n);
  Value binary(const Node& n);
  std::int64_t arithmetic(const Node& n, std::int64_t a, std::int64_t b) const;
  Value subscript(const Node& n);
  Value deref(const Node& n, Value ptr);
  Value decay(Value v) const;
  Value cast(const Node& n);
  Value call(const Node& n);
  Value matrix_call(const Node& n);
  Value offset(const Node& n, Value ptr, std::int64_t k, bool minus) const;

  const Program& p_;
  const KernelParams& params_;
  const Shape* shape_;
  std::optional<std::array<int, 3>> thread_;
  int lane_ = 0;
  std::vector<std::int64_t> indices_;
  std::vector<std::string> evaluating_;  // definitions being evaluated (a loop is an error)
};

// The op a matrix call names: ldmatrix.x4, ldmatrix_x2, ldmatrix.sync.aligned.m8n8.x1.shared.b16.
Op matrix_op(const Node& n);

// The array's bounds, each a constant of 1 or more, and the whole within the limits of its
// declaration (core/model/shared_limits.hpp: 48 KB static, 227 KB a block).
Shape shape_of(const Program& p, const KernelParams& params);

}  // namespace banklab::code
