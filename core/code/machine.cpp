// The machine that runs kernel code one warp at a time (machine.hpp).
//
// [SECTION] Values and reasons
// [SECTION] Lanes and layout
// [SECTION] Names
// [SECTION] Expressions
// [SECTION] Operators, pointers and subscripts
// [SECTION] Casts and calls
// [SECTION] Assignments and accesses
// [SECTION] Statements
#include "core/code/machine.hpp"

#include <algorithm>
#include <bit>
#include <climits>

#include "core/base/find.hpp"
#include "core/model/shared_limits.hpp"

namespace banklab::code {
namespace {

constexpr std::string_view kAxes = "xyz";

// threadIdx.x, .y, .z: 0, 1, 2; -1 for another name.
int axis_of(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix) || name.size() != prefix.size() + 1) return -1;
  const std::size_t axis = kAxes.find(name.back());
  return axis == std::string_view::npos ? -1 : static_cast<int>(axis);
}

IntType let_type(std::int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX ? kInt : kLongLong;
}

std::string ordinal(int i) {
  static constexpr const char* kWords[] = {"first", "second", "third", "fourth"};
  return i < 4 ? kWords[i] : std::to_string(i + 1) + "th";
}

// A run stopped by its WorkBudget: unwinds to the caller of run().
struct OutOfSteps {};

// The lanes of a mask, lowest first.
template <class F>
void for_lanes(LaneMask mask, F f) {
  while (mask != 0) {
    const int l = std::countr_zero(mask);
    f(l);
    mask &= mask - 1;
  }
}

}  // namespace

bool is_builtin_name(std::string_view name) {
  return axis_of(name, "threadIdx.") >= 0 || axis_of(name, "blockDim.") >= 0 || name == "warpSize";
}

std::string hint_for(std::string hint, std::string_view name) {
  if (const std::size_t at = hint.find("NAME"); at != std::string::npos) hint.replace(at, 4, name);
  return hint;
}

// [SECTION] Values and reasons

Lanes Machine::unknown(std::uint16_t why) {
  Lanes r;
  r.kind = Lanes::Kind::other;
  r.unknown = kAllLanes;
  r.why.fill(why);
  return r;
}

std::uint16_t Machine::reason(Pos pos, std::string message, bool error, bool per_lane) {
  std::string key = std::to_string(pos.source) + ':' + std::to_string(pos.offset) + ':' + message;
  if (const auto it = reason_index_.find(key); it != reason_index_.end()) return it->second;
  // Past 65535 distinct reasons the last one stands for the rest (they are all errors of the
  // code repeated with other numbers; the first ones are what a reader needs).
  if (reasons_.size() == 0xFFFF) return 0xFFFE;
  reasons_.push_back({pos, std::move(message), error, per_lane});
  const auto id = static_cast<std::uint16_t>(reasons_.size() - 1);
  reason_index_.emplace(std::move(key), id);
  return id;
}

Failure Machine::failure(std::uint16_t id, int lane) const {
  const Reason& r = reasons_[id];
  return {r.pos, (r.per_lane ? where(lane) : std::string()) + r.message};
}

std::array<int, 3> Machine::thread(int lane) const {
  const auto l = static_cast<std::size_t>(lane);
  return {static_cast<int>(thread_[0][l]), static_cast<int>(thread_[1][l]),
          static_cast<int>(thread_[2][l])};
}

std::string Machine::where(int lane) const {
  if (constant_) return {};
  const auto t = thread(lane);
  return "lane " + std::to_string(lane) + " (threadIdx " + std::to_string(t[0]) + "," +
         std::to_string(t[1]) + "," + std::to_string(t[2]) + "): ";
}

Lanes Machine::integer_value(std::int64_t v, IntType t, bool constant) const {
  Lanes r;
  r.kind = Lanes::Kind::integer;
  r.type = t;
  r.constant = constant;
  r.v.fill(v);
  return r;
}

std::string Machine::not_integer(const Lanes& v) const {
  const std::string name =
      v.array >= 0 ? shapes_[static_cast<std::size_t>(v.array)].array.name : "the array";
  switch (v.kind) {
    case Lanes::Kind::element:
      return "an index cannot read a value from " + name +
             ": BankLab knows its addresses, "
             "not its contents";
    case Lanes::Kind::matrix:
      return "ldmatrix/stmatrix has no value to compute with";
    default:
      break;
  }
  return "expected a number here, but this is an address in " + name;
}

// [SECTION] Lanes and layout

Machine::Machine(const Program& program, MachineSetup setup)
    : program_(program),
      setup_(std::move(setup)),
      budget_(setup_.budget != nullptr ? setup_.budget : &own_budget_),
      invariance_(program) {
  // What is sized by the whole file (the arrays' shapes, the nodes' types) is sized when first
  // needed: a file of 10,000 kernels makes two machines a kernel.
  reason({-1, 0}, "no value", false);  // reason 0: what an unassigned slot holds
  globals_.slots.resize(static_cast<std::size_t>(program.globals));
  shaped_.assign(program.arrays.size(), 0);
  shape_why_.assign(program.arrays.size(), 0);
  layouts_.resize(program.records.size());
  layout_failed_.resize(program.records.size());
}

// A constant the layout needs (an array bound, an alignment): its value for the first lane.
std::int64_t Machine::constant_of(int node, Pos pos, const std::string& what) {
  const int lane = std::countr_zero(constant_ ? 1u : in_block_ | 1u);
  const Lanes v = integer(node);
  if (v.kind != Lanes::Kind::integer || (v.unknown >> lane & 1u) != 0) {
    if (v.unknown >> lane & 1u) throw failure(v.why[static_cast<std::size_t>(lane)], lane);
    fail(pos, what + " is not a constant BankLab knows");
  }
  const Int b = v.lane(lane);
  if (!fits_int64(b) || b.bits < 1 || b.bits > (std::int64_t{1} << 32))
    fail(pos, what + " must be 1 or more, this one is " + to_string(b));
  return b.bits;
}

std::pair<std::int64_t, int> Machine::size_and_align(const TypeRef& t, Pos pos) {
  if (t.pointer) return {8, 8};
  if (t.record >= 0) {
    const RecordLayout& l = layout(t.record);
    return {l.bytes, l.align};
  }
  if (t.bytes <= 0) fail(pos, t.name + " has no size BankLab knows");
  return {t.bytes, t.align > 0 ? t.align : t.bytes};
}

// Past this a struct fits no block's shared memory many times over: no layout is needed.
constexpr std::int64_t kMaxLayoutBytes = std::int64_t{1} << 40;

// Each member at the next multiple of its alignment (a union's all at 0), the size rounded up to
// the largest alignment (or __align__'s): C++'s layout, which nvcc follows.
const RecordLayout& Machine::layout(int record) {
  const auto i = static_cast<std::size_t>(record);
  if (layouts_[i]) return *layouts_[i];
  if (layout_failed_[i]) throw *layout_failed_[i];
  const Record& r = program_.records[i];
  layout_failed_[i] = Failure{r.pos, r.name + " contains itself"};  // while it is laid out
  try {
    if (!r.unreadable.empty())
      fail(r.pos, r.unreadable + ": BankLab cannot lay " + r.name + " out");
    RecordLayout l;
    std::int64_t end = 0;
    for (const Field& f : r.fields) {
      const auto [size, align] = size_and_align(f.type, r.pos);
      std::int64_t count = 1, bytes = 0;
      for (int d : f.dims) {
        if (__builtin_mul_overflow(
                count, constant_of(d, r.pos, r.name + "::" + f.name + "'s bound"), &count))
          count = kMaxLayoutBytes;
      }
      const std::int64_t offset = r.is_union ? 0 : (end + align - 1) / align * align;
      if (__builtin_mul_overflow(size, count, &bytes) || offset + bytes > kMaxLayoutBytes)
        fail(r.pos, r.name + " is larger than any shared memory (" + r.name + "::" + f.name + ")");
      l.offsets.push_back(offset);
      l.counts.push_back(f.dims.empty() ? 0 : count);
      end = std::max(end, offset + bytes);
      l.align = std::max(l.align, align);
    }
    if (r.align >= 0) {
      l.align = static_cast<int>(std::max<std::int64_t>(
          l.align,
          std::min<std::int64_t>(constant_of(r.align, r.pos, r.name + "'s alignment"), 4096)));
    }
    l.bytes = std::max<std::int64_t>(1, (end + l.align - 1) / l.align * l.align);
    layout_failed_[i].reset();
    layouts_[i] = std::move(l);
  } catch (Failure& f) {
    layout_failed_[i] = f;
    throw;
  }
  return *layouts_[i];
}

void Machine::start_constant() {
  constant_ = true;
  in_block_ = 1;  // one lane stands for the constant
  ctx_ = {1, 0, 0};
  for (auto& axis : thread_) axis.fill(0);
}

void Machine::start_warp(int warp) {
  constant_ = false;
  warp_ = warp;
  const auto [bx, by, bz] = setup_.block;
  in_block_ = 0;
  for (int l = 0; l < kWarpSize; ++l) {
    const int t = warp * kWarpSize + l;
    const auto i = static_cast<std::size_t>(l);
    thread_[0][i] = t % bx;
    thread_[1][i] = t / bx % by;
    thread_[2][i] = t / (bx * by);
    if (t < bx * by * bz) in_block_ |= 1u << l;
  }
  ctx_ = {in_block_, 0, 0};
  iteration_.clear();
  held_.clear();
}

void Machine::shape(int index) {
  if (shapes_.empty()) shapes_.resize(program_.arrays.size());
  const ArrayDecl& d = program_.arrays[static_cast<std::size_t>(index)];
  ArrayShape s;
  s.array.name = d.name;
  s.array.type = d.type.name;
  s.array.is_extern = d.is_extern;
  shaped_[static_cast<std::size_t>(index)] = 2;
  shape_why_[static_cast<std::size_t>(index)] =
      reason(d.pos, d.name + "'s bounds are not known", false);
  std::int64_t elem = 0;
  try {
    elem = size_and_align(d.type, d.pos).first;
  } catch (Failure& f) {
    shape_why_[static_cast<std::size_t>(index)] = reason(f.pos, d.name + ": " + f.message, false);
    throw;
  }
  s.array.elem_bytes = static_cast<int>(std::min<std::int64_t>(elem, INT32_MAX));
  s.array.scalar_bytes = d.type.record >= 0 ? s.array.elem_bytes : d.type.scalar_bytes;
  s.record = d.type.record;
  s.is_volatile = d.is_volatile;
  std::int64_t bytes = elem;
  const int lane = std::countr_zero(constant_ ? 1u : in_block_ | 1u);
  for (std::size_t i = d.dims.size(); i-- > 0;) {
    std::int64_t n = 0;
    if (d.dims[i] == -1) {
      n = setup_.extern_bytes / bytes;
      if (n < 1)
        fail(d.dim_pos[i], "extern __shared__ " + d.name + " gets " +
                               std::to_string(setup_.extern_bytes) +
                               " bytes, less than "
                               "one of its " +
                               std::to_string(bytes) + "-byte rows");
    } else {
      const Lanes bound = integer(d.dims[i]);
      if (bound.kind != Lanes::Kind::integer || (bound.unknown >> lane & 1u) != 0) {
        const std::uint16_t why = bound.why[static_cast<std::size_t>(lane)];
        shape_why_[static_cast<std::size_t>(index)] = why;
        throw failure(why, lane);
      }
      const Int b = bound.lane(lane);
      if (!fits_int64(b) || b.bits < 1)
        fail(d.dim_pos[i], "an array bound must be 1 or more, this one is " + to_string(b));
      n = b.bits;
    }
    if (__builtin_mul_overflow(bytes, n, &bytes)) {
      fail(d.pos, d.name + " needs more bytes than 64 bits count, far more than the " +
                      std::to_string(kMaxSharedPerBlockBytes) + " B one block can have");
    }
    // The limits of a static array (48 KB) and of a block (227 KB), with the fix for each.
    const auto how =
        d.is_extern ? SharedDeclaration::extern_array : SharedDeclaration::static_array;
    if (const Expected<void> fits = check_shared_bytes(bytes, how, d.name); !fits) {
      fail(d.pos, fits.error());
    }
    s.array.dims.push_back(n);  // from the last bound to the first
    s.sizes.push_back(bytes);
  }
  std::reverse(s.array.dims.begin(), s.array.dims.end());
  std::reverse(s.sizes.begin(), s.sizes.end());
  s.sizes.push_back(elem);  // sizes[L]: the bytes below L subscripts
  // A bank pattern does not change when every address of an array moves by a multiple of 128
  // bytes (or of 1024, for the swizzles that repeat every 1024): the placement is free.
  if (d.is_extern) {
    s.base = kExternBase;
  } else {
    s.base = next_base_;
    next_base_ += (s.sizes[0] + 127) / 128 * 128;
  }
  shapes_[static_cast<std::size_t>(index)] = std::move(s);
  shaped_[static_cast<std::size_t>(index)] = 1;
}

void Machine::lay_out() {
  start_constant();
  run(0);  // the declarations the bounds may name, and the declaration itself
  for (std::size_t a = 0; a < program_.arrays.size(); ++a) {
    if (shaped_[a] == 0) shape(static_cast<int>(a));
  }
}

