// The evaluator of kernel code (evaluator.hpp): names, operators, subscripts, pointers, casts
// and calls, for one lane; and the shared array's shape from its declaration.
//
// [SECTION] Names and expressions
// [SECTION] Operators, pointers and subscripts
// [SECTION] Casts and calls: ldmatrix/stmatrix, __cvta_generic_to_shared, min, max
// [SECTION] The shared array's shape
#include "core/code/evaluator.hpp"

#include <algorithm>
#include <climits>

#include "core/model/shared_limits.hpp"

namespace banklab::code {
namespace {

std::string ordinal(int i) {
  static constexpr const char* kWords[] = {"first", "second", "third", "fourth"};
  return i < 4 ? kWords[i] : std::to_string(i + 1) + "th";
}

}  // namespace

// [SECTION] Names and expressions

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

// [SECTION] Operators, pointers and subscripts

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

// [SECTION] Casts and calls: ldmatrix/stmatrix, __cvta_generic_to_shared, min, max

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

// [SECTION] The shared array's shape

namespace {

std::int64_t product_bytes(const Shape& s, std::size_t from) {
  std::int64_t bytes = s.array.elem_bytes;
  for (std::size_t i = from; i < s.array.dims.size(); ++i) bytes *= s.array.dims[i];
  return bytes;
}

}  // namespace

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

}  // namespace banklab::code
