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
#include <utility>

#include "core/model/shared_limits.hpp"

namespace banklab::code {
namespace {

std::string ordinal(int i) {
  static constexpr const char* kWords[] = {"first", "second", "third", "fourth"};
  return i < 4 ? kWords[i] : std::to_string(i + 1) + "th";
}

}  // namespace

// [SECTION] Names and expressions

Evaluator::Evaluator(const Program& p, const KernelParams& params, const Shape* shape)
    : p_(p), params_(params), shape_(shape), typed_(p.nodes.size(), 0), types_(p.nodes.size()) {}

void Evaluator::set_constant() {
  thread_.reset();
  prepare();
}

void Evaluator::set_thread(int lane, std::array<int, 3> thread) {
  lane_ = lane;
  thread_ = thread;
  prepare();
}

std::string Evaluator::where() const {
  if (!thread_) return {};
  const auto& t = *thread_;
  return "lane " + std::to_string(lane_) + " (threadIdx " + std::to_string(t[0]) + "," +
         std::to_string(t[1]) + "," + std::to_string(t[2]) + "): ";
}

void Evaluator::prepare() {
  defs_.assign(p_.defs.size(), {});
  for (std::size_t i = 0; i < p_.defs.size(); ++i) {
    const Definition& d = p_.defs[i];
    Slot& slot = defs_[i];
    // A float or a vector local is no integer: its uses say so (name()); it is not evaluated.
    if (!d.type.integer && !d.type.pointer && !d.type.is_auto()) continue;
    preparing_ = static_cast<int>(i);
    try {
      slot.value = eval(d.value);
      if (d.type.integer) {
        if (slot.value.kind != Value::Kind::integer) fail(at(d.value).pos, not_integer(slot.value));
        const Int v = convert(slot.value.as_int(), *d.type.integer);
        slot.value = {.v = v.bits, .type = v.type};
      }
    } catch (Failure& f) {
      slot.failure = std::move(f);
    }
  }
  preparing_ = -1;
}

Int Evaluator::integer(int node) {
  const Value v = eval(node);
  if (v.kind != Value::Kind::integer) fail(at(node).pos, not_integer(v));
  return v.as_int();
}

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

namespace {

constexpr std::string_view kAxes[] = {"x", "y", "z"};

// threadIdx.x, .y, .z: 0, 1, 2; -1 for another name.
int axis_of(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix) || name.size() != prefix.size() + 1) return -1;
  for (int axis = 0; axis < 3; ++axis)
    if (name.back() == kAxes[axis][0]) return axis;
  return -1;
}

IntType let_type(std::int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX ? kInt : kLongLong;
}

}  // namespace

bool is_builtin_name(std::string_view name) {
  return axis_of(name, "threadIdx.") >= 0 || axis_of(name, "blockDim.") >= 0 || name == "warpSize";
}

// Whether a plain name has a value here; the others, in an ldmatrix call, are its registers.
bool Evaluator::is_value_name(const Node& n) const {
  return n.definition >= 0 || is_builtin_name(n.text) || let(n).has_value() ||
         (shape_ && n.text == shape_->array.name);
}

std::optional<Value> Evaluator::let(const Node& n) const {
  const auto let =
      std::ranges::find(params_.lets, n.text, &std::pair<std::string, std::int64_t>::first);
  if (let == params_.lets.end()) return std::nullopt;
  return Value{.v = let->second, .type = let_type(let->second)};
}