Lanes& Machine::slot(int var) {
  const Variable& v = program_.vars[static_cast<std::size_t>(var)];
  if (v.function < 0) return globals_.slots[static_cast<std::size_t>(v.slot)];
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
    if (it->function == v.function) return it->slots[static_cast<std::size_t>(v.slot)];
  }
  fail(v.pos, v.name + " is used outside its function");
}

// [SECTION] Names

Lanes Machine::name(const Node& n) {
  if (n.array >= 0) {
    const auto a = static_cast<std::size_t>(n.array);
    if (shaped_[a] == 0) shape(n.array);
    if (shaped_[a] != 1)
      return lost(shape_why_[a], program_.arrays[a].dims.empty() ? kLostPlace : kLostAddress);
    const ArrayShape& s = shapes_[a];
    Lanes r;
    r.kind = Lanes::Kind::array;
    r.array = n.array;
    r.bytes = s.sizes[0];
    r.is_volatile = s.is_volatile;
    if (s.levels() == 0) {  // __shared__ float total: the one element
      r.kind = Lanes::Kind::element;
      r.scalar = s.array.scalar_bytes;
      r.record = s.record;
    }
    return r;
  }
  if (n.var >= 0) {
    const Variable& var = program_.vars[static_cast<std::size_t>(n.var)];
    if (!var.type.integer && !var.type.pointer && !var.type.is_auto() && var.dims.empty() &&
        setup_.snippet) {
      fail(n.pos, n.text + " is a " + var.type.name + ", not an integer: an index is an integer");
    }
    if (var.type.reference) return reference(n, slot(n.var));
    return slot(n.var);
  }
  for (const auto& [name, value] : setup_.lets) {
    if (name == n.text) return integer_value(value, let_type(value));
  }
  if (const int var = member_constant(n); var >= 0) return slot(var);
  return builtin(n);
}

// Cfg::kTile where the template type parameter Cfg is a struct of the file: its static
// constant member (Traits::kTile, a constant of the file's scope); -1 where there is none.
int Machine::member_constant(const Node& n) {
  const std::size_t colons = n.text.find("::");
  if (colons == std::string::npos) return -1;
  const auto [it, fresh] = member_constants_.emplace(index_of(n), -1);
  if (!fresh) return it->second;
  const std::string_view param = std::string_view(n.text).substr(0, colons);
  for (const auto& [name, type] : setup_.types) {
    if (name != param || type.record < 0 || type.pointer) continue;
    const std::string qualified = type.name + n.text.substr(colons);
    const auto var = std::find_if(
        program_.vars.begin(), program_.vars.end(),
        [&](const Variable& v) { return v.function < 0 && v.constant && v.name == qualified; });
    if (var != program_.vars.end()) it->second = static_cast<int>(var - program_.vars.begin());
  }
  return it->second;
}

Lanes Machine::builtin(const Node& n) {
  if (const int axis = axis_of(n.text, "threadIdx."); axis >= 0) {
    if (constant_)
      fail(n.pos, "a constant is needed here, and " + n.text + " differs from thread to thread");
    Lanes r = integer_value(0, kUnsignedInt);
    r.v = thread_[static_cast<std::size_t>(axis)];
    return r;
  }
  if (const int axis = axis_of(n.text, "blockDim."); axis >= 0)
    return integer_value(setup_.block[static_cast<std::size_t>(axis)], kUnsignedInt);
  if (n.text == "warpSize") return integer_value(kWarpSize, kInt);
  if (const int axis = axis_of(n.text, "gridDim."); axis >= 0 && setup_.grid)
    return integer_value((*setup_.grid)[static_cast<std::size_t>(axis)], kUnsignedInt);
  // Defined, but not before this point: C++ reads the code in order.
  const auto later = find_by(program_.vars, &Variable::name, n.text);
  if (later != program_.vars.end() && setup_.snippet) {
    if (initializing_ >= 0 && program_.vars[static_cast<std::size_t>(initializing_)].name == n.text)
      fail(n.pos, n.text + " is defined in terms of itself");
    fail(n.pos, n.text + " is used before its definition: define it first");
  }
  const std::string hint = hint_for(setup_.let_hint, n.text);
  std::string message = n.text + " is not defined: " + hint;
  if (axis_of(n.text, "blockIdx.") >= 0)
    message = n.text + " differs from block to block: " + hint;
  else if (axis_of(n.text, "gridDim.") >= 0)
    message = n.text + " is the launch's: give the grid, or " + hint;
  if (setup_.snippet) fail(n.pos, message);
  return unknown(reason(n.pos, message, false));
}

// [SECTION] Expressions

Lanes Machine::integer(int node) {
  Lanes v = rvalue(eval(node), node);
  if (v.kind == Lanes::Kind::integer || v.kind == Lanes::Kind::other) return v;
  fail(at(node).pos, not_integer(v));
}

// An element used as a value is a load (in the Code window, where the access is the only one,
// an index that reads the array is an error).
Lanes Machine::rvalue(const Lanes& v, int node) {
  if (v.kind == Lanes::Kind::local_place) return slot(v.var);
  if (v.kind == Lanes::Kind::other && v.lost == kLostPlace && !setup_.snippet) {
    // A read of shared memory at an address BankLab lost: said, not counted.
    const LaneMask live = (ctx_.active | ctx_.uncertain) & v.unknown;
    const std::uint16_t why =
        v.why[static_cast<std::size_t>(live != 0 ? std::countr_zero(live) : 0)];
    if (live != 0) record_unknown(node, false, at(node).pos, why);
    return unknown(why);
  }
  if (v.kind != Lanes::Kind::element) return v;
  if (setup_.snippet) fail(at(node).pos, not_integer(v));
  record(node, false, Op::ld, v, static_cast<int>(v.bytes));
  // One reason a load, made once (a load in a loop runs many times).
  const auto [it, fresh] = read_reasons_.emplace(node, 0);
  if (fresh) {
    it->second =
        reason(at(node).pos,
               "a value read from " + shapes_[static_cast<std::size_t>(v.array)].array.name +
                   ": BankLab knows shared memory's addresses, not its contents",
               false);
  }
  return unknown(it->second);
}

Lanes Machine::eval(int node) {
  const Node& n = at(node);
  const Nesting nesting(*this, n.pos);
  switch (n.kind) {
    case NodeKind::number:
      if (n.floating) {
        return unknown(reason(n.pos,
                              n.text == "a string" ? "a string is not a number"
                                                   : "only whole numbers: an index or a size "
                                                     "is an integer",
                              false));
      }
      return integer_value(n.number, *n.type.integer, true);
    case NodeKind::name:
      return name(n);
    case NodeKind::unary:
      return unary(n);
    case NodeKind::binary:
      return binary(n);
    case NodeKind::ternary:
      return ternary(node);
    case NodeKind::subscript:
    case NodeKind::member:
      return postfix(node);
    case NodeKind::call:
      return call(n);
    case NodeKind::cast:
      return cast(n);
    case NodeKind::address: {
      const Node& target = at(n.a);
      if (!setup_.snippet && target.kind == NodeKind::name && target.var >= 0 &&
          !program_.vars[static_cast<std::size_t>(target.var)].type.reference) {
        Lanes p;  // &x of a variable: writes through it change x
        p.kind = Lanes::Kind::local_pointer;
        p.var = target.var;
        return p;
      }
      Lanes v = eval(n.a);
      if (v.kind == Lanes::Kind::local_place) {
        v.kind = Lanes::Kind::local_pointer;
        return v;
      }
      if (v.kind == Lanes::Kind::other && v.lost == kLostPlace) {
        v.lost = kLostAddress;
        return v;
      }
      if (v.kind == Lanes::Kind::element) {
        Lanes p = v;
        p.kind = Lanes::Kind::pointer;
        p.level = shape_of(v).levels();
        return p;
      }
      if (v.kind == Lanes::Kind::array) {
        Lanes p = v;
        p.kind = Lanes::Kind::pointer;
        return p;
      }
      if (v.kind == Lanes::Kind::other && !setup_.snippet) return v;  // &x of a local
      fail(n.pos, "'&' takes the address of an element of the shared array");
    }
    case NodeKind::deref: {
      Lanes p = eval(n.a);
      if (p.kind == Lanes::Kind::local_place) p = rvalue(p, n.a);  // **pp
      if (p.kind == Lanes::Kind::element && !setup_.snippet) {
        // A pointer read from shared memory (s[t].next->v): it may point anywhere.
        const Lanes v = rvalue(p, n.a);
        return lost(v.why[static_cast<std::size_t>(std::countr_zero(v.unknown | 1u))], kLostPlace);
      }
      return deref(n, p);
    }
    case NodeKind::assign:
      return assign(n);
    case NodeKind::step:
      return step(n);
    case NodeKind::comma: {
      Lanes last;
      for (int a : n.args) last = rvalue(eval(a), a);
      return last;
    }
    case NodeKind::list: {
      for (int a : n.args) rvalue(eval(a), a);
      return unknown(reason(n.pos, "a value in braces", false));
    }
    case NodeKind::sizeof_: {
      if (n.text == "type") return unknown(reason(n.pos, "a type", false));
      if (n.a < 0 && n.type.record >= 0 && !n.type.pointer)
        return integer_value(size_and_align(n.type, n.pos).first, kSizeT, true);
      if (n.a < 0 && n.type.known() && !n.type.is_auto()) {
        return integer_value(n.type.pointer ? 8 : n.type.bytes, kSizeT, true);
      }
      if (n.a >= 0 && at(n.a).kind == NodeKind::name && at(n.a).array >= 0) {
        return integer_value(shapes_[static_cast<std::size_t>(at(n.a).array)].sizes[0], kSizeT,
                             true);
      }
      return unknown(reason(n.pos, "sizeof of something BankLab does not know the size of", false));
    }
  }
  fail(n.pos, "unknown expression");
}

Lanes Machine::unary(const Node& n) {
  Lanes a = integer(n.a);
  if (a.kind != Lanes::Kind::integer) return a;
  Lanes r = a;
  for (int l = 0; l < kWarpSize; ++l) {
    if (a.unknown >> l & 1u) continue;
    const auto i = static_cast<std::size_t>(l);
    Int out;
    if (n.text == "-") {
      const Expected<Int> neg = negate(a.lane(l));
      if (!neg) {
        r.unknown |= 1u << l;
        r.why[i] = reason(n.pos, neg.error(), true, true);
        continue;
      }
      out = *neg;
    } else if (n.text == "~") {
      out = complement(a.lane(l));
    } else if (n.text == "!") {
      out = {a.v[i] == 0 ? 1 : 0, kBool};
    } else {
      out = unary_plus(a.lane(l));
    }
    r.v[i] = out.bits;
    r.type = out.type;
  }
  if (n.text == "!")
    r.type = kBool;
  else if (n.text == "-" || n.text == "~" || n.text == "+")
    r.type = promoted(a.type);
  return r;
}

// c ? a : b: each choice evaluated for the lanes that take it; both meet in one type.
Lanes Machine::ternary(int node) {
  const Node& n = at(node);
  LaneMask unknown_lanes = 0;
  std::uint16_t why = 0;
  const LaneMask yes = condition(n.a, &unknown_lanes, &why);
  const Ctx saved = ctx_;
  const LaneMask live = saved.active | saved.uncertain;
  const LaneMask take_b = yes & live;
  const LaneMask take_c = ~yes & ~unknown_lanes & live;
  std::optional<Lanes> b, c;
  // The first choice is evaluated for no lane when no lane takes either (no lane is live, or no
  // live lane knows its condition: an error in each, a parameter without --let): the value has
  // its kind (an address stays one), and is unknown where the condition is.
  if (take_b != 0 || take_c == 0) {
    ctx_.active = saved.active & yes;
    ctx_.uncertain = saved.uncertain & yes;
    b = rvalue(eval(n.b), n.b);
  }
  if (take_c != 0) {
    ctx_.active = saved.active & take_c;
    ctx_.uncertain = saved.uncertain & take_c;
    c = rvalue(eval(n.c), n.c);
  }
  ctx_ = saved;
  if (b) b = decay(*b);  // c ? a + 1 : a: both pointers
  if (c) c = decay(*c);
  Lanes r = b ? *b : *c;
  if (b && c) {
    const bool same =
        b->kind == c->kind && b->array == c->array && b->var == c->var && b->view == c->view;
    if (!same) {
      for (const Lanes* x : {&*b, &*c})
        if (x->kind == Lanes::Kind::local_pointer) escape(x->var);
      const std::uint16_t apart = reason(
          n.pos,
          "the two choices of ?: are different kinds of value (or point to different places)",
          false);
      return may_be_shared(*b) || may_be_shared(*c) ? lost(apart) : unknown(apart);
    }
    r.is_volatile = b->is_volatile || c->is_volatile;
    for_lanes(take_c, [&](int l) {
      const auto i = static_cast<std::size_t>(l);
      r.v[i] = c->v[i];
      r.why[i] = c->why[i];
      r.unknown = (r.unknown & ~(1u << l)) | (c->unknown & (1u << l));
    });
    r.constant = b->constant && c->constant;
  }
  r.unknown |= unknown_lanes;
  for_lanes(unknown_lanes, [&](int l) { r.why[static_cast<std::size_t>(l)] = why; });
  if (r.kind == Lanes::Kind::integer) {
    if (const std::optional<IntType> t = static_type(node)) {
      for (int l = 0; l < kWarpSize; ++l)
        r.v[static_cast<std::size_t>(l)] = convert(r.lane(l), *t).bits;
      r.type = *t;
    }
  }
  return r;
}

