// Kernel code evaluated per lane: the values of kernel_code_parse.cpp's syntax tree, in 64-bit
// integers with every step checked, and the shared-memory address each lane's access takes.
#include "core/code/kernel_code.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <climits>

#include "core/base/json_writer.hpp"
#include "core/code/kernel_code_parse.hpp"
#include "core/model/shared_limits.hpp"

namespace banklab {
namespace {

using namespace code;

constexpr Pos kNowhere{-1, 0};  // an error about the code as a whole, with no caret

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

std::string ordinal(int i) {
  static constexpr const char* kWords[] = {"first", "second", "third", "fourth"};
  return i < 4 ? kWords[i] : std::to_string(i + 1) + "th";
}

bool valid_name(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::ranges::all_of(name, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
}

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

std::string Evaluator::not_integer(const Value& v) const {
  const std::string name = shape_ ? shape_->array.name : "the array";
  switch (v.kind) {
    case Value::Kind::lvalue:
      return "an index cannot read a value from " + name +
             ": BankLab knows its addresses, "
             "not its contents";
    case Value::Kind::matrix:
      return "ldmatrix/stmatrix has no value to compute with";
    default:
      break;
  }
  return "expected a number here, but this is an address in " + name;
}

bool Evaluator::is_defined(const std::string& n) const {
  const auto let = std::ranges::find(params_.lets, n, &std::pair<std::string, std::int64_t>::first);
  const auto def = std::ranges::find(p_.defs, n, &std::pair<std::string, int>::first);
  return let != params_.lets.end() || def != p_.defs.end() || n.starts_with("threadIdx.") ||
         n.starts_with("blockDim.") || n == "warpSize" || (shape_ && n == shape_->array.name);
}

Value Evaluator::name(const Node& n) {
  const auto let =
      std::ranges::find(params_.lets, n.text, &std::pair<std::string, std::int64_t>::first);
  if (let != params_.lets.end()) return {.v = let->second};
  const auto def = std::ranges::find(p_.defs, n.text, &std::pair<std::string, int>::first);
  if (def != p_.defs.end()) {
    if (std::ranges::find(evaluating_, n.text) != evaluating_.end())
      fail(n.pos, n.text + " is defined in terms of itself");
    evaluating_.push_back(n.text);
    const Value v = eval(def->second);
    evaluating_.pop_back();
    return v;
  }
  static constexpr std::string_view kAxes[] = {"x", "y", "z"};
  for (int axis = 0; axis < 3; ++axis) {
    if (n.text == "threadIdx." + std::string(kAxes[axis])) {
      if (!thread_)
        fail(n.pos, "a constant is needed here, and " + n.text + " differs from thread to thread");
      return {.v = (*thread_)[static_cast<std::size_t>(axis)]};
    }
    if (n.text == "blockDim." + std::string(kAxes[axis]))
      return {.v = params_.block[static_cast<std::size_t>(axis)]};
  }
  if (n.text == "warpSize") return {.v = kWarpSize};
  if (shape_ && n.text == shape_->array.name) {
    return {.kind = Value::Kind::array, .v = 0, .bytes = shape_->sizes[0], .level = 0};
  }
  std::string hint = params_.let_hint;
  if (const std::size_t at = hint.find("NAME"); at != std::string::npos)
    hint.replace(at, 4, n.text);
  fail(n.pos, n.text + " is not defined: " + hint);
}

Value Evaluator::eval(int node) {
  const Node& n = at(node);
  switch (n.kind) {
    case NodeKind::number:
      return {.v = n.number};
    case NodeKind::name:
      return name(n);
    case NodeKind::unary: {
      const std::int64_t a = integer(n.a);
      if (n.text == "-") {
        if (a == INT64_MIN) fail(n.pos, where() + "-(" + std::to_string(a) + ") overflows 64 bits");
        return {.v = -a};
      }
      if (n.text == "~") return {.v = ~a};
      if (n.text == "!") return {.v = a == 0 ? 1 : 0};
      return {.v = a};
    }
    case NodeKind::binary:
      return binary(n);
    case NodeKind::ternary:
      return eval(integer(n.a) != 0 ? n.b : n.c);
    case NodeKind::subscript:
      return subscript(n);
    case NodeKind::member: {
      const Value v = eval(n.a);
      static constexpr std::string_view kMembers = "xyzw";
      const std::size_t k = n.text.size() == 1 ? kMembers.find(n.text[0]) : std::string::npos;
      if (v.kind != Value::Kind::lvalue || v.bytes == v.scalar || k == std::string::npos ||
          static_cast<std::int64_t>(k) >= v.bytes / v.scalar) {
        fail(n.pos, "." + n.text +
                        " is not a component here: .x, .y, .z, .w name the parts of "
                        "a vector element (float4, half2, ...)");
      }
      return {.kind = Value::Kind::lvalue,
              .v = v.v + static_cast<std::int64_t>(k) * v.scalar,
              .bytes = v.scalar,
              .scalar = v.scalar};
    }
    case NodeKind::call:
      return call(n);
    case NodeKind::cast:
      return cast(n);
    case NodeKind::address: {
      const Value v = eval(n.a);
      if (v.kind == Value::Kind::lvalue) {
        return {.kind = Value::Kind::pointer,
                .v = v.v,
                .bytes = v.bytes,
                .scalar = v.scalar,
                .level = shape_->levels()};
      }
      if (v.kind == Value::Kind::array) {
        return {.kind = Value::Kind::pointer, .v = v.v, .bytes = v.bytes, .level = v.level};
      }
      fail(n.pos, "'&' takes the address of an element of the shared array");
    }
    case NodeKind::deref:
      return deref(n, eval(n.a));
  }
  fail(n.pos, "unknown expression");
}

std::int64_t Evaluator::arithmetic(const Node& n, std::int64_t a, std::int64_t b) const {
  const std::string& op = n.text;
  std::int64_t r = 0;
  const auto overflow = [&] {
    fail(n.pos,
         where() + std::to_string(a) + " " + op + " " + std::to_string(b) + " overflows 64 bits");
  };
  if (op == "+") {
    if (__builtin_add_overflow(a, b, &r)) overflow();
  } else if (op == "-") {
    if (__builtin_sub_overflow(a, b, &r)) overflow();
  } else if (op == "*") {
    if (__builtin_mul_overflow(a, b, &r)) overflow();
  } else if (op == "/" || op == "%") {
    if (b == 0) fail(n.pos, where() + "division by zero: " + std::to_string(a) + " " + op + " 0");
    if (a == INT64_MIN && b == -1) overflow();
    r = op == "/" ? a / b : a % b;
  } else if (op == "<<" || op == ">>") {
    if (b < 0 || b > 63) {
      fail(n.pos, where() + "shift by " + std::to_string(b) + ": a shift count must be 0..63");
    }
    if (op == ">>") return a >> b;
    r = static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << b);
    if ((r >> b) != a) overflow();
  } else if (op == "&") {
    r = a & b;
  } else if (op == "|") {
    r = a | b;
  } else if (op == "^") {
    r = a ^ b;
  } else if (op == "<") {
    r = a < b;
  } else if (op == "<=") {
    r = a <= b;
  } else if (op == ">") {
    r = a > b;
  } else if (op == ">=") {
    r = a >= b;
  } else if (op == "==") {
    r = a == b;
  } else if (op == "!=") {
    r = a != b;
  }
  return r;
}

Value Evaluator::decay(Value v) const {
  if (v.kind != Value::Kind::array) return v;
  // An array (or a row of it) stands for a pointer to its first sub-array or element.
  const int next = v.level + 1;
  const bool element = next == shape_->levels();
  return {.kind = Value::Kind::pointer,
          .v = v.v,
          .bytes = shape_->sizes[static_cast<std::size_t>(next)],
          .scalar = element ? shape_->array.scalar_bytes : 0,
          .level = next};
}

Value Evaluator::offset(const Node& n, Value ptr, std::int64_t k, bool minus) const {
  std::int64_t step = 0;
  if (__builtin_mul_overflow(k, ptr.bytes, &step) ||
      (minus ? __builtin_sub_overflow(ptr.v, step, &ptr.v)
             : __builtin_add_overflow(ptr.v, step, &ptr.v))) {
    fail(n.pos, where() + "the pointer arithmetic overflows 64 bits");
  }
  return ptr;
}

Value Evaluator::binary(const Node& n) {
  if (n.text == "&&" || n.text == "||") {
    const bool a = integer(n.a) != 0;
    if (n.text == "&&" ? !a : a) return {.v = a ? 1 : 0};
    return {.v = integer(n.b) != 0 ? 1 : 0};
  }
  const Value a = decay(eval(n.a));
  const Value b = decay(eval(n.b));
  if (a.kind == Value::Kind::pointer && b.kind == Value::Kind::integer &&
      (n.text == "+" || n.text == "-")) {
    return offset(n, a, b.v, n.text == "-");
  }
  if (a.kind == Value::Kind::integer && b.kind == Value::Kind::pointer && n.text == "+") {
    return offset(n, b, a.v, false);
  }
  if (a.kind != Value::Kind::integer) fail(at(n.a).pos, not_integer(a));
  if (b.kind != Value::Kind::integer) fail(at(n.b).pos, not_integer(b));
  return {.v = arithmetic(n, a.v, b.v)};
}

Value Evaluator::subscript(const Node& n) {
  const Value base = eval(n.a);
  const std::int64_t i = integer(n.b);
  if (base.kind == Value::Kind::array) {
    const SharedArray& a = shape_->array;
    const auto level = static_cast<std::size_t>(base.level);
    const std::int64_t bound = a.dims[level];
    if (i < 0 || i >= bound) {
      fail(n.pos, where() + "index " + std::to_string(i) + " is outside " + a.name + "'s " +
                      ordinal(base.level) + " dimension [" + std::to_string(bound) + "] (0.." +
                      std::to_string(bound - 1) + ")");
    }
    if (base.level == 0) indices_.clear();
    indices_.push_back(i);
    const std::int64_t byte = base.v + i * shape_->sizes[level + 1];
    if (base.level + 1 == shape_->levels()) {
      return {
          .kind = Value::Kind::lvalue, .v = byte, .bytes = a.elem_bytes, .scalar = a.scalar_bytes};
    }
    return {.kind = Value::Kind::array,
            .v = byte,
            .bytes = shape_->sizes[level + 1],
            .level = base.level + 1};
  }
  if (base.kind == Value::Kind::pointer) return deref(n, offset(n, base, i, false));
  if (base.kind == Value::Kind::lvalue) {
    fail(n.pos, "this is already one element of " + shape_->array.name + ": it has no subscript");
  }
  fail(n.pos, "a subscript needs the shared array or a pointer into it");
}

Value Evaluator::deref(const Node& n, Value ptr) {
  ptr = decay(ptr);
  if (ptr.kind != Value::Kind::pointer)
    fail(n.pos, "'*' and [] need a pointer into the shared array");
  if (ptr.level < shape_->levels()) {
    return {.kind = Value::Kind::array, .v = ptr.v, .bytes = ptr.bytes, .level = ptr.level};
  }
  return {.kind = Value::Kind::lvalue, .v = ptr.v, .bytes = ptr.bytes, .scalar = ptr.scalar};
}

Value Evaluator::cast(const Node& n) {
  const Value v = decay(eval(n.a));
  if (!n.type.pointer) {
    if (v.kind != Value::Kind::integer) {
      fail(n.pos, "a cast to " + n.type.name +
                      " takes a number; for the address of an element "
                      "use __cvta_generic_to_shared(&...)");
    }
    return v;
  }
  if (v.kind != Value::Kind::pointer) {
    fail(n.pos, "a cast to " + n.type.name +
                    "* needs an address in the shared array, such as "
                    "&" +
                    (shape_ ? shape_->array.name : std::string("tile")) + "[r][c]");
  }
  if (v.v % n.type.bytes != 0) {
    fail(n.pos, where() + "a cast to " + n.type.name + "* needs an address aligned to " +
                    std::to_string(n.type.bytes) + " bytes (the hardware's rule for an access of " +
                    std::to_string(n.type.bytes) + " bytes), but this one is byte " +
                    std::to_string(v.v) + " (" + std::to_string(v.v % n.type.bytes) +
                    " past a multiple of " + std::to_string(n.type.bytes) + ")");
  }
  return {.kind = Value::Kind::pointer,
          .v = v.v,
          .bytes = n.type.bytes,
          .scalar = n.type.scalar_bytes,
          .level = shape_->levels()};
}

Value Evaluator::call(const Node& n) {
  if (is_matrix_call(n)) return matrix_call(n);
  if ((n.text == "min" || n.text == "max") && n.args.size() == 2) {
    const std::int64_t a = integer(n.args[0]);
    const std::int64_t b = integer(n.args[1]);
    return {.v = n.text == "min" ? std::min(a, b) : std::max(a, b)};
  }
  if (n.text == "__cvta_generic_to_shared" && n.args.size() == 1) {
    const Value v = decay(eval(n.args[0]));
    if (v.kind != Value::Kind::pointer) fail(n.pos, n.text + " takes an address: &tile[r][c]");
    return {.v = v.v};
  }
  fail(n.pos, n.text +
                  "(...) is not understood: the calls are ldmatrix/stmatrix, "
                  "__cvta_generic_to_shared(p), min(a, b) and max(a, b)");
}

// The op a matrix call names: ldmatrix.x4, ldmatrix_x2, ldmatrix.sync.aligned.m8n8.x1.shared.b16.
Op matrix_op(const Node& n) {
  std::string parts = n.text;
  std::ranges::replace(parts, '_', '.');
  parts += '.';
  const bool store = n.text.starts_with("stmatrix");
  const auto has = [&](std::string_view part) {
    std::string dotted(1, '.');
    dotted += part;
    dotted += '.';
    return parts.find(dotted) != std::string::npos;
  };
  if (store) {
    if (has("x1") || has("x2"))
      fail(n.pos,
           "stmatrix.x1 and .x2 are not modelled: BankLab "
           "counts stmatrix.x4 (measured on the H200)");
    if (!has("x4")) fail(n.pos, n.text + " needs its count: stmatrix.x4");
    return Op::stmatrix_x4;
  }
  if (has("x1")) return Op::ldmatrix_x1;
  if (has("x2")) return Op::ldmatrix_x2;
  if (has("x4")) return Op::ldmatrix_x4;
  fail(n.pos, n.text + " needs its count: ldmatrix.x1, ldmatrix.x2 or ldmatrix.x4");
}

// The one argument that is an address (a pointer into the array, or a shared address from
// __cvta_generic_to_shared); undefined plain names are the destination registers.
Value Evaluator::matrix_call(const Node& n) {
  const Op op = matrix_op(n);
  std::optional<Value> address;
  for (int arg : n.args) {
    if (at(arg).kind == NodeKind::name && !is_defined(at(arg).text)) continue;
    const Value v = decay(eval(arg));
    if (v.kind == Value::Kind::lvalue) {
      fail(at(arg).pos, n.text + " takes the row's address: &" + shape_->array.name + "[..][..]");
    }
    if (address) fail(at(arg).pos, n.text + " takes one row address; this is a second");
    address = v;
  }
  if (!address) fail(n.pos, n.text + " needs the row address: " + n.text + "(&tile[r][c])");
  return {.kind = Value::Kind::matrix, .v = address->v, .bytes = 16, .op = op};
}

std::int64_t product_bytes(const Shape& s, std::size_t from) {
  std::int64_t bytes = s.array.elem_bytes;
  for (std::size_t i = from; i < s.array.dims.size(); ++i) bytes *= s.array.dims[i];
  return bytes;
}

// The array's bounds, each a constant of 1 or more, and the whole within the limits of its
// declaration (shared_limits.hpp).
Shape shape_of(const Program& p, const KernelParams& params) {
  if (!p.shared)
    fail(kNowhere,
         "no __shared__ declaration: declare the array, e.g. "
         "__shared__ float tile[32][33];");
  const SharedDecl& d = *p.shared;
  Shape s;
  s.array.name = d.name;
  s.array.type = d.type.name;
  s.array.elem_bytes = d.type.bytes;
  s.array.scalar_bytes = d.type.scalar_bytes;
  s.array.is_extern = d.is_extern;
  Evaluator e(p, params, nullptr);
  e.set_constant();
  std::int64_t bytes = d.type.bytes;
  for (std::size_t i = d.dims.size(); i-- > 0;) {
    std::int64_t n = 0;
    if (d.dims[i] == -1) {
      n = params.extern_bytes / bytes;
      if (n < 1)
        fail(d.dim_pos[i], "extern __shared__ " + d.name + " gets " +
                               std::to_string(params.extern_bytes) +
                               " bytes, less than "
                               "one of its " +
                               std::to_string(bytes) + "-byte rows");
    } else {
      n = e.integer(d.dims[i]);
      if (n < 1)
        fail(d.dim_pos[i], "an array bound must be 1 or more, this one is " + std::to_string(n));
    }
    if (__builtin_mul_overflow(bytes, n, &bytes)) {
      fail(d.pos, d.name + " needs more bytes than 64 bits count, far more than the " +
                      std::to_string(kMaxSharedPerBlockBytes) + " B one block can have");
    }
    // The limits of a static array (48 KB) and of a block (227 KB), with the fix for each.
    const auto how =
        d.is_extern ? SharedDeclaration::extern_array : SharedDeclaration::static_array;
    if (std::string why = check_shared_bytes(bytes, how, d.name); !why.empty()) fail(d.pos, why);
    s.array.dims.insert(s.array.dims.begin(), n);
  }
  for (std::size_t i = 0; i <= s.array.dims.size(); ++i) s.sizes.push_back(product_bytes(s, i));
  return s;
}

// The instruction the access statement stands for, before any lane is evaluated.
Op access_op(const Program& p, const KernelParams& params) {
  const AccessStmt& a = *p.access;
  const Node& n = p.nodes[static_cast<std::size_t>(a.node)];
  if (is_matrix_call(n)) return matrix_op(n);
  if (a.form == AccessForm::bare) return params.op.value_or(Op::ld);
  const Op op = a.form == AccessForm::store ? Op::st : Op::ld;
  if (params.op && *params.op != op) {
    fail(a.begin, std::string("the code ") + (op == Op::st ? "stores" : "loads") + ", but --op " +
                      std::string(op_name(*params.op)) + " was given");
  }
  return op;
}

// One lane's byte and width, with the rules of the hardware checked.
std::pair<std::int64_t, int> lane_access(Evaluator& e, const Program& p, const Shape& s, Op op) {
  const AccessStmt& a = *p.access;
  const Value v = e.eval(a.node);
  std::int64_t byte = v.v;
  int width = static_cast<int>(v.bytes);
  if (is_matrix_op(op)) {
    if (v.kind == Value::Kind::array || v.kind == Value::Kind::pointer ||
        v.kind == Value::Kind::lvalue || v.kind == Value::Kind::integer ||
        v.kind == Value::Kind::matrix) {
      width = 16;
    }
    if (byte % 16 != 0) {
      fail(a.begin, e.where() +
                        "an ldmatrix/stmatrix row address must be 16-byte aligned (each "
                        "row is 16 bytes), but this one is byte " +
                        std::to_string(byte));
    }
  } else if (v.kind != Value::Kind::lvalue) {
    fail(a.begin, v.kind == Value::Kind::array
                      ? "this is a whole row of " + s.array.name +
                            ", not one element: give "
                            "every subscript"
                      : "the access must name an element of " + s.array.name +
                            " (tile[..][..], *p, p[k]), or be ldmatrix/stmatrix");
  }
  if (byte < 0 || byte + width > s.sizes[0]) {
    fail(a.begin, e.where() + "the access covers bytes " + std::to_string(byte) + ".." +
                      std::to_string(byte + width - 1) + ", outside " + s.array.name + "'s " +
                      std::to_string(s.sizes[0]) + " bytes");
  }
  if (byte % width != 0) {
    fail(a.begin, e.where() + "a " + std::to_string(width) + "-byte access must be " +
                      std::to_string(width) + "-byte aligned, but this one is byte " +
                      std::to_string(byte));
  }
  return {byte, width};
}

// The declared array as a tile, for the views that draw one: the last bound is the columns (in
// components, for a vector type), the others the rows. The default tile when it is no tile.
TileLayout tile_of(const SharedArray& a) {
  static constexpr DType kBySize[] = {DType::fp8, DType::bf16, DType::fp32, DType::fp64};
  const int size = a.scalar_bytes;
  if (size != 1 && size != 2 && size != 4 && size != 8) return {};
  const std::int64_t cols = a.dims.back() * (a.elem_bytes / size);
  const std::int64_t rows = a.bytes() / (cols * size);
  if (rows > INT_MAX || cols > INT_MAX) return {};
  const TileLayout t{kBySize[std::countr_zero(static_cast<unsigned>(size))],
                     static_cast<int>(rows),
                     static_cast<int>(cols),
                     0,
                     {}};
  return t.check().empty() ? t : TileLayout{};
}

KernelCode evaluate_warp(const Program& p, const KernelParams& params, const Shape& s, int warp) {
  KernelCode code;
  code.array = s.array;
  code.warp = warp;
  const Op op = access_op(p, params);
  Scenario& sc = code.scenario;
  sc.pattern = AccessPattern::custom;
  sc.tile = tile_of(s.array);
  sc.op = op;
  sc.width = is_matrix_op(op) ? 16 : 0;
  sc.lane_mask = 0;
  sc.custom_offsets.fill(kInactiveLane);
  const auto [bx, by, bz] = params.block;
  const int threads = bx * by * bz;
  const int lanes = is_matrix_op(op) ? 8 * matrix_count(op) : kWarpSize;
  Evaluator e(p, params, &s);
  for (int lane = 0; lane < lanes; ++lane) {
    const int t = warp * kWarpSize + lane;
    if (t >= threads) continue;
    LaneCode& l = code.lanes[static_cast<std::size_t>(lane)];
    l.thread = {t % bx, t / bx % by, t / (bx * by)};
    e.set_thread(lane, l.thread);
    if (p.guard >= 0 && e.integer(p.guard) == 0) continue;
    const auto [byte, width] = lane_access(e, p, s, op);
    if (sc.width != 0 && sc.width != width) {
      fail(p.access->begin, e.where() + "the access is " + std::to_string(width) +
                                " bytes here but " + std::to_string(sc.width) + " in lane 0");
    }
    sc.width = width;
    l.active = true;
    l.byte = byte;
    l.indices = e.indices();
    sc.custom_offsets[static_cast<std::size_t>(lane)] = byte;
    sc.lane_mask |= 1u << lane;
  }
  if (sc.width == 0) sc.width = s.array.elem_bytes;
  return code;
}

// A Failure as the caller sees it: the source, line and column of its offset.
CodeError located(const Failure& f, std::span<const CodeSource> sources) {
  CodeError e{.source = f.pos.source, .message = f.message};
  if (f.pos.source < 0 || static_cast<std::size_t>(f.pos.source) >= sources.size()) {
    e.source = -1;
    e.line = 0;
    return e;
  }
  const std::string& text = sources[static_cast<std::size_t>(f.pos.source)].text;
  const std::size_t offset = std::min(static_cast<std::size_t>(f.pos.offset), text.size());
  const std::string_view before(text.data(), offset);
  const std::size_t newline = before.rfind('\n');
  const std::size_t begin = newline == std::string_view::npos ? 0 : newline + 1;
  e.line = 1 + static_cast<int>(std::ranges::count(before, '\n'));
  e.column = static_cast<int>(offset - begin);
  return e;
}

// The access statement as written, without blanks around it or its ';'.
std::string access_text(const AccessStmt& a, std::span<const CodeSource> sources) {
  const std::string& text = sources[static_cast<std::size_t>(a.begin.source)].text;
  const std::size_t end = a.end.source == a.begin.source
                              ? std::min(static_cast<std::size_t>(a.end.offset), text.size())
                              : text.size();
  std::string_view s(text.data() + a.begin.offset, end - static_cast<std::size_t>(a.begin.offset));
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == ';'))
    s.remove_suffix(1);
  return std::string(s);
}

