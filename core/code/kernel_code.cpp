// The public entry of kernel code (kernel_code.hpp): the code parsed (parser.hpp) and run for
// every lane of a warp on the machine (machine.hpp), the hardware's rules for one access
// checked, the result as a Scenario the model counts, and errors located in the code the user
// typed.
//
// [SECTION] One access for one warp
// [SECTION] Errors, located
// [SECTION] The public functions
#include "core/code/kernel_code.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <climits>

#include "core/base/find.hpp"
#include "core/base/json_writer.hpp"
#include "core/code/machine.hpp"
#include "core/code/parser.hpp"
#include "core/model/shared_limits.hpp"

namespace banklab {
namespace {

using namespace code;

// [SECTION] One access for one warp

// The instruction the access statement stands for, before any lane is evaluated.
Op access_op(const Program& p, const KernelParams& params) {
  const SnippetAccess& a = *p.access;
  const Node& n = p.node(a.node);
  if (is_matrix_call(n)) return matrix_op(n.text, n.pos);
  if (a.form == AccessForm::bare) return params.op.value_or(Op::ld);
  const Op op = a.form == AccessForm::store ? Op::st : Op::ld;
  if (params.op && *params.op != op) {
    fail(a.begin, std::string("the code ") + (op == Op::st ? "stores" : "loads") + ", but --op " +
                      std::string(op_name(*params.op)) + " was given");
  }
  return op;
}

// The access's shape for a lane: a matrix op's row address or an element, and its width.
int access_width(const Lanes& v, Op op, const ArrayShape& s, Pos begin) {
  if (is_matrix_op(op)) return 16;
  if (v.kind != Lanes::Kind::element) {
    fail(begin, v.kind == Lanes::Kind::array
                    ? "this is a whole row of " + s.array.name +
                          ", not one element: give "
                          "every subscript"
                    : "the access must name an element of " + s.array.name +
                          " (tile[..][..], *p, p[k]), or be ldmatrix/stmatrix");
  }
  return static_cast<int>(v.bytes);
}

// One lane's byte, with the rules of the hardware checked.
std::int64_t lane_byte(const Machine& m, const Lanes& v, int lane, Op op, int width,
                       const ArrayShape& s, Pos begin) {
  const std::int64_t byte = v.v[static_cast<std::size_t>(lane)];
  if (is_matrix_op(op) && byte % 16 != 0) {
    fail(begin, m.where(lane) +
                    "an ldmatrix/stmatrix row address must be 16-byte aligned (each "
                    "row is 16 bytes), but this one is byte " +
                    std::to_string(byte));
  }
  if (byte < 0 || byte + width > s.sizes[0]) {
    fail(begin, m.where(lane) + "the access covers bytes " + std::to_string(byte) + ".." +
                    std::to_string(byte + width - 1) + ", outside " + s.array.name + "'s " +
                    std::to_string(s.sizes[0]) + " bytes");
  }
  if (byte % width != 0) {
    fail(begin, m.where(lane) + "a " + std::to_string(width) + "-byte access must be " +
                    std::to_string(width) + "-byte aligned, but this one is byte " +
                    std::to_string(byte));
  }
  return byte;
}

// The warp's lanes in order: the first one whose guard or access has no value reports why;
// the others take part where the guard holds.
KernelCode evaluate_warp(const Program& p, const KernelParams& params, Machine& m, int warp) {
  const ArrayShape& s = m.shapes().front();
  KernelCode code;
  code.array = s.array;
  code.warp = warp;
  const SnippetAccess& access = *p.access;
  const Op op = access_op(p, params);
  Scenario& sc = code.scenario;
  sc.pattern = AccessPattern::raw;
  sc.tile = tile_of(s.array);
  sc.op = op;
  sc.width = is_matrix_op(op) ? 16 : s.array.elem_bytes;
  sc.lane_mask = 0;
  sc.raw_offsets.fill(kInactiveLane);
  m.start_warp(warp);
  m.run(0);  // the declarations, in the order of the code
  const LaneMask reads =
      is_matrix_op(op) && matrix_count(op) < 4 ? (1u << (8 * matrix_count(op))) - 1 : kAllLanes;
  const LaneMask lanes = m.lanes_in_block() & reads;
  LaneMask take = lanes;
  std::optional<Lanes> guard;
  if (access.guard >= 0) {
    guard = m.integer(access.guard);
    take = 0;
    for (int l = 0; l < kWarpSize; ++l) {
      if ((lanes >> l & 1u) == 0) continue;
      if ((guard->unknown >> l & 1u) != 0)
        throw m.failure(guard->why[static_cast<std::size_t>(l)], l);
      if (guard->kind != Lanes::Kind::integer)
        fail(p.node(access.guard).pos, "the guard is not a number");
      if (guard->v[static_cast<std::size_t>(l)] != 0) take |= 1u << l;
    }
  }
  for (int l = 0; l < kWarpSize; ++l) {
    if ((lanes >> l & 1u) != 0) code.lanes[static_cast<std::size_t>(l)].thread = m.thread(l);
  }
  if (take == 0) return code;
  const Lanes v = m.eval(access.node);
  const int width = access_width(v, op, s, access.begin);
  sc.width = width;
  for (int l = 0; l < kWarpSize; ++l) {
    if ((take >> l & 1u) == 0) continue;
    const auto i = static_cast<std::size_t>(l);
    if ((v.unknown >> l & 1u) != 0) throw m.failure(v.why[i], l);
    LaneCode& lane = code.lanes[i];
    lane.active = true;
    lane.byte = lane_byte(m, v, l, op, width, s, access.begin);
    for (const auto& level : m.indices()) lane.indices.push_back(level[i]);
    sc.raw_offsets[i] = lane.byte;
    sc.lane_mask |= 1u << l;
  }
  return code;
}

// The access statement as written, without blanks around it or its ';'.
std::string access_text(const SnippetAccess& a, std::span<const CodeSource> sources) {
  const std::string& text = sources[static_cast<std::size_t>(a.begin.source)].text;
  const std::size_t end = a.end.source == a.begin.source
                              ? std::min(static_cast<std::size_t>(a.end.offset), text.size())
                              : text.size();
  std::string_view s(text.data() + a.begin.offset, end - static_cast<std::size_t>(a.begin.offset));
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == ';'))
    s.remove_suffix(1);
  return std::string(s);
}