// The C++ type of an integer expression, without evaluating it (the choice a ternary does not
// take still gives the result its type); nothing for an address. Once per node.
std::optional<IntType> Machine::static_type(int node) {
  const auto i = static_cast<std::size_t>(node);
  if (typed_.empty()) {
    typed_.assign(program_.nodes.size(), 0);
    types_.resize(program_.nodes.size());
  }
  if (typed_[i] == 0) {
    using T = std::optional<IntType>;
    const Node& n = at(node);
    T t;
    switch (n.kind) {
      case NodeKind::number:
      case NodeKind::cast:
        t = n.type.integer;
        break;
      case NodeKind::name:
        if (n.var >= 0) {
          const Variable& v = program_.vars[static_cast<std::size_t>(n.var)];
          t = v.type.integer;
          if (v.type.is_auto() && slot(n.var).kind == Lanes::Kind::integer) t = slot(n.var).type;
        } else if (const auto let =
                       find_by(setup_.lets, &std::pair<std::string, std::int64_t>::first, n.text);
                   let != setup_.lets.end()) {
          t = let_type(let->second);
        } else if (axis_of(n.text, "threadIdx.") >= 0 || axis_of(n.text, "blockDim.") >= 0 ||
                   axis_of(n.text, "gridDim.") >= 0) {
          t = kUnsignedInt;
        } else if (n.text == "warpSize") {
          t = kInt;
        }
        break;
      case NodeKind::unary:
        if (n.text == "!") {
          t = kBool;
        } else if (const T a = static_type(n.a)) {
          t = promoted(*a);
        }
        break;
      case NodeKind::binary: {
        t = static_type(n.args[0]);
        for (std::size_t k = 0; k < n.ops.size() && t; ++k) {
          const T b = static_type(n.args[k + 1]);
          const std::optional<IntOp> op = int_op(n.ops[k].text);
          if (!b) {
            t.reset();
          } else if (!op || is_comparison(*op)) {
            t = kBool;  // && || and the comparisons
          } else {
            t = *op == IntOp::shl || *op == IntOp::shr ? promoted(*t) : common_type(*t, *b);
          }
        }
        break;
      }
      case NodeKind::ternary: {
        const T b = static_type(n.b);
        const T c = static_type(n.c);
        if (b && c) t = *b == *c ? *b : common_type(*b, *c);
        break;
      }
      case NodeKind::call:
        if (n.text == "__cvta_generic_to_shared") t = kSizeT;
        if ((n.text == "min" || n.text == "max") && n.args.size() == 2) {
          const T a = static_type(n.args[0]);
          const T b = static_type(n.args[1]);
          if (a && b) t = common_type(*a, *b);
        }
        break;
      default:
        break;
    }
    typed_[i] = t ? 1 : 2;
    if (t) types_[i] = *t;
  }
  return typed_[i] == 1 ? std::optional<IntType>(types_[i]) : std::nullopt;
}

// [SECTION] Operators, pointers and subscripts

Lanes Machine::decay(Lanes v) const {
  if (v.kind != Lanes::Kind::array) return v;
  // An array (or a row of it) stands for a pointer to its first sub-array or element.
  const ArrayShape& s = shape_of(v);
  const int next = v.level + 1;
  v.kind = Lanes::Kind::pointer;
  v.bytes = s.sizes[static_cast<std::size_t>(next)];
  v.scalar = next == s.levels() ? s.array.scalar_bytes : 0;
  v.record = next == s.levels() ? s.record : -1;
  v.level = next;
  return v;
}

// An address in shared memory that BankLab lost track of (an array it could not lay out, a
// pointer whose lanes point into different places): every access through it is reported.
Lanes Machine::lost(std::uint16_t why, std::uint8_t what) {
  Lanes r = unknown(why);
  r.lost = what;
  return r;
}

bool Machine::may_be_shared(const Lanes& v) {
  using K = Lanes::Kind;
  return v.kind == K::pointer || v.kind == K::array || v.kind == K::element ||
         (v.kind == K::other && v.lost != 0);
}

// A variable whose address went where BankLab cannot follow it: a later write through a pointer
// it does not follow may change it.
void Machine::escape(int var) {
  if (std::find(escaped_.begin(), escaped_.end(), var) == escaped_.end()) escaped_.push_back(var);
}

// An address given where BankLab cannot follow it (to a function it does not see): the variable
// it points to may be written there, so it has no known value from here on.
void Machine::forget(const Lanes& address, std::uint16_t why) {
  if (address.kind != Lanes::Kind::local_pointer) return;
  store_var(address.var, unknown(why));
  escape(address.var);
}

// A reference's name: the place it was bound to (a variable, an element of a shared array), or
// the value of a const reference to a temporary.
Lanes Machine::reference(const Node& n, const Lanes& bound) {
  if (bound.kind == Lanes::Kind::local_pointer) {
    Lanes p = bound;
    p.kind = Lanes::Kind::local_place;
    return p;
  }
  if (bound.kind == Lanes::Kind::pointer) return deref(n, bound);
  if (bound.kind == Lanes::Kind::other && bound.lost != 0) return lost(bound.why[0], kLostPlace);
  return bound;
}

// What a reference is bound to: the variable its initializer names, or the address of the
// element (or row) of a shared array it names; a value otherwise.
Lanes Machine::bind_reference(int node) {
  const Node& a = at(node);
  if (a.kind == NodeKind::name && a.var >= 0 &&
      !program_.vars[static_cast<std::size_t>(a.var)].type.reference) {
    Lanes p;
    p.kind = Lanes::Kind::local_pointer;
    p.var = a.var;
    return p;
  }
  Lanes v = eval(node);
  if (v.kind == Lanes::Kind::element) {
    v.kind = Lanes::Kind::pointer;
    v.level = shape_of(v).levels();
  } else if (v.kind == Lanes::Kind::array) {
    v.kind = Lanes::Kind::pointer;
  } else if (v.kind == Lanes::Kind::local_place) {
    v.kind = Lanes::Kind::local_pointer;
  } else if (v.kind == Lanes::Kind::other && v.lost == kLostPlace) {
    v.lost = kLostAddress;
  }
  return v;
}

// p + k, p - k: k elements of what p points to (an unsigned k is its unsigned value, as in
// C++: p + (threadIdx.x - 1) is far past the array for thread 0).
Lanes Machine::offset(Pos pos, Lanes ptr, const Lanes& k, bool minus) {
  if (k.kind != Lanes::Kind::integer) {
    ptr.unknown |= k.unknown;
    for_lanes(k.unknown, [&](int l) {
      ptr.why[static_cast<std::size_t>(l)] = k.why[static_cast<std::size_t>(l)];
    });
    if (k.kind != Lanes::Kind::other) fail(pos, not_integer(k));
    return ptr;
  }
  for (int l = 0; l < kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    if ((ptr.unknown >> l & 1u) != 0) continue;
    if ((k.unknown >> l & 1u) != 0) {
      ptr.unknown |= 1u << l;
      ptr.why[i] = k.why[i];
      continue;
    }
    std::int64_t step = 0;
    if (!fits_int64(k.lane(l)) || __builtin_mul_overflow(k.v[i], ptr.bytes, &step) ||
        (minus ? __builtin_sub_overflow(ptr.v[i], step, &ptr.v[i])
               : __builtin_add_overflow(ptr.v[i], step, &ptr.v[i]))) {
      ptr.unknown |= 1u << l;
      ptr.why[i] = reason(pos, "the pointer arithmetic overflows 64 bits", true, true);
    }
  }
  return ptr;
}

// One chain of operators of one precedence, from the left (syntax.hpp): && and || evaluate
// their right side only for the lanes it decides.
Lanes Machine::binary(const Node& n) {
  Lanes acc = eval(n.args[0]);
  for (std::size_t k = 0; k < n.ops.size(); ++k) {
    const Operator& op = n.ops[k];
    const int rhs = n.args[k + 1];
    if (op.text == "&&" || op.text == "||") {
      acc = rvalue(acc, n.args[k]);
      if (acc.kind != Lanes::Kind::integer && acc.kind != Lanes::Kind::other)
        fail(at(n.args[k]).pos, not_integer(acc));
      const bool is_and = op.text == "&&";
      LaneMask decided = 0;  // lanes whose result the left side gives
      for (int l = 0; l < kWarpSize; ++l) {
        const bool a = acc.kind == Lanes::Kind::integer && acc.v[static_cast<std::size_t>(l)] != 0;
        if ((acc.unknown >> l & 1u) == 0 && (is_and ? !a : a)) decided |= 1u << l;
      }
      Lanes r = integer_value(0, kBool, acc.constant);
      r.unknown = acc.unknown;
      r.why = acc.why;
      for_lanes(decided, [&](int l) { r.v[static_cast<std::size_t>(l)] = is_and ? 0 : 1; });
      const LaneMask rest = ~decided & ~acc.unknown;
      const Ctx saved = ctx_;
      const LaneMask live = constant_ ? 1u : saved.active | saved.uncertain;
      if ((rest & live) != 0) {
        ctx_.active &= rest;
        ctx_.uncertain &= rest;
        const Lanes b = integer(rhs);
        ctx_ = saved;
        r.constant = r.constant && b.constant;
        for_lanes(rest, [&](int l) {
          const auto i = static_cast<std::size_t>(l);
          if (b.kind != Lanes::Kind::integer || (b.unknown >> l & 1u) != 0) {
            r.unknown |= 1u << l;
            r.why[i] = b.why[i];
          } else {
            r.v[i] = b.v[i] != 0 ? 1 : 0;
          }
        });
      }
      acc = r;
      continue;
    }
    // The right operand first, then the left's load, one statement each: as two arguments of
    // one call their order was the compiler's (GCC's build ran the right first, clang's, the
    // browser's, the left), and so were the order of the loads recorded and the error reported.
    const Lanes right = decay(rvalue(eval(rhs), rhs));
    const Lanes left = decay(rvalue(acc, n.args[k]));
    acc = arithmetic(op, left, right, rhs);
  }
  return acc;
}

Lanes Machine::arithmetic(const Operator& op, const Lanes& a, const Lanes& b, int b_node) {
  using K = Lanes::Kind;
  const bool plus = op.text == "+";
  const bool minus = op.text == "-";
  if (a.kind == K::local_pointer || b.kind == K::local_pointer) {
    for (const Lanes* x : {&a, &b})
      if (x->kind == K::local_pointer) escape(x->var);
    return unknown(reason(op.pos, "arithmetic on the address of a variable", false));
  }
  if (a.kind == K::pointer && (b.kind == K::integer || b.kind == K::other) && (plus || minus))
    return offset(op.pos, a, b, minus);
  if ((a.kind == K::integer || a.kind == K::other) && b.kind == K::pointer && plus)
    return offset(op.pos, b, a, false);
  if (a.kind != K::integer && a.kind != K::other) fail(op.pos, not_integer(a));
  if (b.kind != K::integer && b.kind != K::other) fail(at(b_node).pos, not_integer(b));
  if (a.kind == K::other) return a;
  if (b.kind == K::other) return b;
  const IntOp o = *int_op(op.text);
  Lanes r = a;
  r.constant = a.constant && b.constant;
  r.unknown = a.unknown | b.unknown;
  for (int l = 0; l < kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    if ((a.unknown >> l & 1u) != 0) continue;
    if ((b.unknown >> l & 1u) != 0) {
      r.why[i] = b.why[i];
      continue;
    }
    if (const std::optional<Int> fast = try_apply(o, a.lane(l), b.lane(l))) {
      r.v[i] = fast->bits;
      continue;
    }
    const Expected<Int> v = apply(o, a.lane(l), b.lane(l));
    if (!v) {
      r.unknown |= 1u << l;
      r.why[i] = reason(op.pos, v.error(), true, true);
      continue;
    }
    r.v[i] = v->bits;
  }
  // The type does not depend on the lane (a lane with an error leaves it as computed by others).
  r.type = o == IntOp::shl || o == IntOp::shr ? promoted(a.type)
           : is_comparison(o)                 ? kBool
                                              : common_type(a.type, b.type);
  return r;
}

// a[i][j].x and the like: the chain of subscripts and members walked from its base in a loop,
// not in a recursion as deep as the chain is long.
Lanes Machine::postfix(int node) {
  std::vector<int> chain;
  while (at(node).kind == NodeKind::subscript || at(node).kind == NodeKind::member) {
    chain.push_back(node);
    node = at(node).a;
  }
  Lanes v = eval(node);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Node& n = at(*it);
    v = n.kind == NodeKind::subscript ? subscript(n, v) : member(n, v);
  }
  return v;
}

// .m, or a chain the tokenizer read as one name (.xy.y): each part in turn.
Lanes Machine::member(const Node& n, const Lanes& v) {
  Lanes r = v;
  std::string_view rest = n.text;
  while (true) {
    const std::size_t dot = rest.find('.');
    r = member_part(n.pos, rest.substr(0, dot), r);
    if (dot == std::string_view::npos) return r;
    rest.remove_prefix(dot + 1);
  }
}