KernelCode evaluate_program(const Program& p, const KernelParams& params) {
  const Shape s = shape_of(p, params);
  if (!p.access) {
    fail(kNowhere, "no shared-memory access: add one, e.g. " + s.array.name + "[threadIdx.x][0]");
  }
  const auto [bx, by, bz] = params.block;
  const int warps = (bx * by * bz + kWarpSize - 1) / kWarpSize;
  if (params.warp != kAllWarps && (params.warp < 0 || params.warp >= warps)) {
    fail(kNowhere, "warp " + std::to_string(params.warp) + " is not in the block: a block of " +
                       std::to_string(bx * by * bz) + " threads has warps 0.." +
                       std::to_string(warps - 1));
  }
  if (params.warp != kAllWarps) {
    KernelCode code = evaluate_warp(p, params, s, params.warp);
    code.warp_count = warps;
    return code;
  }
  std::optional<KernelCode> worst;
  int worst_wavefronts = -1;
  for (int w = 0; w < warps; ++w) {
    KernelCode code = evaluate_warp(p, params, s, w);
    const Evaluation ev = evaluate(code.scenario);
    if (!ev.ok())
      fail(p.access->begin, "warp " + std::to_string(w) + ": " + first_error(ev.diagnostics));
    if (ev.analysis->wavefront_count() > worst_wavefronts) {
      worst_wavefronts = ev.analysis->wavefront_count();
      worst = std::move(code);
    }
  }
  worst->warp_count = warps;
  return *std::move(worst);
}

}  // namespace