MachineSetup setup_of(const KernelParams& params) {
  MachineSetup setup;
  setup.block = params.block;
  setup.lets = params.lets;
  setup.extern_bytes = params.extern_bytes;
  setup.let_hint = params.let_hint;
  setup.snippet = true;
  return setup;
}

KernelCode evaluate_program(const Program& p, const KernelParams& params) {
  if (p.arrays.empty()) {
    fail(kNowhere,
         "no __shared__ declaration: declare the array, e.g. "
         "__shared__ float tile[32][33];");
  }
  Machine m(p, setup_of(params));
  m.lay_out();
  if (!p.access) {
    fail(kNowhere,
         "no shared-memory access: add one, e.g. " + p.arrays.front().name + "[threadIdx.x][0]");
  }
  const auto [bx, by, bz] = params.block;
  const int warps = (bx * by * bz + kWarpSize - 1) / kWarpSize;
  if (params.warp != kAllWarps && (params.warp < 0 || params.warp >= warps)) {
    fail(kNowhere, "warp " + std::to_string(params.warp) + " is not in the block: a block of " +
                       std::to_string(bx * by * bz) + " threads has warps 0.." +
                       std::to_string(warps - 1));
  }
  if (params.warp != kAllWarps) {
    KernelCode code = evaluate_warp(p, params, m, params.warp);
    code.warp_count = warps;
    return code;
  }
  std::optional<KernelCode> worst;
  int worst_wavefronts = -1;
  for (int w = 0; w < warps; ++w) {
    KernelCode code = evaluate_warp(p, params, m, w);
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

// A --let gives a value to a name the code leaves open: never to one the code or the block
// gives a value itself, and once.
void check_lets(const Program& p, const KernelParams& params) {
  for (auto it = params.lets.begin(); it != params.lets.end(); ++it) {
    const std::string& name = it->first;
    const std::string let = "--let " + name + ": ";
    if (std::find_if(params.lets.begin(), it,
                     [&](const auto& before) { return before.first == name; }) != it)
      fail(kNowhere, let + "given twice; give each name one value");
    if (is_builtin_name(name))
      fail(kNowhere,
           let + name + " is built in (the block and the thread give it), not a value to choose");
    if (find_by(p.vars, &Variable::name, name) != p.vars.end())
      fail(kNowhere, let + "the code defines " + name + " itself; keep one of the two");
    if (std::find(p.macros.begin(), p.macros.end(), name) != p.macros.end())
      fail(kNowhere, let + "the code #defines " + name + " itself; keep one of the two");
    if (find_by(p.arrays, &ArrayDecl::name, name) != p.arrays.end())
      fail(kNowhere, let + name + " is the shared array, not a value");
  }
}

// [SECTION] Errors, located

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
  e.line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
  e.column = static_cast<int>(offset - begin);
  return e;
}

}  // namespace

// [SECTION] The public functions

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
  return t.check() ? t : TileLayout{};
}

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
      if (!valid_let_name(name)) fail(kNowhere, "--let " + name + ": a name is a C++ identifier");
    }
    const auto [bx, by, bz] = params.block;
    // Each side is checked before the product, so the product of three ints cannot overflow.
    if (bx < 1 || by < 1 || bz < 1 || bx > 1024 || by > 1024 || bz > 1024 ||
        std::int64_t{bx} * by * bz > 1024) {
      fail(kNowhere, "a block has 1 to 1024 threads, each side at least 1");
    }
    if (params.extern_bytes < 1 || params.extern_bytes > kMaxSharedPerBlockBytes) {
      fail(kNowhere, "the extern __shared__ size must be 1.." +
                         std::to_string(kMaxSharedPerBlockBytes) + " bytes: " + block_limit_text());
    }
    const Program p = parse_program(sources);
    check_lets(p, params);
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
    MachineSetup setup;
    setup.lets.assign(names.begin(), names.end());
    setup.snippet = true;
    Machine m(p, std::move(setup));
    m.start_constant();
    const Lanes v = m.integer(root);
    if ((v.unknown & 1u) != 0) throw m.failure(v.why[0], 0);
    if (v.kind != Lanes::Kind::integer) fail(p.node(root).pos, "expected a number");
    if (!fits_int64(v.lane(0))) {
      fail(p.node(root).pos, to_string(v.lane(0)) + " does not fit in a signed 64-bit value");
    }
    r.value = v.v[0];
  } catch (const Failure& f) {
    const CodeSource source{"expression", std::string(expression)};
    r.error = located(f, std::span(&source, 1));
  }
  return r;
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