// One member: a struct's member, or a component (.x, .y, .z, .w) of a vector element.
Lanes Machine::member_part(Pos pos, std::string_view name, const Lanes& v) {
  if (v.kind == Lanes::Kind::element && v.record >= 0) return field(pos, name, v);
  if (v.kind == Lanes::Kind::other && v.lost != 0) return lost(v.why[0], kLostPlace);
  static constexpr std::string_view kMembers = "xyzw";
  const std::size_t k = name.size() == 1 ? kMembers.find(name[0]) : std::string::npos;
  if (v.kind != Lanes::Kind::element || v.bytes == v.scalar || k == std::string::npos ||
      static_cast<std::int64_t>(k) >= v.bytes / v.scalar) {
    std::string member(1, '.');  // not "." + name: GCC 12 warns falsely on that (bug 105329)
    member += name;
    if (!setup_.snippet && (v.kind == Lanes::Kind::other || v.kind == Lanes::Kind::integer))
      return unknown(reason(pos, member + " of a value BankLab does not follow", false));
    fail(pos, member +
                  " is not a component here: .x, .y, .z, .w name the parts of "
                  "a vector element (float4, half2, ...)");
  }
  Lanes r = v;
  for (auto& x : r.v) x += static_cast<std::int64_t>(k) * v.scalar;
  r.bytes = v.scalar;
  return r;
}

// s[i].m: the member's place at its offset in the struct; an array member is an array of its
// own bounds there (s[i].v[k], s.a[r][c] subscript it with its rows' sizes, not the struct's).
bool Machine::has_member(int record, std::string_view name) const {
  const Record& r = program_.records[static_cast<std::size_t>(record)];
  return std::any_of(r.fields.begin(), r.fields.end(), [&](const Field& f) {
    return f.name == name || (f.name.empty() && f.type.record >= 0 && !f.type.pointer &&
                              f.type.record != record && has_member(f.type.record, name));
  });
}

Lanes Machine::field(Pos pos, std::string_view name, const Lanes& v) {
  const Record& r = program_.records[static_cast<std::size_t>(v.record)];
  const RecordLayout& l = layout(v.record);
  const auto f = std::find_if(r.fields.begin(), r.fields.end(),
                              [&](const Field& field) { return field.name == name; });
  if (f == r.fields.end()) {
    // A member of an anonymous union or struct inside (union { float a[64]; int b[64]; };): at
    // that one's offset.
    for (std::size_t k = 0; k < r.fields.size(); ++k) {
      const TypeRef& t = r.fields[k].type;
      if (!r.fields[k].name.empty() || t.record < 0 || t.pointer || !has_member(t.record, name))
        continue;
      Lanes inner = v;
      for (auto& x : inner.v) x += l.offsets[k];
      inner.record = t.record;
      return field(pos, name, inner);
    }
    fail(pos, std::string(name) + " is no member of " + r.name);
  }
  const auto i = static_cast<std::size_t>(f - r.fields.begin());
  const std::int64_t size = size_and_align(f->type, pos).first;
  Lanes out = v;
  for (auto& x : out.v) x += l.offsets[i];
  out.bytes = size;
  out.record = f->type.pointer ? -1 : f->type.record;
  out.scalar = static_cast<int>(out.record >= 0 || f->type.pointer ? size : f->type.scalar_bytes);
  out.is_volatile = v.is_volatile || f->type.is_volatile;
  if (l.counts[i] > 0) {  // an array of the member's own bounds, from the member's offset
    out.kind = Lanes::Kind::array;
    out.view = view(-1 - (std::int64_t{v.record} << 20 | static_cast<std::int64_t>(i)),
                    r.name + "::" + f->name, f->type, f->dims, pos);
    out.level = 0;
    out.bytes = views_[static_cast<std::size_t>(out.view)].sizes[0];
    out.scalar = 0;
    out.record = -1;
  }
  return out;
}

// The shape of `dims` of `element` laid over a shared array (Lanes::view): an array member's
// bounds, or a pointer to an array's rows (its first bound -1: a pointer is not bounded by its
// type, so that bound is 1 and never checked). The same key with the same bounds is the same
// view; a template function's rows of other bounds make another.
int Machine::view(std::int64_t key, const std::string& name, const TypeRef& element,
                  std::span<const int> dims, Pos pos) {
  std::vector<std::int64_t> bounds;
  for (const int d : dims) bounds.push_back(d < 0 ? 1 : constant_of(d, pos, name + "'s bound"));
  if (const auto known = view_index_.find(key);
      known != view_index_.end() &&
      views_[static_cast<std::size_t>(known->second)].array.dims == bounds)
    return known->second;
  ArrayShape s;
  s.array.name = name;
  s.array.type = element.name;
  const std::int64_t elem = size_and_align(element, pos).first;
  s.array.elem_bytes = static_cast<int>(std::min<std::int64_t>(elem, INT32_MAX));
  s.array.scalar_bytes =
      element.record >= 0 || element.pointer ? s.array.elem_bytes : element.scalar_bytes;
  s.record = element.pointer ? -1 : element.record;
  s.is_volatile = element.is_volatile;
  s.array.dims = bounds;
  s.sizes.assign(bounds.size() + 1, elem);  // sizes[L]: the bytes below L subscripts
  for (std::size_t i = bounds.size(); i-- > 0;) {
    if (__builtin_mul_overflow(s.sizes[i + 1], bounds[i], &s.sizes[i]) ||
        s.sizes[i] > kMaxLayoutBytes)
      fail(pos, name + " is larger than any shared memory");
  }
  const int index = static_cast<int>(views_.size());
  views_.push_back(std::move(s));
  view_index_[key] = index;
  return index;
}

// A pointer as a pointer to arrays of t's rows (T (*p)[N] given an address, or cast to one):
// p[i] is the i-th row of N elements from where it points.
Lanes Machine::as_rows(Lanes v, const TypeRef& t, std::int64_t key, const std::string& name,
                       Pos pos) {
  v = decay(v);
  if (v.kind != Lanes::Kind::pointer) return v;
  TypeRef element = t;
  element.pointer = false;
  element.rows.clear();
  std::vector<int> dims{-1};
  dims.insert(dims.end(), t.rows.begin(), t.rows.end());
  v.view = view(key, name, element, dims, pos);
  v.level = 1;
  v.bytes = views_[static_cast<std::size_t>(v.view)].sizes[1];
  v.scalar = 0;
  v.record = -1;
  return v;
}

Lanes Machine::subscript(const Node& n, const Lanes& base) {
  const Lanes index = integer(n.b);
  if (base.kind == Lanes::Kind::array) {
    const ArrayShape& s = shape_of(base);
    const auto level = static_cast<std::size_t>(base.level);
    const std::int64_t bound = s.array.dims[level];
    if (base.level == 0) indices_.clear();
    indices_.emplace_back();
    Lanes r = base;
    r.constant = false;
    r.unknown |= index.unknown;
    for (int l = 0; l < kWarpSize; ++l) {
      const auto i = static_cast<std::size_t>(l);
      if ((base.unknown >> l & 1u) != 0) continue;
      if ((index.unknown >> l & 1u) != 0) {
        r.why[i] = index.why[i];
        continue;
      }
      const Int k = index.lane(l);
      if (!fits_int64(k) || k.bits < 0 || k.bits >= bound) {
        r.unknown |= 1u << l;
        r.why[i] = reason(n.pos,
                          "index " + to_string(k) + " is outside " + s.array.name + "'s " +
                              ordinal(base.level) + " dimension [" + std::to_string(bound) +
                              "] (0.." + std::to_string(bound - 1) + ")",
                          true, true);
        continue;
      }
      indices_.back()[i] = k.bits;
      r.v[i] = base.v[i] + k.bits * s.sizes[level + 1];
    }
    if (base.level + 1 == s.levels()) {
      r.kind = Lanes::Kind::element;
      r.bytes = s.array.elem_bytes;
      r.scalar = s.array.scalar_bytes;
      r.record = s.record;
    } else {
      r.bytes = s.sizes[level + 1];
      r.level = base.level + 1;
    }
    return r;
  }
  if (base.kind == Lanes::Kind::pointer) return deref(n, offset(n.pos, base, index, false));
  if (base.kind == Lanes::Kind::local_pointer) {  // p[0] of p = &x is x
    const LaneMask live = ctx_.active | ctx_.uncertain;
    bool zero = index.kind == Lanes::Kind::integer && (index.unknown & live) == 0;
    for_lanes(live, [&](int l) { zero = zero && index.v[static_cast<std::size_t>(l)] == 0; });
    if (zero) return deref(n, base);
    escape(base.var);
    return unknown(reason(n.pos, "an index past the one variable a pointer points to", false));
  }
  if (base.kind == Lanes::Kind::other && base.lost != 0) return lost(base.why[0], kLostPlace);
  if (base.kind == Lanes::Kind::element) {
    fail(n.pos, "this is already one element of " +
                    shapes_[static_cast<std::size_t>(base.array)].array.name +
                    ": it has no subscript");
  }
  if (!setup_.snippet && base.kind == Lanes::Kind::other) return base;  // a local or global array
  fail(n.pos, "a subscript needs the shared array or a pointer into it");
}

Lanes Machine::deref(const Node& n, Lanes ptr) {
  ptr = decay(ptr);
  if (ptr.kind == Lanes::Kind::local_pointer) {
    ptr.kind = Lanes::Kind::local_place;
    return ptr;
  }
  if (ptr.kind == Lanes::Kind::other && ptr.lost != 0) return lost(ptr.why[0], kLostPlace);
  if (ptr.kind != Lanes::Kind::pointer) {
    if (!setup_.snippet && ptr.kind == Lanes::Kind::other) return ptr;  // a global pointer
    fail(n.pos, "'*' and [] need a pointer into the shared array");
  }
  const ArrayShape& s = shape_of(ptr);
  if (ptr.level < s.levels()) {
    ptr.kind = Lanes::Kind::array;
    return ptr;
  }
  ptr.kind = Lanes::Kind::element;
  return ptr;
}

// [SECTION] Casts and calls

Lanes Machine::cast(const Node& n) {
  if (n.type.reference && !n.type.pointer && !setup_.snippet) {
    // reinterpret_cast<Storage&>(smem) names the same bytes as a Storage, as
    // *reinterpret_cast<Storage*>(&smem) does; it was a copy of the value, which a reference
    // bound to it lost (its writes went uncounted).
    TypeRef pointer = n.type;
    pointer.reference = false;
    pointer.pointer = true;
    return reference(n, cast_to(n, pointer, decay(bind_reference(n.a))));
  }
  return cast_to(n, n.type, decay(rvalue(eval(n.a), n.a)));
}

Lanes Machine::cast_to(const Node& n, const TypeRef& t, Lanes v) {
  if (!t.pointer) {
    if (!t.integer) {  // (float)x and the like: a value BankLab does not follow
      return unknown(reason(n.pos, "a " + t.name + " value", false));
    }
    if (v.kind == Lanes::Kind::other) return v;
    if (v.kind != Lanes::Kind::integer) {
      if (!setup_.snippet) return unknown(reason(n.pos, "an address cast to " + t.name, false));
      fail(n.pos, "a cast to " + t.name +
                      " takes a number; for the address of an element "
                      "use __cvta_generic_to_shared(&...)");
    }
    for (int l = 0; l < kWarpSize; ++l)
      v.v[static_cast<std::size_t>(l)] = convert(v.lane(l), *t.integer).bits;  // (uint8_t)300: 44
    v.type = *t.integer;
    return v;
  }
  if (v.kind != Lanes::Kind::pointer) {
    if (v.kind == Lanes::Kind::local_pointer) escape(v.var);
    if (!setup_.snippet)
      return v.kind == Lanes::Kind::other
                 ? v
                 : unknown(reason(n.pos, "a pointer BankLab does not follow", false));
    fail(n.pos, "a cast to " + t.name +
                    "* needs an address in the shared array, such as "
                    "&" +
                    (shapes_.empty() ? std::string("tile") : shapes_.front().array.name) +
                    "[r][c]");
  }
  std::int64_t bytes = t.bytes;
  int align = t.align > 0 ? t.align : t.bytes;
  if (t.record >= 0 && !setup_.snippet) {
    try {
      TypeRef element = t;
      element.pointer = false;
      std::tie(bytes, align) = size_and_align(element, n.pos);
    } catch (Failure& f) {
      return lost(reason(f.pos, f.message, false));
    }
  } else if (!t.known() || t.bytes == 0) {
    const std::uint16_t why = reason(
        n.pos, "a pointer to " + t.name + ", a type BankLab does not know the size of", false);
    return setup_.snippet ? unknown(why) : lost(why);
  }
  const ArrayShape& s = shapes_[static_cast<std::size_t>(v.array)];
  for (int l = 0; l < kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    if ((v.unknown >> l & 1u) != 0) continue;
    const std::int64_t at_byte = s.base + v.v[i];
    if (at_byte % align != 0) {
      v.unknown |= 1u << l;
      v.why[i] =
          reason(n.pos,
                 "a cast to " + t.name + "* needs an address aligned to " + std::to_string(align) +
                     " bytes (the hardware's rule for an access of " + std::to_string(bytes) +
                     " bytes), but this one is byte " + std::to_string(at_byte) + " (" +
                     std::to_string(at_byte % align) + " past a multiple of " +
                     std::to_string(align) + ")",
                 true, true);
    }
  }
  v.bytes = bytes;
  v.scalar = t.record >= 0 ? static_cast<int>(bytes) : t.scalar_bytes;
  v.record = t.record;
  v.is_volatile = t.is_volatile;
  v.level = s.levels();
  v.view = -1;
  if (!t.rows.empty())
    return as_rows(v, t, index_of(n), "the rows of " + t.name + " (*)[...]", n.pos);
  return v;
}