std::int64_t SharedArray::bytes() const {
  std::int64_t b = elem_bytes;
  for (std::int64_t d : dims) b *= d;
  return b;
}

std::string format_code_error(const CodeError& e, std::span<const CodeSource> sources) {
  std::string out;
  const CodeSource* src = e.source >= 0 && static_cast<std::size_t>(e.source) < sources.size()
                              ? &sources[static_cast<std::size_t>(e.source)]
                              : nullptr;
  if (src != nullptr && e.line > 0) {
    out += src->label + ":" + std::to_string(e.line) + ":" + std::to_string(e.column + 1) + ": ";
  }
  out += "error: " + e.message + "\n";
  if (src == nullptr || e.line < 1) return out;
  std::size_t begin = 0;
  for (int l = 1; l < e.line && begin != std::string::npos; ++l) {
    begin = src->text.find('\n', begin);
    if (begin != std::string::npos) ++begin;
  }
  if (begin == std::string::npos || begin > src->text.size()) return out;
  const std::size_t end = src->text.find('\n', begin);
  std::string line = src->text.substr(begin, end == std::string::npos ? end : end - begin);
  // Control bytes would move the caret or drive the terminal: each shows as one blank.
  for (char& c : line)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) c = ' ';
  out += "  " + line + "\n  ";
  for (int c = 0; c < e.column && static_cast<std::size_t>(c) < line.size(); ++c)
    out += line[static_cast<std::size_t>(c)] == '\t' ? '\t' : ' ';
  out += "^\n";
  return out;
}