Value Evaluator::name(const Node& n) {
  if (n.definition >= 0) {
    const Definition& d = p_.defs[static_cast<std::size_t>(n.definition)];
    if (!d.type.integer && !d.type.pointer && !d.type.is_auto()) {
      fail(n.pos, n.text + " is a " + d.type.name + ", not an integer: an index is an integer");
    }
    const Slot& slot = defs_[static_cast<std::size_t>(n.definition)];
    if (slot.failure) throw *slot.failure;
    return slot.value;
  }
  if (const std::optional<Value> v = let(n)) return *v;
  if (const int axis = axis_of(n.text, "threadIdx."); axis >= 0) {
    if (!thread_)
      fail(n.pos, "a constant is needed here, and " + n.text + " differs from thread to thread");
    return {.v = (*thread_)[static_cast<std::size_t>(axis)], .type = kUnsignedInt};
  }
  if (const int axis = axis_of(n.text, "blockDim."); axis >= 0)
    return {.v = params_.block[static_cast<std::size_t>(axis)], .type = kUnsignedInt};
  if (n.text == "warpSize") return {.v = kWarpSize, .type = kInt};
  if (shape_ && n.text == shape_->array.name) {
    return {.kind = Value::Kind::array, .v = 0, .bytes = shape_->sizes[0], .level = 0};
  }
  // Defined, but not before this point: C++ reads the code in order.
  const auto later = std::ranges::find(p_.defs, n.text, &Definition::name);
  if (later != p_.defs.end()) {
    if (later - p_.defs.begin() == preparing_)
      fail(n.pos, n.text + " is defined in terms of itself");
    fail(n.pos, n.text + " is used before its definition: define it first");
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
      return {.v = n.number, .type = *n.type.integer};
    case NodeKind::name:
      return name(n);
    case NodeKind::unary: {
      const Int a = integer(n.a);
      if (n.text == "-") {
        const Expected<Int> r = negate(a);
        if (!r) fail(n.pos, where() + r.error());
        return {.v = r->bits, .type = r->type};
      }
      const Int r = n.text == "~"   ? complement(a)
                    : n.text == "!" ? Int{a.bits == 0 ? 1 : 0, kBool}
                                    : unary_plus(a);
      return {.v = r.bits, .type = r.type};
    }
    case NodeKind::binary:
      return binary(n);
    case NodeKind::ternary: {
      Value v = eval(truth(n.a) ? n.b : n.c);
      // Both choices meet in one type, whichever is taken: c ? -1 : 1u is unsigned.
      if (v.kind == Value::Kind::integer) {
        if (const std::optional<IntType> t = static_type(node)) {
          const Int r = convert(v.as_int(), *t);
          v = {.v = r.bits, .type = r.type};
        }
      }
      return v;
    }
    case NodeKind::subscript:
    case NodeKind::member:
      return postfix(node);
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

// The C++ type of an integer expression, without evaluating it (the choice a ternary does not
// take still gives the result its type); nothing for an address. Once per node.
std::optional<IntType> Evaluator::static_type(int node) {
  const auto i = static_cast<std::size_t>(node);
  if (typed_[i] == 0) {
    const std::optional<IntType> t = compute_static_type(at(node));
    typed_[i] = t ? 1 : 2;
    if (t) types_[i] = *t;
  }
  return typed_[i] == 1 ? std::optional<IntType>(types_[i]) : std::nullopt;
}

std::optional<IntType> Evaluator::compute_static_type(const Node& n) {
  using T = std::optional<IntType>;
  switch (n.kind) {
    case NodeKind::number:
    case NodeKind::cast:
      return n.type.integer;
    case NodeKind::name: {
      if (n.definition >= 0) {
        const Definition& d = p_.defs[static_cast<std::size_t>(n.definition)];
        return d.type.is_auto() ? static_type(d.value) : d.type.integer;
      }
      if (const std::optional<Value> v = let(n)) return v->type;
      if (axis_of(n.text, "threadIdx.") >= 0 || axis_of(n.text, "blockDim.") >= 0)
        return kUnsignedInt;
      return n.text == "warpSize" ? T(kInt) : std::nullopt;
    }
    case NodeKind::unary: {
      if (n.text == "!") return kBool;
      const T a = static_type(n.a);
      return a ? T(promoted(*a)) : std::nullopt;
    }
    case NodeKind::binary: {
      T t = static_type(n.args[0]);
      for (std::size_t k = 0; k < n.ops.size() && t; ++k) {
        const T b = static_type(n.args[k + 1]);
        const std::optional<IntOp> op = int_op(n.ops[k].text);
        if (!b) return std::nullopt;
        if (!op || is_comparison(*op)) {
          t = kBool;  // && || and the comparisons
        } else {
          t = *op == IntOp::shl || *op == IntOp::shr ? promoted(*t) : common_type(*t, *b);
        }
      }
      return t;
    }
    case NodeKind::ternary: {
      const T b = static_type(n.b);
      const T c = static_type(n.c);
      if (!b || !c) return std::nullopt;
      return *b == *c ? *b : common_type(*b, *c);
    }
    case NodeKind::call:
      if (n.text == "__cvta_generic_to_shared") return kSizeT;
      if ((n.text == "min" || n.text == "max") && n.args.size() == 2) {
        const T a = static_type(n.args[0]);
        const T b = static_type(n.args[1]);
        return a && b ? T(common_type(*a, *b)) : std::nullopt;
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// [SECTION] Operators, pointers and subscripts

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

// p + k, p - k: k elements of what p points to (an unsigned k is its unsigned value, as in
// C++: p + (threadIdx.x - 1) is far past the array for thread 0).
Value Evaluator::offset(Pos pos, Value ptr, Int k, bool minus) const {
  std::int64_t step = 0;
  if (!fits_int64(k) || __builtin_mul_overflow(k.bits, ptr.bytes, &step) ||
      (minus ? __builtin_sub_overflow(ptr.v, step, &ptr.v)
             : __builtin_add_overflow(ptr.v, step, &ptr.v))) {
    fail(pos, where() + "the pointer arithmetic overflows 64 bits");
  }
  return ptr;
}

// One chain of operators of one precedence, from the left (parser.hpp): && and || stop at
// the first operand that decides.
Value Evaluator::binary(const Node& n) {
  Value acc = eval(n.args[0]);
  for (std::size_t k = 0; k < n.ops.size(); ++k) {
    const Operator& op = n.ops[k];
    const int rhs = n.args[k + 1];
    if (op.text == "&&" || op.text == "||") {
      if (acc.kind != Value::Kind::integer) fail(at(n.args[k]).pos, not_integer(acc));
      const bool a = acc.v != 0;
      if (op.text == "&&" ? !a : a) return {.v = a ? 1 : 0, .type = kBool};
      acc = {.v = truth(rhs) ? 1 : 0, .type = kBool};
      continue;
    }
    acc = arithmetic(op, decay(acc), decay(eval(rhs)), rhs);
    if (k + 1 < n.ops.size() && acc.kind != Value::Kind::integer &&
        acc.kind != Value::Kind::pointer) {
      fail(op.pos, not_integer(acc));
    }
  }
  return acc;
}

Value Evaluator::arithmetic(const Operator& op, const Value& a, const Value& b, int b_node) {
  const bool plus = op.text == "+";
  const bool minus = op.text == "-";
  if (a.kind == Value::Kind::pointer && b.kind == Value::Kind::integer && (plus || minus))
    return offset(op.pos, a, b.as_int(), minus);
  if (a.kind == Value::Kind::integer && b.kind == Value::Kind::pointer && plus)
    return offset(op.pos, b, a.as_int(), false);
  if (a.kind != Value::Kind::integer) fail(op.pos, not_integer(a));
  if (b.kind != Value::Kind::integer) fail(at(b_node).pos, not_integer(b));
  const Expected<Int> r = apply(*int_op(op.text), a.as_int(), b.as_int());
  if (!r) fail(op.pos, where() + r.error());
  return {.v = r->bits, .type = r->type};
}

// a[i][j].x and the like: the chain of subscripts and members walked from its base in a loop,
// not in a recursion as deep as the chain is long.
Value Evaluator::postfix(int node) {
  std::vector<int> chain;
  while (at(node).kind == NodeKind::subscript || at(node).kind == NodeKind::member) {
    chain.push_back(node);
    node = at(node).a;
  }
  Value v = eval(node);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Node& n = at(*it);
    v = n.kind == NodeKind::subscript ? subscript(n, v) : member(n, v);
  }
  return v;
}

Value Evaluator::member(const Node& n, const Value& v) const {
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

Value Evaluator::subscript(const Node& n, const Value& base) {
  const Int i = integer(n.b);
  if (base.kind == Value::Kind::array) {
    const SharedArray& a = shape_->array;
    const auto level = static_cast<std::size_t>(base.level);
    const std::int64_t bound = a.dims[level];
    if (!fits_int64(i) || i.bits < 0 || i.bits >= bound) {
      fail(n.pos, where() + "index " + to_string(i) + " is outside " + a.name + "'s " +
                      ordinal(base.level) + " dimension [" + std::to_string(bound) + "] (0.." +
                      std::to_string(bound - 1) + ")");
    }
    if (base.level == 0) indices_.clear();
    indices_.push_back(i.bits);
    const std::int64_t byte = base.v + i.bits * shape_->sizes[level + 1];
    if (base.level + 1 == shape_->levels()) {
      return {
          .kind = Value::Kind::lvalue, .v = byte, .bytes = a.elem_bytes, .scalar = a.scalar_bytes};
    }
    return {.kind = Value::Kind::array,
            .v = byte,
            .bytes = shape_->sizes[level + 1],
            .level = base.level + 1};
  }
  if (base.kind == Value::Kind::pointer) return deref(n, offset(n.pos, base, i, false));
  if (base.kind == Value::Kind::lvalue) {
    fail(n.pos, "this is already one element of " + shape_->array.name + ": it has no subscript");
  }
  fail(n.pos, "a subscript needs the shared array or a pointer into it");
}

Value Evaluator::deref(const Node& n, Value ptr) const {
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
    const Int r = convert(v.as_int(), *n.type.integer);  // (unsigned char)300 is 44
    return {.v = r.bits, .type = r.type};
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
    // CUDA's overloads: both in their common type, as for any operator (min(-1, 1u) is 1u).
    const Int a = integer(n.args[0]);
    const Int b = integer(n.args[1]);
    const Int first_less = *apply(IntOp::lt, a, b);
    const IntType t = common_type(a.type, b.type);
    const Int r = convert((first_less.bits != 0) == (n.text == "min") ? a : b, t);
    return {.v = r.bits, .type = r.type};
  }
  if (n.text == "__cvta_generic_to_shared" && n.args.size() == 1) {
    const Value v = decay(eval(n.args[0]));
    if (v.kind != Value::Kind::pointer) fail(n.pos, n.text + " takes an address: &tile[r][c]");
    return {.v = v.v, .type = kSizeT};
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
    if (at(arg).kind == NodeKind::name && !is_value_name(at(arg))) continue;
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
      const Int bound = e.integer(d.dims[i]);
      if (!fits_int64(bound) || bound.bits < 1)
        fail(d.dim_pos[i], "an array bound must be 1 or more, this one is " + to_string(bound));
      n = bound.bits;
    }
    if (__builtin_mul_overflow(bytes, n, &bytes)) {
      fail(d.pos, d.name + " needs more bytes than 64 bits count, far more than the " +
                      std::to_string(kMaxSharedPerBlockBytes) + " B one block can have");
    }
    // The limits of a static array (48 KB) and of a block (227 KB), with the fix for each.
    const auto how =
        d.is_extern ? SharedDeclaration::extern_array : SharedDeclaration::static_array;
    if (std::string why = check_shared_bytes(bytes, how, d.name); !why.empty()) fail(d.pos, why);
    s.array.dims.push_back(n);  // from the last bound to the first
    s.sizes.push_back(bytes);
  }
  std::ranges::reverse(s.array.dims);
  std::ranges::reverse(s.sizes);
  s.sizes.push_back(d.type.bytes);  // sizes[L]: the bytes below L subscripts
  return s;
}

}  // namespace banklab::code