Op matrix_op(const std::string& name, Pos pos) {
  std::string parts = name;
  std::replace(parts.begin(), parts.end(), '_', '.');
  parts += '.';
  const bool store = name.starts_with("stmatrix");
  const auto has = [&](std::string_view part) {
    std::string dotted(1, '.');
    dotted += part;
    dotted += '.';
    return parts.find(dotted) != std::string::npos;
  };
  if (store) {
    if (has("x1") || has("x2"))
      fail(pos,
           "stmatrix.x1 and .x2 are not modelled: BankLab "
           "counts stmatrix.x4 (measured on the H200)");
    if (!has("x4")) fail(pos, name + " needs its count: stmatrix.x4");
    return Op::stmatrix_x4;
  }
  if (has("x1")) return Op::ldmatrix_x1;
  if (has("x2")) return Op::ldmatrix_x2;
  if (has("x4")) return Op::ldmatrix_x4;
  fail(pos, name + " needs its count: ldmatrix.x1, ldmatrix.x2 or ldmatrix.x4");
}

// A shared address as an asm operand or an intrinsic's argument gives it (a pointer into an
// array, or a number from __cvta_generic_to_shared): a pointer into the array that holds it.
std::optional<Lanes> Machine::shared_address(const Lanes& address, int bytes, Pos pos) {
  Lanes a = decay(address);
  if (a.kind == Lanes::Kind::pointer || a.kind == Lanes::Kind::element) {
    a.kind = Lanes::Kind::pointer;
    return a;
  }
  if (a.kind != Lanes::Kind::integer) return std::nullopt;
  const LaneMask live = ctx_.active & ~a.unknown;
  if (live == 0) {
    if (a.unknown != 0) return a;  // every lane unknown: the caller reports why
    return std::nullopt;
  }
  const std::int64_t first = a.v[static_cast<std::size_t>(std::countr_zero(live))];
  const auto holder = std::find_if(shapes_.begin(), shapes_.end(), [&](const ArrayShape& s) {
    return shaped_[static_cast<std::size_t>(&s - shapes_.data())] == 1 && first >= s.base &&
           first < s.base + s.sizes[0];
  });
  if (holder == shapes_.end()) {
    return unknown(reason(
        pos, "shared address " + std::to_string(first) + " is in no __shared__ array", true));
  }
  Lanes p = a;
  p.kind = Lanes::Kind::pointer;
  p.array = static_cast<int>(holder - shapes_.begin());
  p.bytes = bytes;
  p.scalar = bytes;
  p.level = holder->levels();
  for (auto& v : p.v) v -= holder->base;
  return p;
}

// The one argument that is an address (a pointer into the array, or a shared address from
// __cvta_generic_to_shared); undefined plain names are the destination registers.
Lanes Machine::matrix_call(const Node& n) {
  const Op op = matrix_op(n.text, n.pos);
  std::optional<Lanes> address;
  for (int arg : n.args) {
    const Node& a = at(arg);
    if (a.kind == NodeKind::name && a.var < 0 && a.array < 0 && !is_builtin_name(a.text) &&
        find_by(setup_.lets, &std::pair<std::string, std::int64_t>::first, a.text) ==
            setup_.lets.end()) {
      continue;
    }
    const Lanes v = decay(eval(arg));
    if (v.kind == Lanes::Kind::element) {
      fail(a.pos, n.text + " takes the row's address: &" +
                      shapes_[static_cast<std::size_t>(v.array)].array.name + "[..][..]");
    }
    if (address) fail(a.pos, n.text + " takes one row address; this is a second");
    address = v;
  }
  if (!address) fail(n.pos, n.text + " needs the row address: " + n.text + "(&tile[r][c])");
  Lanes r = *address;
  r.kind = Lanes::Kind::matrix;
  r.op = op;
  r.bytes = 16;
  return r;
}

Lanes Machine::call(const Node& n) {
  // A function of the file first (it may be named like an intrinsic), then the intrinsics.
  for (std::size_t f = 0; f < program_.functions.size(); ++f) {
    const Function& fn = program_.functions[f];
    if (!setup_.snippet && fn.name == n.text && fn.body >= 0 && !fn.kernel &&
        fn.params.size() == n.args.size()) {
      return device_call(n, static_cast<int>(f));
    }
  }
  for (const Function& fn : program_.functions) {
    if (!setup_.snippet && fn.name == n.text && fn.body < 0 && !fn.kernel && !fn.host &&
        fn.params.size() == n.args.size()) {
      return declared_only_call(n, fn);
    }
  }
  if (is_matrix_call(n)) {
    if (setup_.snippet) return matrix_call(n);
    const Lanes m = matrix_call(n);
    const std::optional<Lanes> place = shared_address(m, 16, n.pos);
    if (place) {
      Lanes p = *place;
      p.kind = Lanes::Kind::element;
      record(index_of(n), false, m.op, p, 16);
    }
    return unknown(reason(n.pos, "the registers ldmatrix fills", false));
  }
  const std::string& f = n.text;
  if ((f == "min" || f == "max" || f == "umin" || f == "umax") && n.args.size() == 2) {
    // CUDA's overloads: both in their common type, as for any operator (min(-1, 1u) is 1u).
    const Lanes a = integer(n.args[0]);
    const Lanes b = integer(n.args[1]);
    if (a.kind == Lanes::Kind::other) return a;
    if (b.kind == Lanes::Kind::other) return b;
    const IntType t = common_type(a.type, b.type);
    Lanes r = a;
    r.type = t;
    r.constant = a.constant && b.constant;
    r.unknown = a.unknown | b.unknown;
    for (int l = 0; l < kWarpSize; ++l) {
      const auto i = static_cast<std::size_t>(l);
      if ((r.unknown >> l & 1u) != 0) {
        if ((a.unknown >> l & 1u) == 0) r.why[i] = b.why[i];
        continue;
      }
      const bool first_less = apply(IntOp::lt, a.lane(l), b.lane(l))->bits != 0;
      r.v[i] = convert(first_less == (f == "min" || f == "umin") ? a.lane(l) : b.lane(l), t).bits;
    }
    return r;
  }
  if (f == "__cvta_generic_to_shared" && n.args.size() == 1) {
    const Lanes v = decay(eval(n.args[0]));
    if (v.kind != Lanes::Kind::pointer) {
      if (!setup_.snippet && v.kind == Lanes::Kind::other) return v;
      fail(n.pos, n.text + " takes an address: &tile[r][c]");
    }
    Lanes r = v;
    r.kind = Lanes::Kind::integer;
    r.type = kSizeT;
    r.constant = false;
    const std::int64_t base = shapes_[static_cast<std::size_t>(v.array)].base;
    for (auto& x : r.v) x += base;
    return r;
  }
  if (setup_.snippet) {
    fail(n.pos, n.text +
                    "(...) is not understood: the calls are ldmatrix/stmatrix, "
                    "__cvta_generic_to_shared(p), min(a, b) and max(a, b)");
  }
  if (f.starts_with("__shfl")) return shuffle(n);
  if (f == "__pipeline_memcpy_async" && n.args.size() >= 3) {
    const Lanes dst = decay(eval(n.args[0]));
    rvalue(eval(n.args[1]), n.args[1]);
    const Lanes size = integer(n.args[2]);
    if (size.unknown != 0 || size.kind != Lanes::Kind::integer) {
      record_unknown(index_of(n), false, n.pos,
                     size.unknown != 0
                         ? size.why[static_cast<std::size_t>(std::countr_zero(size.unknown))]
                         : reason(n.pos, "the copy's size is not known", false));
    } else if (dst.kind == Lanes::Kind::pointer) {
      Lanes place = dst;
      place.kind = Lanes::Kind::element;
      record(index_of(n), false, Op::st, place, static_cast<int>(size.v[0]), true);
    }
    return unknown(reason(n.pos, "no value", false));
  }
  if (f == "__popc" || f == "__popcll" || f == "__clz" || f == "__ffs" || f == "abs" ||
      f == "__mul24" || f == "__umul24") {
    std::vector<Lanes> args;
    for (int a : n.args) args.push_back(integer(a));
    for (const Lanes& a : args)
      if (a.kind != Lanes::Kind::integer) return a;
    Lanes r = args[0];
    r.type = f == "__umul24" ? kUnsignedInt : kInt;
    for (const Lanes& a : args) r.unknown |= a.unknown;
    for (int l = 0; l < kWarpSize; ++l) {
      const auto i = static_cast<std::size_t>(l);
      const auto u = static_cast<std::uint64_t>(args[0].v[i]);
      const auto u32 = static_cast<std::uint32_t>(u);
      if (f == "__popc") r.v[i] = std::popcount(u32);
      if (f == "__popcll") r.v[i] = std::popcount(u);
      if (f == "__clz") r.v[i] = std::countl_zero(u32);
      if (f == "__ffs") r.v[i] = u32 == 0 ? 0 : std::countr_zero(u32) + 1;
      if (f == "abs") r.v[i] = args[0].v[i] < 0 ? -args[0].v[i] : args[0].v[i];
      if ((f == "__mul24" || f == "__umul24") && args.size() == 2) {
        r.v[i] = convert({(args[0].v[i] & 0xFFFFFF) * (args[1].v[i] & 0xFFFFFF), kLongLong}, r.type)
                     .bits;
      }
    }
    return r;
  }
  if (f == "__activemask")
    return integer_value(static_cast<std::int64_t>(ctx_.active), kUnsignedInt);
  held_.clear();  // a barrier, an atomic, a function BankLab does not see: values may change
  return unknown_call(n);
}

// Any other call: its arguments are evaluated (they may read shared memory); a shared address
// passed to a function BankLab does not know may be read or written there, and a variable's
// address may be written there.
Lanes Machine::unknown_call(const Node& n) {
  const std::string& f = n.text;
  // obj.method(...) of a struct in shared memory: BankLab does not read methods, and what one
  // returns may be a place in it (sm.at(r, c) = x): listed, and so is every access through it.
  if (f == "(expression)" && !n.args.empty() && at(n.args[0]).kind == NodeKind::member) {
    const Node& method = at(n.args[0]);
    if (const Lanes object = eval(method.a); may_be_shared(object)) {
      for (std::size_t k = 1; k < n.args.size(); ++k) rvalue(eval(n.args[k]), n.args[k]);
      const std::uint16_t why =
          reason(n.pos,
                 "a method called on shared memory (." + method.text +
                     "()): BankLab does not "
                     "read methods, and what this one reads, writes or returns is not known",
                 false);
      record_unknown(index_of(n), false, n.pos, why);
      return lost(why, kLostPlace);
    }
  }
  for (int a : n.args) {
    const Lanes v = eval(a);
    if (v.kind == Lanes::Kind::element || v.kind == Lanes::Kind::local_place ||
        (v.kind == Lanes::Kind::other && v.lost == kLostPlace)) {
      rvalue(v, a);
    } else if (v.kind == Lanes::Kind::local_pointer) {
      forget(v, reason(n.pos,
                       f + "() is given the address of " +
                           program_.vars[static_cast<std::size_t>(v.var)].name +
                           ": what it writes there is not known",
                       false));
    } else if ((v.kind == Lanes::Kind::pointer || v.kind == Lanes::Kind::array ||
                (v.kind == Lanes::Kind::other && v.lost != 0)) &&
               !f.starts_with("__syncthreads") && f != "__syncwarp" && f != "printf") {
      const std::string what = f.starts_with("atomic")
                                   ? f + " on shared memory: BankLab does not model atomics"
                                   : f + "() is given a shared-memory address, and BankLab does "
                                         "not know what it does there";
      record_unknown(index_of(n), false, n.pos, reason(n.pos, what, false));
    }
  }
  return unknown(reason(n.pos, f + "(): a value BankLab does not follow", false));
}