CodeResult evaluate_code(std::span<const CodeSource> sources, const KernelParams& params) {
  CodeResult r;
  try {
    for (const auto& [name, value] : params.lets) {
      if (!valid_name(name)) fail(kNowhere, "--let " + name + ": a name is a C++ identifier");
    }
    const auto [bx, by, bz] = params.block;
    // Each side is checked before the product, so the product of three ints cannot overflow.
    if (bx < 1 || by < 1 || bz < 1 || bx > 1024 || by > 1024 || bz > 1024 ||
        std::int64_t{bx} * by * bz > 1024) {
      fail(kNowhere, "a block has 1 to 1024 threads, each side at least 1");
    }
    if (params.extern_bytes < 1 || params.extern_bytes > kMaxSharedPerBlockBytes) {
      fail(kNowhere, "the extern __shared__ size must be 1.." +
                         std::to_string(kMaxSharedPerBlockBytes) + " bytes (227 KB per block)");
    }
    const Program p = parse_program(sources);
    r.code = evaluate_program(p, params);
    r.code->access_text = access_text(*p.access, sources);
  } catch (const Failure& f) {
    r.error = located(f, sources);
  }
  return r;
}

IntResult evaluate_integer(std::string_view expression,
                           std::span<const std::pair<std::string, std::int64_t>> names) {
  IntResult r;
  try {
    int root = -1;
    const Program p = parse_expression(expression, &root);
    KernelParams params;
    params.lets.assign(names.begin(), names.end());
    Evaluator e(p, params, nullptr);
    e.set_constant();
    r.value = e.integer(root);
  } catch (const Failure& f) {
    const CodeSource source{"expression", std::string(expression)};
    r.error = located(f, std::span(&source, 1));
  }
  return r;
}

Expected<std::vector<std::pair<std::string, std::int64_t>>> parse_lets(std::string_view text) {
  std::vector<std::pair<std::string, std::int64_t>> lets;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const std::size_t eq = item.find('=');
    const std::string name(item.substr(0, eq));
    if (eq == std::string_view::npos || !valid_name(name)) {
      return Error{"--let expects NAME=VALUE[,NAME=VALUE...], such as j=0, got '" +
                   std::string(item.substr(0, 60)) + "'"};
    }
    const IntResult v = evaluate_integer(item.substr(eq + 1), {});
    if (!v.value) return Error{"--let " + name + ": " + v.error->message};
    lets.emplace_back(name, *v.value);
  }
  if (lets.empty()) return Error{"--let expects NAME=VALUE, such as j=0"};
  return lets;
}

Expected<std::array<int, 3>> parse_block(std::string_view text) {
  std::array<int, 3> block = {1, 1, 1};
  std::size_t axis = 0;
  std::int64_t threads = 1;
  while (true) {
    const std::size_t x = text.find_first_of("xX");
    const std::string_view part = text.substr(0, x);
    std::int64_t n = 0;
    const bool digits = !part.empty() && part.size() <= 5 &&
                        std::ranges::all_of(part, [](char c) { return c >= '0' && c <= '9'; });
    if (digits)
      for (char c : part) n = n * 10 + (c - '0');
    if (axis == 3 || !digits || n < 1) {
      return Error{
          "--block expects X, XxY or XxYxZ threads (such as 32x8), each at least 1, got '" +
          std::string(text.substr(0, 60)) + "'"};
    }
    block[axis++] = static_cast<int>(n);
    threads *= n;
    if (threads > 1024) return Error{"--block: a block has at most 1024 threads"};
    if (x == std::string_view::npos) break;
    text = text.substr(x + 1);
  }
  return block;
}

void append_json(std::string& out, const KernelCode& code) {
  JsonWriter w(out);
  w.begin_object().key("array").begin_object().field("name", code.array.name);
  w.field("type", code.array.type).field("bytes", code.array.bytes());
  w.key("dims").begin_array();
  for (std::int64_t d : code.array.dims) w.value(d);
  w.end_array().end_object();
  w.field("access", code.access_text).field("warp", code.warp).field("warps", code.warp_count);
  w.key("lanes").begin_array();
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneCode& lane = code.lanes[static_cast<std::size_t>(l)];
    w.begin_object().field("lane", l).field("active", lane.active);
    if (lane.active) {
      w.key("thread").begin_array();
      for (int t : lane.thread) w.value(t);
      w.end_array().key("indices").begin_array();
      for (std::int64_t i : lane.indices) w.value(i);
      w.end_array().field("byte", lane.byte);
    }
    w.end_object();
  }
  w.end_array().end_object();
}

}  // namespace banklab