// __shfl_sync(mask, v, src[, width]) and its _up, _down and _xor forms: lanes read each
// other's values, within segments of `width` lanes.
Lanes Machine::shuffle(const Node& n) {
  if (n.args.size() < 3) return unknown(reason(n.pos, n.text + " needs its arguments", true));
  const Lanes v = rvalue(eval(n.args[1]), n.args[1]);
  const Lanes k = integer(n.args[2]);
  Lanes width = integer_value(kWarpSize, kInt);
  if (n.args.size() > 3) width = integer(n.args[3]);
  if (v.kind != Lanes::Kind::integer || k.kind != Lanes::Kind::integer ||
      width.kind != Lanes::Kind::integer) {
    return v.kind == Lanes::Kind::integer
               ? unknown(reason(n.pos, n.text + ": a lane BankLab does not know", false))
               : v;
  }
  Lanes r = v;
  for (int l = 0; l < kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    if (((k.unknown | width.unknown) >> l & 1u) != 0) {
      r.unknown |= 1u << l;
      r.why[i] = (k.unknown >> l & 1u) != 0 ? k.why[i] : width.why[i];
      continue;
    }
    const auto w = static_cast<int>(std::clamp<std::int64_t>(width.v[i], 1, kWarpSize));
    const int segment = l / w * w;
    const auto delta = static_cast<int>(k.v[i]);
    int src = l;
    if (n.text.starts_with("__shfl_up")) {
      src = l - delta >= segment ? l - delta : l;
    } else if (n.text.starts_with("__shfl_down")) {
      src = l + delta < segment + w ? l + delta : l;
    } else if (n.text.starts_with("__shfl_xor")) {
      src = segment + ((l - segment) ^ delta) % w;
    } else {
      src = segment + ((delta % w) + w) % w;
    }
    const auto s = static_cast<std::size_t>(src);
    r.v[i] = v.v[s];
    r.unknown = (r.unknown & ~(1u << l)) | ((v.unknown >> src & 1u) << l);
    r.why[i] = v.why[s];
  }
  r.constant = false;
  return r;
}

// A call of a function the file declares and never defines: what it does is unknown. Every
// variable it is given by reference or by address may have changed, and a shared address it is
// given may be read or written there: both are said.
Lanes Machine::declared_only_call(const Node& n, const Function& fn) {
  held_.clear();
  const std::uint16_t why = reason(
      n.pos, n.text + "() is only declared in the file: BankLab cannot see what it does", false);
  for (std::size_t i = 0; i < n.args.size(); ++i) {
    const Variable& param = program_.vars[static_cast<std::size_t>(fn.params[i])];
    const Lanes v = param.type.reference ? bind_reference(n.args[i]) : eval(n.args[i]);
    if (v.kind == Lanes::Kind::local_pointer) {
      forget(v, why);
    } else if (!param.type.reference &&
               (v.kind == Lanes::Kind::element || v.kind == Lanes::Kind::local_place ||
                (v.kind == Lanes::Kind::other && v.lost == kLostPlace))) {
      rvalue(v, n.args[i]);  // passed by value: read here
    } else if (may_be_shared(v)) {
      record_unknown(index_of(n), false, n.pos, why);
    }
  }
  return unknown(why);
}

Lanes Machine::device_call(const Node& n, int function) {
  const Function& fn = program_.functions[static_cast<std::size_t>(function)];
  calls.emplace(index_of(n), function);
  if (static_cast<int>(calls_.size()) >= kMaxCallDepth)
    fail(n.pos,
         n.text + "(): calls nest deeper than " + std::to_string(kMaxCallDepth) + " (recursion?)");
  std::vector<Lanes> args;
  for (std::size_t i = 0; i < n.args.size(); ++i) {
    const int a = n.args[i];
    if (program_.vars[static_cast<std::size_t>(fn.params[i])].type.reference) {
      args.push_back(bind_reference(a));  // the parameter names the argument
      continue;
    }
    const Lanes v = eval(a);
    args.push_back(v.kind == Lanes::Kind::element || v.kind == Lanes::Kind::local_place ||
                           (v.kind == Lanes::Kind::other && v.lost == kLostPlace)
                       ? rvalue(v, a)
                       : v);
  }
  Frame frame{{}, function};
  frame.slots.resize(static_cast<std::size_t>(fn.frame));
  frames_.push_back(std::move(frame));
  for (std::size_t i = 0; i < fn.params.size(); ++i) {
    if (program_.vars[static_cast<std::size_t>(fn.params[i])].type.reference)
      slot(fn.params[i]) = args[i];  // the binding, not a value of the parameter's type
    else
      store_var(fn.params[i], args[i]);
  }
  calls_.push_back({});
  const Ctx saved = ctx_;
  std::vector<LoopState*> saved_loops;
  std::swap(saved_loops, loops_);
  exec(fn.body);
  std::swap(saved_loops, loops_);
  ctx_ = saved;
  Call done = std::move(calls_.back());
  calls_.pop_back();
  frames_.pop_back();
  if (!done.has_value) return unknown(reason(n.pos, n.text + "() returns no value", false));
  return fn.returns.reference ? reference(n, done.value) : done.value;
}

// [SECTION] Assignments and accesses

// A value stored into a variable: converted to its type; lanes that take no part keep theirs,
// uncertain lanes lose theirs.
void Machine::store_var(int var, const Lanes& value) {
  const Variable& v = program_.vars[static_cast<std::size_t>(var)];
  Lanes in = value;
  const bool integer_type = v.type.integer && !v.type.pointer;
  if (integer_type && in.kind == Lanes::Kind::integer) {
    for (int l = 0; l < kWarpSize; ++l)
      in.v[static_cast<std::size_t>(l)] = convert(in.lane(l), *v.type.integer).bits;
    in.type = *v.type.integer;
  } else if (integer_type && in.kind != Lanes::Kind::other) {
    fail(v.pos, v.name + " is an integer, and this value is an address");
  } else if (!v.type.integer && !v.type.pointer && !v.type.is_auto() &&
             in.kind == Lanes::Kind::integer) {
    in = unknown(reason(v.pos, v.name + " is a " + v.type.name + ", not an integer", false));
  }
  if (!v.dims.empty())
    in = unknown(
        reason(v.pos, v.name + " is a local array: BankLab does not follow its values", false));
  if (v.type.pointer && v.type.is_volatile) in.is_volatile = true;  // volatile T* p
  if (!v.type.rows.empty()) {  // T (*p)[N]: p[i] is a row of N, whatever it was given
    in = as_rows(in, v.type, static_cast<std::int64_t>(program_.nodes.size()) + var, v.name, v.pos);
  }
  Lanes& s = slot(var);
  const LaneMask all = constant_ ? 1u : in_block_;
  const LaneMask take = ctx_.active | ctx_.uncertain;
  if ((take & all) == all ||
      (s.kind == Lanes::Kind::other && s.unknown == kAllLanes && s.why[0] == 0)) {
    s = in;
  } else if (s.kind == in.kind && s.array == in.array && s.var == in.var && s.view == in.view) {
    for_lanes(take, [&](int l) {
      const auto i = static_cast<std::size_t>(l);
      s.v[i] = in.v[i];
      s.why[i] = in.why[i];
      s.unknown = (s.unknown & ~(1u << l)) | (in.unknown & (1u << l));
    });
    s.type = in.type;
    s.constant = s.constant && in.constant;
    s.is_volatile = s.is_volatile || in.is_volatile;
    s.lost = std::max(s.lost, in.lost);
  } else {
    for (const Lanes* x : {&s, &in})
      if (x->kind == Lanes::Kind::local_pointer) escape(x->var);
    const std::uint16_t why = reason(
        v.pos, v.name + " holds different kinds of values (or places) in different lanes", false);
    s = may_be_shared(s) || may_be_shared(in) ? lost(why) : unknown(why);
  }
  s.unknown |= ctx_.uncertain;
  for_lanes(ctx_.uncertain,
            [&](int l) { s.why[static_cast<std::size_t>(l)] = ctx_.uncertain_why; });
}

// target = value: a variable, an element of a shared array (a store), or something BankLab
// does not follow (global memory, a member).
void Machine::store_to(int target, const Lanes& place, const Lanes& value) {
  const Node& t = at(target);
  if (t.kind == NodeKind::name && t.var >= 0 &&
      !program_.vars[static_cast<std::size_t>(t.var)].type.reference) {
    store_var(t.var, value);
  } else if (place.kind == Lanes::Kind::local_place) {
    store_var(place.var, value);  // *p = v, or a reference's variable
  } else if (place.kind == Lanes::Kind::element) {
    record(target, false, Op::st, place, static_cast<int>(place.bytes));
  } else if (place.kind == Lanes::Kind::other && !setup_.snippet) {
    // A write through an address BankLab does not follow: into shared memory (said, not
    // counted), and into any variable whose address it lost (unknown from here on).
    const LaneMask live = ctx_.active | ctx_.uncertain;
    if (live == 0) return;
    if (place.lost != 0) {
      const LaneMask lanes = live & place.unknown;
      record_unknown(target, false, t.pos,
                     place.why[static_cast<std::size_t>(lanes != 0 ? std::countr_zero(lanes) : 0)]);
    }
    for (int var : escaped_)
      store_var(var,
                unknown(reason(t.pos, "written through a pointer BankLab does not follow", false)));
  }
}

Lanes Machine::assign(const Node& n) {
  // C++17: the right side first, then the left; a compound one reads the left, then writes it.
  const Lanes rhs = rvalue(eval(n.b), n.b);
  const Lanes place = eval(n.a);
  Lanes value = rhs;
  if (n.text != "=") {
    const Lanes old = rvalue(place, n.a);
    const Operator op{n.text.substr(0, n.text.size() - 1), n.pos};
    if (old.kind == Lanes::Kind::other || rhs.kind == Lanes::Kind::other) {
      value = old.kind == Lanes::Kind::other ? old : rhs;
    } else {
      value = arithmetic(op, decay(old), decay(rhs), n.b);
    }
  }
  store_to(n.a, place, value);
  return value;
}

Lanes Machine::step(const Node& n) {
  const Lanes place = eval(n.a);
  const Lanes old = rvalue(place, n.a);
  Lanes value = old;
  if (old.kind == Lanes::Kind::integer || old.kind == Lanes::Kind::pointer) {
    value = arithmetic({n.text == "++" ? "+" : "-", n.pos}, decay(old),
                       integer_value(1, kInt, true), n.a);
  }
  store_to(n.a, place, value);
  return n.number == 1 ? old : value;
}

void Machine::record_unknown(int site, bool asm_site, Pos pos, std::uint16_t why) {
  held_.clear();  // it may have written anywhere
  const Reason& r = reasons_[why];
  unevaluated.push_back({site, asm_site, false, pos, r.message, r.error});
}

void Machine::record(int site, bool asm_site, Op op, const Lanes& place, int width, bool cp_async) {
  if (place.record >= 0 && width == place.bytes && !asm_site && !cp_async)
    return record_struct(site, op, place);
  LaneMask lanes = ctx_.active;
  if (is_matrix_op(op))
    lanes &= matrix_count(op) == 4 ? kAllLanes : (1u << (8 * matrix_count(op))) - 1;
  const LaneMask uncertain = ctx_.uncertain;
  if (lanes == 0 && uncertain == 0) return;
  const Pos pos = asm_site ? program_.stmt(site).begin : at(site).pos;
  if (uncertain != 0) return record_unknown(site, asm_site, pos, ctx_.uncertain_why);
  if ((place.unknown & lanes) != 0) {
    return record_unknown(
        site, asm_site, pos,
        place.why[static_cast<std::size_t>(std::countr_zero(place.unknown & lanes))]);
  }
  const ArrayShape& s = shapes_[static_cast<std::size_t>(place.array)];
  Access a;
  a.site = site;
  a.asm_site = asm_site;
  a.op = op;
  a.width = width;
  a.cp_async = cp_async;
  a.is_volatile = place.is_volatile;
  a.stmt = stmt_;
  a.array = place.array;
  a.lanes = lanes;
  a.warp = warp_;
  a.times = repeat_;
  a.offsets.fill(kInactiveLane);
  for (int l = 0; l < kWarpSize; ++l) {
    if ((lanes >> l & 1u) == 0) continue;
    const std::int64_t byte = place.v[static_cast<std::size_t>(l)];
    const std::int64_t absolute = s.base + byte;
    if (byte < 0 || byte + width > s.sizes[0]) {
      return record_unknown(site, asm_site, pos,
                            reason(pos,
                                   where(l) + "the access covers bytes " + std::to_string(byte) +
                                       ".." + std::to_string(byte + width - 1) + ", outside " +
                                       s.array.name + "'s " + std::to_string(s.sizes[0]) + " bytes",
                                   true));
    }
    if (absolute % std::min(width, 16) != 0) {
      return record_unknown(
          site, asm_site, pos,
          reason(pos,
                 where(l) + "a " + std::to_string(width) + "-byte access must be " +
                     std::to_string(std::min(width, 16)) + "-byte aligned, but this one is byte " +
                     std::to_string(absolute),
                 true));
    }
    a.offsets[static_cast<std::size_t>(l)] = byte;
  }
  for (const auto& [loop, trip] : iteration_) {
    a.loops.push_back(loop);
    a.iteration.push_back(trip);
  }
  // A plain load of addresses this warp's threads loaded since the last store, barrier or call:
  // nvcc may keep the value in a register and issue nothing (measured: a[4t+i] read after the
  // same words through a volatile pointer, tests/scan/corpus/widths.cu), or load again. Said,
  // not counted. (A load after a volatile store of the same word is issued, measured in
  // reduce.cu: stores are not held.)
  const bool plain = !asm_site && !cp_async && !is_matrix_op(op);
  if (plain && is_load(op) && !a.is_volatile && held(a)) {
    const std::uint16_t why =
        reason(pos,
               "the same addresses of " + s.array.name +
                   " as an earlier load of these threads, with no store, barrier or call "
                   "between: nvcc may reuse that value (no instruction) or load again",
               false);
    unevaluated.push_back({site, asm_site, false, pos, reasons_[why].message, false});
    return;
  }
  if (!is_load(op) || !plain) held_.clear();
  if (plain && is_load(op)) {
    if (held_.size() == 16) held_.erase(held_.begin());
    held_.push_back({a.array, a.width, a.lanes, a.offsets});
  }
  if (--budget_->records < 0) {
    out_of_steps = true;
    throw OutOfSteps{};
  }
  accesses.push_back(std::move(a));
}

bool Machine::held(const Access& a) const {
  return std::any_of(held_.begin(), held_.end(), [&](const Held& h) {
    if (h.array != a.array || h.width != a.width || (a.lanes & ~h.lanes) != 0) return false;
    for (LaneMask m = a.lanes; m != 0; m &= m - 1) {
      const auto l = static_cast<std::size_t>(std::countr_zero(m));
      if (h.offsets[l] != a.offsets[l]) return false;
    }
    return true;
  });
}

// A whole struct copied member by member past this many members is not counted.
constexpr std::int64_t kMaxStructMembers = 64;

// A whole struct read or written (a copy in or out): one access of its size where that is 4, 8
// or 16 bytes and every lane's address is aligned to it, as nvcc makes it (measured: an 8-byte
// struct's copy is one LDS.64 and one STS.64); else each member on its own, as wide as it is.
void Machine::record_struct(int site, Op op, const Lanes& place) {
  const RecordLayout& l = layout(place.record);
  const Record& r = program_.records[static_cast<std::size_t>(place.record)];
  const std::int64_t base = shapes_[static_cast<std::size_t>(place.array)].base;
  bool whole = l.bytes == 4 || l.bytes == 8 || l.bytes == 16;
  for_lanes(ctx_.active & ~place.unknown, [&](int lane) {
    whole = whole && (base + place.v[static_cast<std::size_t>(lane)]) % l.bytes == 0;
  });
  if (whole) {
    Lanes p = place;
    p.record = -1;
    return record(site, false, op, p, static_cast<int>(l.bytes));
  }
  std::int64_t members = 0;
  for (const std::int64_t count : l.counts) members += std::max<std::int64_t>(1, count);
  if (members > kMaxStructMembers) {
    return record_unknown(
        site, false, at(site).pos,
        reason(at(site).pos,
               "a whole " + r.name + " of " + std::to_string(members) +
                   " members copied: BankLab does not model the accesses of so many members",
               false));
  }
  for (std::size_t i = 0; i < r.fields.size(); ++i) {
    const Field& f = r.fields[i];
    const std::int64_t size = size_and_align(f.type, r.pos).first;
    for (std::int64_t k = 0; k < std::max<std::int64_t>(1, l.counts[i]); ++k) {
      Lanes p = place;
      p.record = f.type.pointer ? -1 : f.type.record;
      p.bytes = size;
      for (auto& x : p.v) x += l.offsets[i] + k * size;
      record(site, false, op, p, static_cast<int>(size));
    }
  }
}

// [SECTION] Statements

Machine::Nesting::Nesting(Machine& m, Pos pos) : depth(++m.depth_) {
  if (depth > kMaxNesting) {
    --depth;
    std::string message = "statements, expressions and calls nest deeper than " +
                          std::to_string(kMaxNesting) + " levels here: the run stopped";
    if (m.setup_.snippet) fail(pos, std::move(message));
    throw TooDeep{pos, std::move(message)};
  }
}

void Machine::count_step() {
  if (budget_->stop != nullptr && budget_->stop->load(std::memory_order_relaxed))
    budget_->steps = 0;
  if (--budget_->steps < 0) {
    out_of_steps = true;
    throw OutOfSteps{};
  }
}

// The lanes (of the active ones) for which the condition is true; those for which it is
// unknown in *unknown, with a reason.
LaneMask Machine::condition(int node, LaneMask* unknown_lanes, std::uint16_t* why, bool* constant) {
  Lanes c;
  try {
    c = integer(node);
  } catch (Failure& f) {
    if (setup_.snippet) throw;
    *unknown_lanes = ctx_.active | ctx_.uncertain;
    *why = reason(f.pos, f.message, true);
    if (constant != nullptr) *constant = false;
    return 0;
  }
  if (constant != nullptr) *constant = c.constant && c.kind == Lanes::Kind::integer;
  LaneMask yes = 0;
  *unknown_lanes = c.unknown & (constant_ ? 1u : in_block_);
  if (c.kind != Lanes::Kind::integer) *unknown_lanes = constant_ ? 1u : in_block_;
  if (*unknown_lanes != 0) *why = c.why[static_cast<std::size_t>(std::countr_zero(*unknown_lanes))];
  if (c.kind == Lanes::Kind::integer) {
    for (int l = 0; l < kWarpSize; ++l)
      if (c.v[static_cast<std::size_t>(l)] != 0 && (c.unknown >> l & 1u) == 0) yes |= 1u << l;
  }
  return yes;
}

bool Machine::touches_shared(const Stmt& s) const {
  std::vector<int> todo;
  const auto push = [&](int node) {
    if (node >= 0) todo.push_back(node);
  };
  push(s.a);
  push(s.c);
  for (int i : s.inits) push(i);
  for (int i : s.args) push(i);
  if (s.kind == StmtKind::array) return true;
  if (s.kind == StmtKind::asm_) {
    return s.text.find(".shared") != std::string::npos ||
           s.text.find("ldmatrix") != std::string::npos ||
           s.text.find("stmatrix") != std::string::npos;
  }
  while (!todo.empty()) {
    const Node& n = at(todo.back());
    todo.pop_back();
    if (n.kind == NodeKind::name &&
        (n.array >= 0 ||
         (n.var >= 0 && (program_.vars[static_cast<std::size_t>(n.var)].type.pointer ||
                         program_.vars[static_cast<std::size_t>(n.var)].type.reference))))
      return true;
    push(n.a);
    push(n.b);
    push(n.c);
    for (int a : n.args) push(a);
  }
  return false;
}

// A statement that failed part way: the variables it assigns, and any a write through a pointer
// may reach, have no value BankLab can trust after it.
void Machine::forget_writes(const Stmt& s, std::uint16_t why) {
  std::vector<int> todo;
  const auto push = [&](int node) {
    if (node >= 0) todo.push_back(node);
  };
  push(s.a);
  push(s.c);
  for (int i : s.inits) push(i);
  for (int var : s.vars) store_var(var, unknown(why));
  while (!todo.empty()) {
    const Node& n = at(todo.back());
    todo.pop_back();
    if (n.kind == NodeKind::assign || n.kind == NodeKind::step) {
      const Node& target = at(n.a);
      if (target.kind == NodeKind::name && target.var >= 0 &&
          !program_.vars[static_cast<std::size_t>(target.var)].type.reference) {
        store_var(target.var, unknown(why));
      } else {
        for (int var : escaped_) store_var(var, unknown(why));
      }
    }
    push(n.a);
    push(n.b);
    push(n.c);
    for (int a : n.args) push(a);
  }
}

void Machine::run(int function, std::span<const Lanes> arguments,
                  std::span<const Lanes> template_values) {
  const Function& fn = program_.functions[static_cast<std::size_t>(function)];
  frames_.clear();
  frames_.push_back({{}, function});
  frames_.back().slots.resize(static_cast<std::size_t>(fn.frame));
  const auto bind = [&](const std::vector<int>& vars, std::span<const Lanes> values) {
    for (std::size_t i = 0; i < values.size() && i < vars.size(); ++i) {
      const Variable& v = program_.vars[static_cast<std::size_t>(vars[i])];
      frames_.back().slots[static_cast<std::size_t>(v.slot)] = values[i];
    }
  };
  bind(fn.params, arguments);
  bind(fn.template_params, template_values);
  calls_.assign(1, {});
  repeat_ = 1;
  loops_.clear();
  iteration_.clear();
  indices_.clear();
  try {
    if (program_.global_body >= 0) {
      const Ctx saved = ctx_;
      exec(program_.global_body);
      ctx_ = saved;
    }
    exec(fn.body);
  } catch (const OutOfSteps&) {
    // out_of_steps says so; what ran before is recorded
  } catch (const TooDeep& f) {
    unevaluated.push_back({-1, false, false, f.pos, f.message, false});
  }
}

void Machine::exec(int index) {
  const Stmt& s = program_.stmt(index);
  if (ctx_.active == 0 && ctx_.uncertain == 0) return;
  count_step();
  const Nesting nesting(*this, s.begin);
  // The statement an access is part of: the innermost simple one (its lines, scan.cpp).
  struct Restore {
    int& stmt;
    int saved;
    ~Restore() { stmt = saved; }
  } restore{stmt_, stmt_};
  if (s.kind == StmtKind::expr || s.kind == StmtKind::decl || s.kind == StmtKind::return_ ||
      s.kind == StmtKind::asm_)
    stmt_ = index;
  try {
    switch (s.kind) {
      case StmtKind::block:
        for (int child : s.body) {
          exec(child);
          if (ctx_.active == 0 && ctx_.uncertain == 0) break;
        }
        return;
      case StmtKind::decl:
        return exec_decl(s);
      case StmtKind::array:
        if (shaped_[static_cast<std::size_t>(s.index)] == 0) shape(s.index);
        return;
      case StmtKind::expr:
        eval(s.a);
        return;
      case StmtKind::if_:
        return exec_if(s);
      case StmtKind::for_:
      case StmtKind::while_:
      case StmtKind::do_:
        return exec_loop(index, s);
      case StmtKind::break_:
        if (!loops_.empty()) loops_.back()->broke |= ctx_.active | ctx_.uncertain;
        ctx_.active = ctx_.uncertain = 0;
        return;
      case StmtKind::continue_:
        if (!loops_.empty()) loops_.back()->continued |= ctx_.active | ctx_.uncertain;
        ctx_.active = ctx_.uncertain = 0;
        return;
      case StmtKind::return_: {
        if (s.a >= 0) {
          // A function returning T& returns the place (get(sm).a[t] = x stores into sm).
          const Function& fn =
              program_.functions[static_cast<std::size_t>(frames_.back().function)];
          const Lanes v = fn.returns.reference ? bind_reference(s.a) : rvalue(eval(s.a), s.a);
          // Taken after the value: a call in it grows calls_, which may move its elements.
          Call& call = calls_.back();
          if (!call.has_value) {
            call.value = v;
            call.has_value = true;
          } else if (call.value.kind == v.kind) {
            for_lanes(ctx_.active, [&](int l) {
              const auto i = static_cast<std::size_t>(l);
              call.value.v[i] = v.v[i];
              call.value.why[i] = v.why[i];
              call.value.unknown = (call.value.unknown & ~(1u << l)) | (v.unknown & (1u << l));
            });
          }
        }
        calls_.back().returned |= ctx_.active | ctx_.uncertain;
        ctx_.active = ctx_.uncertain = 0;
        return;
      }
      case StmtKind::asm_:
        return exec_asm(index, s);
      case StmtKind::unread: {
        // What it may change is unknown afterwards; if it names shared memory, the scan says
        // so for its line.
        const std::uint16_t why = reason(
            s.begin, "changed by a statement BankLab could not read (" + s.text + ")", false);
        for (int var : s.vars) {
          const TypeRef& t = program_.vars[static_cast<std::size_t>(var)].type;
          store_var(
              var, t.pointer || t.reference || may_be_shared(slot(var)) ? lost(why) : unknown(why));
        }
        if (s.index == 1) unevaluated.push_back({index, false, true, s.begin, s.text, false});
        return;
      }
    }
  } catch (Failure& f) {
    if (setup_.snippet) throw;
    if (touches_shared(s)) unevaluated.push_back({index, false, true, f.pos, f.message, true});
    forget_writes(s, reason(f.pos, "changed by a statement that failed: " + f.message, true));
  }
}

void Machine::exec_decl(const Stmt& s) {
  for (std::size_t i = 0; i < s.vars.size(); ++i) {
    const int var = s.vars[i];
    const Variable& v = program_.vars[static_cast<std::size_t>(var)];
    if (s.inits[i] < 0 || v.changed) {
      slot(var) = unknown(reason(
          v.pos,
          v.changed ? v.name + " changes after its declaration" : v.name + " has no value yet",
          false));
      continue;
    }
    // A definition that has no value keeps why, which a use of it reports (an unused one is
    // harmless, as in C++).
    initializing_ = var;
    try {
      if (v.type.reference) {  // T& r = x: r names x from here on
        slot(var) = bind_reference(s.inits[i]);
        initializing_ = -1;
        continue;
      }
      Lanes value = eval(s.inits[i]);
      if (value.kind == Lanes::Kind::element && !v.type.pointer && !v.type.is_auto())
        value = rvalue(value, s.inits[i]);
      if (v.type.is_auto() && value.kind == Lanes::Kind::array) value = decay(value);
      if (v.type.integer && !v.type.pointer && value.kind != Lanes::Kind::integer &&
          value.kind != Lanes::Kind::other) {
        fail(at(s.inits[i]).pos, not_integer(value));
      }
      // A declaration makes its variable anew: the lanes that do not run it (a branch, a trip
      // they left) never read it in its scope. Kept from before, their values of another kind
      // made `if (t < d) { const int ai = ...; }` "holds different kinds of values".
      slot(var) = unknown(0);
      store_var(var, value);
    } catch (Failure& f) {
      slot(var) = unknown(reason(f.pos, f.message, true));
    }
    initializing_ = -1;
  }
}

void Machine::exec_if(const Stmt& s) {
  LaneMask unknown_lanes = 0;
  std::uint16_t why = 0;
  const Ctx entry = ctx_;
  const LaneMask yes = condition(s.a, &unknown_lanes, &why);
  const LaneMask unc = (entry.active | entry.uncertain) & unknown_lanes;
  LaneMask after = 0, after_uncertain = 0;
  ctx_ = {entry.active & yes & ~unknown_lanes, (entry.uncertain & yes) | unc,
          unc != 0 ? why : entry.uncertain_why};
  exec(s.body[0]);
  after |= ctx_.active;
  after_uncertain |= ctx_.uncertain;
  if (s.body.size() > 1) {
    ctx_ = {entry.active & ~yes & ~unknown_lanes, (entry.uncertain & ~yes) | unc,
            unc != 0 ? why : entry.uncertain_why};
    exec(s.body[1]);
    after |= ctx_.active;
    after_uncertain |= ctx_.uncertain;
  } else {
    after |= entry.active & ~yes & ~unknown_lanes;
    after_uncertain |= entry.uncertain & ~yes;
  }
  // The lanes reconverge, less those that left (break, continue, return) inside.
  ctx_ = {after & ~after_uncertain, after_uncertain | (unc & (after | after_uncertain)),
          unc != 0 ? why : entry.uncertain_why};
  ctx_.active &= ~calls_.back().returned;
}

Unrolling unrolling_of(const Stmt& loop, const LoopTrips& t) {
  if (!t.constant) return Unrolling::none;
  if (loop.unroll == 0) return t.trips <= 1024 ? Unrolling::whole : Unrolling::none;
  if (loop.unroll > 1) return loop.unroll >= t.trips ? Unrolling::whole : Unrolling::partial;
  return t.trips <= 32 ? Unrolling::whole : Unrolling::unknown;
}

void Machine::record_trips(int index, bool constant, int trips) {
  const auto [it, inserted] = loop_trips.emplace(index, LoopTrips{constant, trips});
  if (!inserted) {
    it->second.constant = it->second.constant && constant;
    it->second.trips = std::max(it->second.trips, trips);
  }
}

void Machine::exec_loop(int index, const Stmt& s) {
  const Ctx entry = ctx_;
  if (s.kind == StmtKind::for_ && !s.body.empty() && s.body[0] >= 0) exec(s.body[0]);
  if (counted_once(index, s)) {
    ctx_ = entry;
    ctx_.active &= ~calls_.back().returned;
    return;
  }
  const int body = s.kind == StmtKind::for_ ? s.body[1] : s.body[0];
  LoopState state;
  loops_.push_back(&state);
  iteration_.emplace_back(index, 0);
  LaneMask looping = ctx_.active;
  LaneMask uncertain = ctx_.uncertain;
  bool constant_trips = s.unroll != 1;
  int trips = 0;
  while (true) {
    ctx_.active = looping;
    ctx_.uncertain = uncertain;
    if (s.a >= 0 && !(s.kind == StmtKind::do_ && trips == 0)) {
      LaneMask unknown_lanes = 0;
      std::uint16_t why = 0;
      bool constant = false;
      const LaneMask yes = condition(s.a, &unknown_lanes, &why, &constant);
      constant_trips = constant_trips && constant;
      uncertain = (uncertain & (yes | unknown_lanes)) | (looping & unknown_lanes);
      if ((looping & unknown_lanes) != 0) ctx_.uncertain_why = why;
      looping &= yes & ~unknown_lanes;
    }
    if (looping == 0) {
      // Lanes that may or may not loop: the body once with them alone, so that its accesses
      // are reported (not counted), then the loop ends.
      if (uncertain != 0 && trips == 0) {
        ctx_.active = 0;
        ctx_.uncertain = uncertain;
        exec(body);
      }
      break;
    }
    if (trips == kMaxTrips) {
      truncated[index] = std::max(truncated[index], trips);
      break;
    }
    iteration_.back().second = trips;
    state.continued = 0;
    ctx_.active = looping;
    ctx_.uncertain = uncertain;
    exec(body);
    looping &= ~state.broke & ~calls_.back().returned;
    uncertain &= ~state.broke & ~calls_.back().returned;
    ctx_.active = looping;
    ctx_.uncertain = uncertain;
    if (s.c >= 0) eval(s.c);
    ++trips;
  }
  loops_.pop_back();
  iteration_.pop_back();
  record_trips(index, constant_trips, trips);
  ctx_ = entry;
  ctx_.active &= ~calls_.back().returned;
  ctx_.uncertain &= ~calls_.back().returned;
}

// A loop whose trips issue the same accesses (LoopInvariance): its trips counted by running
// its condition and step alone, then its body once, as its first trip, each access recorded
// for all of them (Access::times). Exact: nothing in the body that decides an access depends
// on the trip, and the body changes nothing the trips depend on. The variables the body
// changes outside it are unknown after it (their values were not followed over the trips).
// False, with nothing changed, where the loop does not qualify, where its lanes would part
// (trips that differ from lane to lane, or are unknown), for fewer than two trips, and for a
// loop nvcc unrolls (its trips' accesses may merge into wider ones, scan.cpp).
bool Machine::counted_once(int index, const Stmt& s) {
  if (setup_.snippet || ctx_.uncertain != 0 || ctx_.active == 0 || !invariance_.invariant(index))
    return false;
  const Ctx before = ctx_;
  const std::vector<Lanes> start = frames_.back().slots;
  const auto give_up = [&] {
    frames_.back().slots = start;
    ctx_ = before;
    return false;
  };
  const LaneMask looping = ctx_.active;
  bool constant = s.unroll != 1;
  int trips = 0;
  while (true) {
    ctx_.active = looping;
    if (s.a >= 0 && !(s.kind == StmtKind::do_ && trips == 0)) {
      LaneMask unknown_lanes = 0;
      std::uint16_t why = 0;
      bool constant_condition = false;
      const LaneMask yes = condition(s.a, &unknown_lanes, &why, &constant_condition) & looping;
      constant = constant && constant_condition;
      if ((unknown_lanes & looping) != 0 || (yes != 0 && yes != looping)) return give_up();
      if (yes == 0) break;
    }
    if (trips == kMaxTrips) {
      truncated[index] = std::max(truncated[index], trips);
      break;
    }
    count_step();
    ++trips;
    if (s.c >= 0) eval(s.c);
  }
  // A loop nvcc unrolls is stepped: its trips' accesses may merge (scan.cpp).
  const Unrolling unrolled = unrolling_of(s, {constant, trips});
  if (unrolled == Unrolling::whole || unrolled == Unrolling::partial || trips < 2 ||
      repeat_ > kMaxRepeat / trips)
    return give_up();
  std::vector<std::pair<int, Lanes>> counters;  // their values after the last trip
  for (int var : invariance_.counters(index)) counters.emplace_back(var, slot(var));
  frames_.back().slots = start;
  LoopState state;
  loops_.push_back(&state);
  iteration_.emplace_back(index, 0);
  const std::int64_t outer = repeat_;
  repeat_ *= trips;
  ctx_ = before;
  exec(s.kind == StmtKind::for_ ? s.body[1] : s.body[0]);
  repeat_ = outer;
  loops_.pop_back();
  iteration_.pop_back();
  for (int var : invariance_.changed(index)) {
    store_var(var, unknown(reason(s.begin,
                                  program_.vars[static_cast<std::size_t>(var)].name +
                                      " is not followed past this loop: its " +
                                      std::to_string(trips) + " trips were counted from one",
                                  false)));
  }
  for (const auto& [var, value] : counters) slot(var) = value;
  record_trips(index, constant, trips);
  return true;
}

// The shared-memory instructions of an asm statement: ldmatrix/stmatrix, cp.async,
// ld.shared/st.shared, each with its address operand [%N]; its outputs are values BankLab does
// not follow (but %laneid).
void Machine::exec_asm(int index, const Stmt& s) {
  const auto operand = [&](std::string_view line, std::size_t from) -> int {
    const std::size_t open = line.find("[%", from);
    if (open == std::string_view::npos) return -1;
    int k = 0;
    std::size_t d = open + 2;
    if (d >= line.size() || !std::isdigit(static_cast<unsigned char>(line[d]))) return -1;
    while (d < line.size() && std::isdigit(static_cast<unsigned char>(line[d])))
      k = k * 10 + (line[d++] - '0');
    return k < static_cast<int>(s.args.size()) ? k : -1;
  };
  std::string_view text = s.text;
  bool laneid = false;
  held_.clear();  // asm may read or write memory, or wait at a barrier
  while (!text.empty()) {
    const std::size_t end = text.find_first_of(";\n");
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '{'))
      line.remove_prefix(1);
    if (line.starts_with("@"))
      line.remove_prefix(std::min(line.find(' '), line.size()));  // a predicate
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (line.find("%laneid") != std::string_view::npos) laneid = true;
    const bool matrix = line.starts_with("ldmatrix") || line.starts_with("stmatrix");
    const bool copy =
        line.starts_with("cp.async.ca.shared") || line.starts_with("cp.async.cg.shared");
    const bool ld = line.starts_with("ld.shared") || line.starts_with("ld.volatile.shared");
    const bool st = line.starts_with("st.shared") || line.starts_with("st.volatile.shared");
    if (line.starts_with("cp.async.bulk") || line.starts_with("wgmma") ||
        line.starts_with("tcgen05") || line.starts_with("cp.reduce.async.bulk") ||
        line.starts_with("red.shared") || line.starts_with("atom.shared")) {
      unevaluated.push_back(
          {index, true, false, s.begin,
           "asm " + std::string(line.substr(0, line.find(' '))) +
               ": BankLab does not model this instruction's shared-memory traffic",
           false});
      continue;
    }
    if (!matrix && !copy && !ld && !st) continue;
    const std::string name(line.substr(0, line.find_first_of(" \t")));
    const int k = operand(line, 0);
    if (k < 0) {
      unevaluated.push_back(
          {index, true, false, s.begin, "asm " + name + ": its address is no operand [%N]", false});
      continue;
    }
    Op op = st ? Op::st : Op::ld;
    int width = 4;
    if (matrix) {
      op = matrix_op(name, s.begin);
      width = 16;
    } else if (copy) {
      op = Op::st;
      // cp.async.cg.shared.global [dst], [src], SIZE: the size a number or an operand.
      const std::size_t last = line.rfind(',');
      std::string_view size = last == std::string_view::npos ? "" : line.substr(last + 1);
      while (!size.empty() && size.front() == ' ') size.remove_prefix(1);
      if (size.starts_with("%")) {
        const int m = std::atoi(std::string(size.substr(1)).c_str());
        const Lanes v = m < static_cast<int>(s.args.size())
                            ? integer(s.args[static_cast<std::size_t>(m)])
                            : Lanes{};
        width = v.kind == Lanes::Kind::integer && v.unknown == 0 ? static_cast<int>(v.v[0]) : 0;
      } else {
        width = std::atoi(std::string(size).c_str());
      }
      if (width != 4 && width != 8 && width != 16) {
        unevaluated.push_back({index, true, false, s.begin,
                               "asm " + name + ": a copy of a size BankLab does not know", false});
        continue;
      }
    } else {
      // ld.shared.v4.f32: 4 x 4 bytes; .b8/.u8/.s8 1, .16 2, .32 4, .64 8.
      int each = 4;
      for (const auto& [suffix, bytes] : {std::pair{"8", 1}, {"16", 2}, {"32", 4}, {"64", 8}}) {
        if (name.ends_with(suffix)) each = bytes;
      }
      const int count = name.find(".v4") != std::string::npos   ? 4
                        : name.find(".v2") != std::string::npos ? 2
                                                                : 1;
      width = each * count;
    }
    const int arg = s.args[static_cast<std::size_t>(k)];
    const Lanes address = eval(arg);
    if (address.kind == Lanes::Kind::other && address.unknown != 0) {
      record_unknown(index, true, s.begin,
                     address.why[static_cast<std::size_t>(std::countr_zero(address.unknown))]);
      continue;
    }
    std::optional<Lanes> place = shared_address(address, width, s.begin);
    if (!place) {
      unevaluated.push_back({index, true, false, s.begin,
                             "asm " + name + ": its address is not in a __shared__ array", false});
      continue;
    }
    if (place->kind == Lanes::Kind::other) {
      record_unknown(index, true, s.begin, place->why[0]);
      continue;
    }
    place->kind = Lanes::Kind::element;
    record(index, true, op, *place, width, copy);
  }
  for (int o = 0; o < s.outputs && o < static_cast<int>(s.args.size()); ++o) {
    const int target = s.args[static_cast<std::size_t>(o)];
    if (at(target).kind != NodeKind::name || at(target).var < 0) continue;
    if (laneid) {
      Lanes lane = integer_value(0, kUnsignedInt);
      for (int l = 0; l < kWarpSize; ++l) lane.v[static_cast<std::size_t>(l)] = l;
      store_var(at(target).var, lane);
    } else {
      store_var(at(target).var, unknown(reason(s.begin, "a value asm sets", false)));
    }
  }
}

}  // namespace banklab::code
