// Your whole kernel (scan.hpp): each kernel of a file run warp by warp on the machine, its
// accesses counted and summed per place in the code.
//
// [SECTION] Lines of the file
// [SECTION] The launch: block, grid, bytes, arguments
// [SECTION] Counting: one instruction's wavefronts, memoized
// [SECTION] Merging: what nvcc makes of adjacent scalar accesses in an unrolled loop
// [SECTION] One kernel
// [SECTION] The public functions
#include "core/code/scan.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "core/base/find.hpp"
#include "core/base/json_writer.hpp"
#include "core/code/kernel_params.hpp"
#include "core/code/loop_invariance.hpp"
#include "core/code/machine.hpp"
#include "core/code/source_parser.hpp"
#include "core/model/analysis.hpp"

namespace banklab {
namespace {

using namespace code;

// [SECTION] Lines of the file

class LineTable {
 public:
  explicit LineTable(const std::string& text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts_.push_back(static_cast<int>(i + 1));
  }
  int line(Pos pos) const {
    return static_cast<int>(std::upper_bound(starts_.begin(), starts_.end(), pos.offset) -
                            starts_.begin());
  }

 private:
  std::vector<int> starts_;
};

// [SECTION] The launch: block, grid, bytes, arguments

// Values of a host function's expressions, when they are constants.
class HostValues {
 public:
  HostValues(const Program& p, int host, const MachineSetup& setup) : p_(p), m_(p, setup) {
    m_.start_constant();
    if (host >= 0) m_.run(host);
  }
  std::optional<std::int64_t> integer(int node) {
    if (node < 0) return std::nullopt;
    try {
      const Lanes v = m_.integer(node);
      if (v.kind != Lanes::Kind::integer || (v.unknown & 1u) != 0 || !fits_int64(v.lane(0)))
        return std::nullopt;
      return v.v[0];
    } catch (const Failure&) {
      return std::nullopt;
    } catch (const TooDeep&) {
      return std::nullopt;
    }
  }
  // A dim3: dim3(x, y, z), a dim3 variable, or a number (x, 1, 1); each side a positive
  // number, within CUDA's limits or not (check_block and check_grid say).
  std::optional<std::array<std::int64_t, 3>> dim3(int node) {
    if (node < 0) return std::nullopt;
    const Node& n = p_.node(node);
    std::vector<int> parts;
    if (n.kind == NodeKind::call && n.text == "dim3") {
      parts = n.args;
    } else if (n.kind == NodeKind::list) {
      parts = n.args;
    } else if (n.kind == NodeKind::name && n.var >= 0 &&
               p_.vars[static_cast<std::size_t>(n.var)].type.name == "dim3") {
      const Variable& v = p_.vars[static_cast<std::size_t>(n.var)];
      if (v.changed) return std::nullopt;
      for (const Stmt& s : p_.stmts) {
        if (s.kind != StmtKind::decl) continue;
        for (std::size_t i = 0; i < s.vars.size(); ++i) {
          if (s.vars[i] != n.var || s.inits[i] < 0) continue;
          const Node& init = p_.node(s.inits[i]);
          parts = init.kind == NodeKind::list || init.kind == NodeKind::call
                      ? init.args
                      : std::vector<int>{s.inits[i]};
        }
      }
      if (parts.empty()) return std::nullopt;
    } else {
      parts = {node};
    }
    std::array<std::int64_t, 3> d = {1, 1, 1};
    for (std::size_t i = 0; i < parts.size() && i < 3; ++i) {
      const std::optional<std::int64_t> v = integer(parts[i]);
      if (!v || *v < 1) return std::nullopt;
      d[i] = *v;
    }
    return d;
  }

 private:
  const Program& p_;
  Machine m_;
};

// A launch's sides, checked against CUDA's limits: each fits an int.
std::array<int, 3> sides_of(const std::array<std::int64_t, 3>& d) {
  return {static_cast<int>(d[0]), static_cast<int>(d[1]), static_cast<int>(d[2])};
}

// [SECTION] Counting: one instruction's wavefronts, memoized

// The wavefronts of one warp-instruction. A bank pattern does not change when every address
// moves by a multiple of 128 bytes, so the offsets are counted from the 128-byte line of the
// lowest one, and equal patterns are counted once.
class Counter {
 public:
  std::pair<int, int> count(Op op, int width, std::uint32_t lanes,
                            const std::array<std::int64_t, kWarpSize>& offsets) {
    WarpAccess a{op, width, {}};
    std::int64_t low = INT64_MAX;
    for (int l = 0; l < kWarpSize; ++l)
      if ((lanes >> l & 1u) != 0) low = std::min(low, offsets[static_cast<std::size_t>(l)]);
    const std::int64_t shift = low / 128 * 128;
    std::string key(reinterpret_cast<const char*>(&op), 1);
    key += static_cast<char>(width);
    for (int l = 0; l < kWarpSize; ++l) {
      const auto i = static_cast<std::size_t>(l);
      a.offsets[i] = (lanes >> l & 1u) != 0 ? offsets[i] - shift : kInactiveLane;
      key.append(reinterpret_cast<const char*>(&a.offsets[i]), sizeof(std::int64_t));
    }
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    const Analysis r = analyze(a);
    const std::pair<int, int> result{r.wavefront_count(), r.ideal_wavefronts};
    memo_.emplace(std::move(key), result);
    return result;
  }

 private:
  std::unordered_map<std::string, std::pair<int, int>> memo_;
};

// [SECTION] Merging: what nvcc makes of adjacent scalar accesses in an unrolled loop

struct SiteKey {
  int site;
  bool asm_site;
  Op op;
  auto operator<=>(const SiteKey&) const = default;
};

// One thread's accesses of one place in the code, grouped as nvcc issues them: by warp and by
// the trips of the loops outside the ones it unrolls whole; in each group, every access's
// distance in bytes from the group's first (the same in every lane: one base register and
// constant offsets, as ptxas sees them), lowest first.
struct StraightLine {
  using Member = std::pair<std::int64_t, std::size_t>;  // distance, index into the accesses
  std::vector<std::vector<Member>> groups;
  std::vector<std::int64_t> distances;  // the same in every group
};

// Nothing where the groups are not one pattern of constant distances (lanes that differ, a
// distance that differs from lane to lane or from group to group, the same address twice).
std::optional<StraightLine> straight_line(const std::vector<Access>& accesses, std::size_t depth) {
  std::map<std::vector<std::int32_t>, std::vector<std::size_t>> by_key;
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    const Access& a = accesses[i];
    std::vector<std::int32_t> key = {a.warp};
    key.insert(key.end(), a.iteration.begin(),
               a.iteration.begin() + static_cast<std::ptrdiff_t>(depth));
    by_key[key].push_back(i);
  }
  StraightLine out;
  for (const auto& [key, members] : by_key) {
    const Access& head = accesses[members.front()];
    std::vector<StraightLine::Member> group;
    for (const std::size_t index : members) {
      const Access& a = accesses[index];
      if (a.lanes != head.lanes || a.array != head.array || a.times != head.times || a.lanes == 0)
        return std::nullopt;
      std::optional<std::int64_t> distance;
      for (int l = 0; l < kWarpSize; ++l) {
        if ((a.lanes >> l & 1u) == 0) continue;
        const auto li = static_cast<std::size_t>(l);
        const std::int64_t here = a.offsets[li] - head.offsets[li];
        if (distance && *distance != here) return std::nullopt;
        distance = here;
      }
      group.emplace_back(*distance, index);
    }
    std::sort(group.begin(), group.end());
    std::vector<std::int64_t> distances;
    for (const auto& [distance, index] : group) distances.push_back(distance);
    if (std::adjacent_find(distances.begin(), distances.end()) != distances.end())
      return std::nullopt;
    if (out.groups.empty())
      out.distances = distances;
    else if (distances != out.distances)
      return std::nullopt;
    out.groups.push_back(std::move(group));
  }
  return out;
}

// Why a vector of `bytes` whose first access is `distance` bytes past each group's first is not
// aligned in some lane; empty where it is in every lane of every group.
std::string misaligned(const StraightLine& code, const std::vector<Access>& accesses,
                       const std::vector<ArrayShape>& shapes, std::int64_t distance, int bytes) {
  for (const auto& group : code.groups) {
    const Access& lowest = accesses[group.front().second];
    const std::int64_t first = group.front().first;  // the lowest distance
    const std::int64_t base = shapes[static_cast<std::size_t>(lowest.array)].base;
    for (int l = 0; l < kWarpSize; ++l) {
      if ((lowest.lanes >> l & 1u) == 0) continue;
      const std::int64_t address =
          base + lowest.offsets[static_cast<std::size_t>(l)] - first + distance;
      if (address % bytes != 0) {
        return "lane " + std::to_string(l) + " of warp " + std::to_string(lowest.warp) +
               " is at byte " + std::to_string(address) + ", not " + std::to_string(bytes) +
               "-byte aligned";
      }
    }
  }
  return {};
}

// What nvcc makes of one access's instructions.
struct Merged {
  std::vector<Access> accesses;  // as issued: merged where ptxas merges them
  int width = 0;                 // the merged instructions' bytes; 0 where none merged
  std::string loops;             // the loops whose trips merged: "k", "k, i"
  std::string narrow;            // why adjacent accesses stay as written (their alignment)
  std::string undecided;         // why BankLab cannot tell what nvcc makes of them
};

// The merges ptxas makes in straight-line code: from the lowest distance up, four adjacent
// 4-byte accesses (LDS.128/STS.128) where the first is 16-byte aligned in every lane of every
// group, else two (LDS.64) where 8-byte aligned, else one. Measured on the H200
// (tests/scan/sass/, tests/scan/corpus/): As[ty + 8i][k] over unrolled k and i loops became
// LDS.128 of four k trips; a[2t + i] over two trips LDS.64; a 64-trip loop unrolled whole
// sixteen LDS.128; the stencil's temp[lindex + offset], aligned in even lanes only, seven LDS.
Merged plan_merges(const std::vector<Access>& accesses, const StraightLine& code,
                   const std::vector<ArrayShape>& shapes, const std::vector<std::string>& names) {
  Merged out;
  const int width = accesses.front().width;
  const std::vector<std::int64_t>& d = code.distances;
  std::map<std::int64_t, int> run_bytes;  // each instruction's first distance: its bytes
  std::vector<bool> merged_loop(names.size(), false);
  for (std::size_t i = 0; i < d.size();) {
    int bytes = width;
    for (const int vector : {16, 8}) {
      const auto k = static_cast<std::size_t>(vector / width);
      if (i + k > d.size() || d[i + k - 1] != d[i] + vector - width) continue;
      if (std::string why = misaligned(code, accesses, shapes, d[i], vector); !why.empty()) {
        if (out.narrow.empty()) out.narrow = std::move(why);
        continue;
      }
      bytes = vector;
      const Access& a = accesses[code.groups.front()[i].second];
      const Access& b = accesses[code.groups.front()[i + k - 1].second];
      for (std::size_t loop = 0; loop < names.size(); ++loop)
        if (a.iteration[loop] != b.iteration[loop]) merged_loop[loop] = true;
      break;
    }
    run_bytes[d[i]] = bytes;
    out.width = std::max(out.width, bytes > width ? bytes : 0);
    i += static_cast<std::size_t>(bytes / width);
  }
  // Runs that do not cut into whole vectors (three adjacent trips): what ptxas makes of the
  // rest was not measured.
  for (const auto& [distance, bytes] : run_bytes) {
    if (out.width == 0 || bytes != width) continue;
    if (std::binary_search(d.begin(), d.end(), distance - width) ||
        std::binary_search(d.begin(), d.end(), distance + width)) {
      out.undecided =
          "the adjacent accesses do not cut into whole 8- or 16-byte vectors: "
          "what ptxas merges of them was not measured (--check-widths shows "
          "nvcc's PTX)";
    }
  }
  for (const auto& group : code.groups) {
    for (const auto& [distance, index] : group) {
      const auto run = run_bytes.find(distance);
      if (run == run_bytes.end()) continue;  // inside a merged run: issued by its first
      Access a = accesses[index];
      a.width = run->second;
      out.accesses.push_back(std::move(a));
    }
  }
  for (std::size_t loop = 0; loop < names.size(); ++loop)
    if (merged_loop[loop]) out.loops += (out.loops.empty() ? "" : ", ") + names[loop];
  return out;
}

// The loops around an access, outermost first, with what nvcc makes of each.
struct LoopNest {
  std::vector<Unrolling> unrolling;
  std::vector<std::string> names;
  std::vector<std::string> described;  // "k (64 trips, no #pragma unroll)"
};

// What nvcc makes of the instructions of one access: ptxas merges the 4-byte accesses of one
// thread in the code that the innermost loops, unrolled whole, make straight-line
// (plan_merges), any of those loops, not only the innermost; never through volatile. Where a
// loop just outside those is one BankLab cannot tell nvcc's unrolling of (#pragma unroll N, or
// more than 32 trips and no pragma) and its trips would merge if it were unrolled whole, or
// where 8-byte accesses are adjacent and aligned for 16 (not measured), the width is
// undecided: the caller lists the line as not evaluated.
Merged merge(const std::vector<Access>& accesses, const LoopNest& nest,
             const std::vector<ArrayShape>& shapes) {
  Merged as_written{accesses, 0, {}, {}, {}};
  const Access& first = accesses.front();
  if (is_matrix_op(first.op) || first.cp_async || first.loops.empty()) return as_written;
  for (const Access& a : accesses)
    if (a.is_volatile || a.width != first.width || a.loops != first.loops) return as_written;
  std::size_t depth = nest.unrolling.size();
  while (depth > 0 && nest.unrolling[depth - 1] == Unrolling::whole) --depth;
  std::size_t wider = depth;
  while (wider > 0 && (nest.unrolling[wider - 1] == Unrolling::partial ||
                       nest.unrolling[wider - 1] == Unrolling::unknown))
    --wider;
  // The merges in the straight-line code inside the first `from` loops or, where the same
  // addresses come again there (a loop unrolled around a barrier), inside a deeper one.
  const auto plan = [&](std::size_t from) -> std::optional<Merged> {
    for (std::size_t d = from; d < nest.unrolling.size(); ++d) {
      if (const std::optional<StraightLine> code = straight_line(accesses, d))
        return plan_merges(accesses, *code, shapes, nest.names);
    }
    return std::nullopt;
  };
  if (first.width == 8) {
    // ptxas's merges of 8-byte accesses were not measured: undecided where two could merge.
    if (const std::optional<Merged> two = plan(wider); two && two->width > 0) {
      as_written.undecided = "two adjacent 8-byte accesses of the unrolled loop (" + two->loops +
                             ") may be merged into one 16-byte access by nvcc, or not (not "
                             "measured): --check-widths shows nvcc's PTX";
    }
    return as_written;
  }
  if (first.width != 4) return as_written;  // measured: 2- and 1-byte trips stay as written
  Merged out = plan(depth).value_or(as_written);
  if (!out.undecided.empty()) {  // counted as written, the line listed
    as_written.undecided = out.undecided;
    return as_written;
  }
  if (wider < depth) {
    if (const std::optional<Merged> unrolled = plan(wider);
        unrolled && unrolled->accesses.size() < out.accesses.size()) {
      std::string loops;
      for (std::size_t l = wider; l < depth; ++l)
        loops += (loops.empty() ? "" : ", ") + nest.described[l];
      out.undecided = "nvcc may unroll the loop " + loops + " and merge its adjacent trips into " +
                      std::to_string(unrolled->width) +
                      "-byte accesses, or not: BankLab cannot "
                      "tell which (--check-widths shows nvcc's PTX)";
    }
  }
  return out;
}

// [SECTION] One kernel

struct Totals {
  std::int64_t instructions = 0, wavefronts = 0, ideal = 0;
};

Totals totals_of(const std::vector<Access>& accesses, Counter& counter) {
  Totals t;
  for (const Access& a : accesses) {
    const auto [w, i] = counter.count(a.op, a.width, a.lanes, a.offsets);
    t.instructions += a.times;
    t.wavefronts += w * a.times;
    t.ideal += i * a.times;
  }
  return t;
}

// "nvcc merges this 4-byte load of adjacent trips of the unrolled loop (k) into 16-byte loads
// (LDS.128): ... counted here; as written, ...".
std::string merge_note(const Access& first, const Merged& merged, const Totals& written,
                       const Totals& wide) {
  const bool load = is_load(first.op);
  return "nvcc merges this " + std::to_string(first.width) + "-byte " + (load ? "load" : "store") +
         " of adjacent trips of the unrolled loop" +
         (merged.loops.find(',') != std::string::npos ? "s (" : " (") + merged.loops + ") into " +
         std::to_string(merged.width) + "-byte " + (load ? "loads (LDS." : "stores (STS.") +
         std::to_string(merged.width * 8) + "): " + std::to_string(wide.wavefronts) +
         " wavefronts in " + std::to_string(wide.instructions) +
         " instructions, counted here; as written, " + std::to_string(written.wavefronts) +
         " wavefronts in " + std::to_string(written.instructions) + " instructions";
}

class KernelScanner {
 public:
  KernelScanner(const Program& p, const LineTable& lines, const ScanOptions& options, int kernel,
                WorkBudget& budget)
      : p_(p),
        lines_(lines),
        options_(options),
        index_(kernel),
        fn_(p.functions[static_cast<std::size_t>(kernel)]),
        budget_(budget) {}

  KernelScan scan();

 private:
  // A parameter's value: a number, or none (then the machine gives the reason).
  using Values = std::vector<std::optional<std::int64_t>>;
  void resolve_launch(KernelScan& k, MachineSetup& setup, Values& params, Values& templ);
  std::vector<Lanes> lanes_of(Machine& m, const std::vector<int>& vars, const Values& values,
                              bool constant) const;
  std::string loop_name(int stmt) const;
  std::size_t straight_depth(const std::vector<int>& loops, const Machine& m) const;
  void adjacent_sites(const std::map<SiteKey, std::vector<Access>>& sites, const Machine& m,
                      std::map<std::pair<int, std::string>, ScanProblem>& problems) const;
  int line_of_site(const Access& a) const {
    return a.asm_site ? lines_.line(p_.stmt(a.site).end) : lines_.line(p_.node(a.site).pos);
  }
  ScanLine summarize(const std::vector<Access>& accesses, const Machine& m, Counter& counter,
                     std::vector<std::string>* undecided);
  const LoopEffects& effects(int loop);
  std::string hoisted_from(const std::vector<Access>& accesses, const Machine& m);

  const Program& p_;
  const LineTable& lines_;
  const ScanOptions& options_;
  int index_;
  const Function& fn_;
  WorkBudget& budget_;  // the file's, shared by its kernels
  LoopInvariance invariance_{p_};
  std::map<int, LoopEffects> effects_;  // by loop statement, read once
};

const LoopEffects& KernelScanner::effects(int loop) {
  auto it = effects_.find(loop);
  if (it == effects_.end()) it = effects_.emplace(loop, loop_effects(p_, loop)).first;
  return it->second;
}

// The loop that nvcc may hoist a plain load out of, "" where none: a loop of two trips or more
// that has no barrier, no call and no store that may write the load's array, and in whose
// trips the load reads the same addresses (every warp, every trip of the other loops). nvcc
// then loads once before the loop, or on every trip; which is not decidable from the source
// (measured on the H200, flash_tile in tests/scan/corpus/shapes.cu: Qs[row][d] in the 64-trip
// j loop, eight LDS.128 a thread in all, where counted on every trip it is 64 times that).
std::string KernelScanner::hoisted_from(const std::vector<Access>& accesses, const Machine& m) {
  const Access& first = accesses.front();
  if (!is_load(first.op) || first.asm_site || first.cp_async || is_matrix_op(first.op)) return {};
  const std::string& array = m.shapes()[static_cast<std::size_t>(first.array)].array.name;
  for (const Access& a : accesses)
    if (a.is_volatile || a.loops != first.loops || a.array != first.array) return {};
  for (std::size_t position = 0; position < first.loops.size(); ++position) {
    const int loop = first.loops[position];
    const auto trips = m.loop_trips.find(loop);
    if (trips == m.loop_trips.end() || trips->second.trips < 2) continue;
    const LoopEffects& e = effects(loop);
    if (e.synchronizes || e.stores_anywhere ||
        std::find(e.stored_arrays.begin(), e.stored_arrays.end(), array) != e.stored_arrays.end())
      continue;
    // Each warp's and other loops' trips: the first access seen there, whether every other is
    // the same, and whether two trips of this loop were seen.
    std::map<std::vector<std::int32_t>, const Access*> seen;
    bool same = true, two_trips = false;
    for (const Access& a : accesses) {
      std::vector<std::int32_t> key = {a.warp};
      for (std::size_t l = 0; l < a.iteration.size(); ++l)
        if (l != position) key.push_back(a.iteration[l]);
      const auto [it, fresh] = seen.emplace(std::move(key), &a);
      if (fresh) continue;
      const Access& b = *it->second;
      two_trips = two_trips || b.iteration[position] != a.iteration[position];
      same = same && a.lanes == b.lanes && a.offsets == b.offsets;
    }
    // A loop the machine counted once (its trips all alike) holds its first trip only.
    if (same && (two_trips || invariance_.invariant(loop))) {
      return loop_name(loop) + " (" + std::to_string(trips->second.trips) + " trips)";
    }
  }
  return {};
}

std::string KernelScanner::loop_name(int stmt) const {
  const Stmt& s = p_.stmt(stmt);
  if (s.kind == StmtKind::for_ && !s.body.empty() && s.body[0] >= 0) {
    const Stmt& init = p_.stmt(s.body[0]);
    if (init.kind == StmtKind::decl && !init.vars.empty())
      return p_.vars[static_cast<std::size_t>(init.vars[0])].name;
    if (init.kind == StmtKind::expr && p_.node(init.a).kind == NodeKind::assign &&
        p_.node(p_.node(init.a).a).kind == NodeKind::name) {
      return p_.node(p_.node(init.a).a).text;
    }
  }
  return "line " + std::to_string(lines_.line(s.begin));
}

// How many of the loops around an access nvcc keeps as loops: those inside are unrolled whole.
std::size_t KernelScanner::straight_depth(const std::vector<int>& loops, const Machine& m) const {
  std::size_t depth = loops.size();
  while (depth > 0) {
    const auto t = m.loop_trips.find(loops[depth - 1]);
    if (t == m.loop_trips.end() ||
        unrolling_of(p_.stmt(loops[depth - 1]), t->second) != Unrolling::whole)
      break;
    --depth;
  }
  return depth;
}

// Two places in the code whose 4-byte accesses are adjacent in every lane and 8-byte aligned,
// in every warp and trip of the loops nvcc keeps (one instruction each, so the same distance
// every time): ptxas may merge them into one 8-byte access, on either line (measured on the
// H200, tests/scan/sass/: a[2t] and a[2t + 1] stored on two lines became one STS.64 on the
// second's line, read on two lines one LDS.64 on the first's). BankLab does not model which:
// both lines are listed as not evaluated.
void KernelScanner::adjacent_sites(
    const std::map<SiteKey, std::vector<Access>>& sites, const Machine& m,
    std::map<std::pair<int, std::string>, ScanProblem>& problems) const {
  // The places of each array, op and loop nest: only those may merge.
  std::map<std::tuple<int, Op, std::vector<int>>, std::vector<const std::vector<Access>*>> nests;
  for (const auto& [key, accesses] : sites) {
    const Access& a = accesses.front();
    if (a.asm_site || a.cp_async || is_matrix_op(a.op) || a.width != 4) continue;
    if (std::any_of(accesses.begin(), accesses.end(),
                    [](const Access& x) { return x.is_volatile || x.width != 4; }))
      continue;
    nests[{a.array, a.op, a.loops}].push_back(&accesses);
  }
  constexpr std::size_t kMaxPlaces = 64;  // pairs of places compared in one nest
  for (const auto& [nest, places] : nests) {
    if (places.size() < 2 || places.size() > kMaxPlaces) continue;
    const std::size_t depth = straight_depth(std::get<2>(nest), m);
    // Each place's instances by warp and trips; each pair of places by instruction (the trips
    // of the unrolled loops), adjacent in every instance or not.
    using Key = std::vector<std::int32_t>;
    std::vector<std::map<Key, const Access*>> by_key(places.size());
    for (std::size_t i = 0; i < places.size(); ++i) {
      for (const Access& a : *places[i]) {
        Key key = {a.warp};
        key.insert(key.end(), a.iteration.begin(), a.iteration.end());
        by_key[i][key] = &a;
      }
    }
    for (std::size_t i = 0; i < places.size(); ++i) {
      for (std::size_t j = i + 1; j < places.size(); ++j) {
        std::map<Key, bool> instruction_adjacent;  // the unrolled trips -> in every instance
        for (const auto& [key, a] : by_key[i]) {
          const auto other = by_key[j].find(key);
          const Key inner(key.begin() + 1 + static_cast<std::ptrdiff_t>(depth), key.end());
          bool adjacent = other != by_key[j].end() && other->second->lanes == a->lanes;
          std::optional<std::int64_t> distance;
          for (int l = 0; l < kWarpSize && adjacent; ++l) {
            if ((a->lanes >> l & 1u) == 0) continue;
            const auto li = static_cast<std::size_t>(l);
            const std::int64_t d = other->second->offsets[li] - a->offsets[li];
            const std::int64_t low = m.shapes()[static_cast<std::size_t>(a->array)].base +
                                     std::min(a->offsets[li], other->second->offsets[li]);
            adjacent = (d == 4 || d == -4) && (!distance || *distance == d) && low % 8 == 0;
            distance = d;
          }
          const auto [it, fresh] = instruction_adjacent.emplace(inner, adjacent);
          if (!fresh) it->second = it->second && adjacent;
        }
        if (std::none_of(instruction_adjacent.begin(), instruction_adjacent.end(),
                         [](const auto& e) { return e.second; }))
          continue;
        const Access& a = places[i]->front();
        const Access& b = places[j]->front();
        const int line_a = line_of_site(a), line_b = line_of_site(b);
        const std::string what = is_load(a.op) ? "loads" : "stores";
        const auto flag = [&](int line, int other_line) {
          const std::string why =
              "this 4-byte " + std::string(is_load(a.op) ? "load" : "store") + " and " +
              (other_line == line ? "another on this line"
                                  : "line " + std::to_string(other_line) + "'s") +
              " are adjacent and 8-byte aligned in every lane: ptxas may merge the two " + what +
              " into one 8-byte access on either line, or not";
          problems.emplace(std::pair{line, why}, ScanProblem{line, why, false});
        };
        flag(line_a, line_b);
        if (line_b != line_a) flag(line_b, line_a);
      }
    }
  }
}

// The block, grid and dynamic shared memory, and the values of the parameters and template
// parameters, from the options, the kernel's first launch with constants, __launch_bounds__.
void KernelScanner::resolve_launch(KernelScan& k, MachineSetup& setup, Values& params,
                                   Values& templ) {
  const Launch* launch = nullptr;
  int launches = 0;
  for (const Launch& l : p_.launches) {
    if (l.kernel != fn_.name) continue;
    ++launches;
    if (launch == nullptr) launch = &l;
  }
  MachineSetup host_setup;
  host_setup.lets = options_.lets;
  host_setup.budget = &budget_;
  HostValues host(p_, launch != nullptr ? launch->host : -1, host_setup);
  const std::string at_launch =
      launch != nullptr ? "the launch on line " + std::to_string(lines_.line(launch->pos)) : "";
  if (launches > 1)
    k.notes.push_back(std::to_string(launches) + " launches in the file: " + at_launch +
                      " is used");
  // Template parameters: --let, the launch's template arguments, their defaults.
  for (std::size_t i = 0; i < fn_.template_params.size(); ++i) {
    const Variable& v = p_.vars[static_cast<std::size_t>(fn_.template_params[i])];
    const int arg = launch != nullptr && i < launch->templ.size() ? launch->templ[i] : -1;
    if (v.type.name.starts_with("typename")) {
      TypeRef t;
      if (arg >= 0 && p_.node(arg).text == "type")
        t = p_.node(arg).type;
      else if (const std::size_t eq = v.type.name.find('='); eq != std::string::npos) {
        if (const TypeRef* known = find_type(v.type.name.substr(eq + 1))) t = *known;
      }
      if (t.known()) setup.types.emplace_back(v.name, t);
      templ.push_back(std::nullopt);
      continue;
    }
    std::optional<std::int64_t> value;
    for (const auto& [name, x] : options_.lets)
      if (name == v.name) value = x;
    if (!value && arg >= 0) value = host.integer(arg);
    if (!value && v.default_value >= 0) value = host.integer(v.default_value);
    templ.push_back(value);
  }
  // The block.
  if (options_.block) {
    k.block = *options_.block;
    k.block_from = "--block";
  } else if (const auto b = launch != nullptr && launch->config.size() > 1
                                ? host.dim3(launch->config[1])
                                : std::nullopt) {
    if (const Expected<void> fine = check_block(*b, at_launch + "'s block"); !fine) {
      k.error = fine.error();
      return;
    }
    k.block = sides_of(*b);
    k.block_from = at_launch;
  } else if (fn_.launch_bounds >= 0) {
    HostValues bounds(p_, -1, host_setup);
    if (const std::optional<std::int64_t> n = bounds.integer(fn_.launch_bounds);
        n && *n >= 1 && *n <= 1024) {
      k.block = {static_cast<int>(*n), 1, 1};
      k.block_from = "__launch_bounds__ on line " +
                     std::to_string(lines_.line(p_.node(fn_.launch_bounds).pos));
    }
  }
  if (k.block_from.empty()) {
    k.error = "no block size: give --block X[,Y[,Z]] (the file has no launch of " + fn_.name +
              " with a constant block, and no __launch_bounds__)";
    return;
  }
  // The grid and the dynamic shared memory.
  if (options_.grid) {
    k.grid = options_.grid;
    k.grid_from = "--grid";
  } else if (launch != nullptr && !launch->config.empty()) {
    if (const auto g = host.dim3(launch->config[0])) {
      if (const Expected<void> fine = check_grid(*g, at_launch + "'s grid"); !fine) {
        k.error = fine.error();
        return;
      }
      k.grid = sides_of(*g);
      k.grid_from = at_launch;
    }
  }
  setup.grid = k.grid;
  if (options_.dynamic_smem) {
    setup.extern_bytes = *options_.dynamic_smem;
  } else if (launch != nullptr && launch->config.size() > 2) {
    if (const auto bytes = host.integer(launch->config[2]);
        bytes && *bytes >= 1 && *bytes <= kMaxSharedPerBlockBytes)
      setup.extern_bytes = *bytes;
  }
  // The parameters: --let, else the launch's argument when it is a constant.
  for (std::size_t i = 0; i < fn_.params.size(); ++i) {
    const Variable& v = p_.vars[static_cast<std::size_t>(fn_.params[i])];
    std::optional<std::int64_t> value;
    for (const auto& [name, x] : options_.lets)
      if (name == v.name) value = x;
    const int arg = launch != nullptr && i < launch->args.size() ? launch->args[i] : -1;
    if (!value && v.type.integer && !v.type.pointer) value = host.integer(arg);
    params.push_back(value);
  }
}

// The machine's values of parameters: numbers of their types, or why there is none.
std::vector<Lanes> KernelScanner::lanes_of(Machine& m, const std::vector<int>& vars,
                                           const Values& values, bool constant) const {
  std::vector<Lanes> out;
  for (std::size_t i = 0; i < vars.size() && i < values.size(); ++i) {
    const Variable& v = p_.vars[static_cast<std::size_t>(vars[i])];
    if (values[i] && v.type.integer && !v.type.pointer) {
      Lanes lanes;
      lanes.kind = Lanes::Kind::integer;
      lanes.type = *v.type.integer;
      lanes.constant = constant;
      lanes.v.fill(convert({*values[i], kLongLong}, lanes.type).bits);
      out.push_back(lanes);
      continue;
    }
    const std::string what =
        v.type.pointer ? v.name + " points to global memory: what it holds is not known"
        : v.template_param
            ? v.name + " is a template parameter: " + hint_for(options_.let_hint, v.name)
            : v.name + " is a kernel parameter: " + hint_for(options_.let_hint, v.name);
    out.push_back(Machine::unknown(m.reason(v.pos, what, false)));
  }
  return out;
}

ScanLine KernelScanner::summarize(const std::vector<Access>& accesses, const Machine& m,
                                  Counter& counter, std::vector<std::string>* undecided) {
  const Access& first = accesses.front();
  const ArrayShape& shape = m.shapes()[static_cast<std::size_t>(first.array)];
  ScanLine s;
  s.line = line_of_site(first);
  s.statement_first = s.statement_last = s.line;
  if (first.stmt >= 0 && !first.asm_site) {
    const Stmt& statement = p_.stmt(first.stmt);
    s.statement_first = std::min(s.line, lines_.line(statement.begin));
    s.statement_last = std::max(s.line, lines_.line(statement.end));
  }
  s.array = shape.array.name;
  s.shape = shape.array;
  s.op = first.op;
  s.width = first.width;
  s.cp_async = first.cp_async;
  for (int loop : first.loops) s.loops.push_back(loop_name(loop));
  LoopNest nest;
  for (int loop : first.loops) {
    const auto trips = m.loop_trips.find(loop);
    const LoopTrips t = trips != m.loop_trips.end() ? trips->second : LoopTrips{false, 0};
    const Stmt& statement = p_.stmt(loop);
    Unrolling unrolling = unrolling_of(statement, t);
    // With no pragma, whether nvcc unrolls whole and ptxas merges is decided by their size
    // heuristics. Measured on the H200: loops that only load (an SGEMM k loop, 2- and 4-trip
    // sums) merged; flash_tile's 32-trip copy loop, three global loads and three shared stores
    // a trip, was unrolled by 8 into 32 plain STS. A loop that stores is not decided.
    if (unrolling == Unrolling::whole && statement.unroll < 0 &&
        (!is_load(first.op) || effects(loop).stores))
      unrolling = Unrolling::unknown;
    nest.unrolling.push_back(unrolling);
    nest.names.push_back(loop_name(loop));
    nest.described.push_back(nest.names.back() + " (" + std::to_string(t.trips) + " trips, " +
                             (statement.unroll > 1
                                  ? "#pragma unroll " + std::to_string(statement.unroll)
                                  : std::string("no #pragma unroll")) +
                             ")");
  }
  const Merged merged = merge(accesses, nest, m.shapes());
  const std::vector<Access>& counted = merged.accesses;
  s.unmerged = merged.narrow;
  if (!merged.undecided.empty()) undecided->push_back(merged.undecided);
  if (merged.width > 0) {
    s.width = merged.width;
    s.notes.push_back(merge_note(first, merged, totals_of(accesses, counter),
                                 totals_of(merged.accesses, counter)));
  }
  std::map<int, std::int64_t> frequency;
  bool have_worst = false;
  for (const Access& a : counted) {
    const auto [w, ideal] = counter.count(a.op, a.width, a.lanes, a.offsets);
    s.instructions += a.times;
    s.wavefronts += w * a.times;
    s.ideal_wavefronts += ideal * a.times;
    frequency[w] += a.times;
    if (!have_worst || w > s.worst_wavefronts) {
      have_worst = true;
      s.worst_wavefronts = w;
      s.worst_ideal = ideal;
      s.worst_warp = a.warp;
      s.worst_iteration = a.iteration;
    }
    if (options_.keep_instances) {
      s.instances.push_back({a.warp, a.iteration, a.lanes, a.offsets, w, ideal, a.times});
    }
  }
  s.excess_wavefronts = s.wavefronts - s.ideal_wavefronts;
  s.worst_ways = s.worst_ideal > 0 ? (s.worst_wavefronts + s.worst_ideal - 1) / s.worst_ideal : 0;
  s.typical_wavefronts =
      std::max_element(frequency.begin(), frequency.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      })->first;
  if (first.cp_async)
    s.notes.push_back("cp.async: its shared-memory side, a " + std::to_string(first.width) +
                      "-byte store (LDGSTS)");
  for (int loop : first.loops) {
    if (const auto t = m.truncated.find(loop); t != m.truncated.end()) {
      s.notes.push_back("the loop " + loop_name(loop) + " ran past " +
                        std::to_string(Machine::kMaxTrips) + " iterations: the first " +
                        std::to_string(Machine::kMaxTrips) + " counted");
    }
  }
  return s;
}

KernelScan KernelScanner::scan() {
  KernelScan k;
  k.kernel = fn_.name;
  k.line = lines_.line(fn_.pos);
  if (budget_.steps <= 0) {
    k.error =
        "not scanned: the kernels before it in the file spent the scan's work budget; "
        "scan it alone with --kernel " +
        fn_.name;
    return k;
  }
  MachineSetup setup;
  setup.lets = options_.lets;
  budget_.records = WorkBudget::kRecords;
  setup.budget = &budget_;
  setup.let_hint = options_.let_hint;
  Values param_values, templ_values;
  resolve_launch(k, setup, param_values, templ_values);
  if (k.error) return k;
  setup.block = k.block;
  Machine m(p_, setup);
  const std::vector<Lanes> params = lanes_of(m, fn_.params, param_values, false);
  const std::vector<Lanes> templ = lanes_of(m, fn_.template_params, templ_values, true);
  std::map<SiteKey, std::vector<Access>> sites;
  std::map<std::pair<int, std::string>, ScanProblem> problems;
  const auto [bx, by, bz] = k.block;
  const int warps = (bx * by * bz + kWarpSize - 1) / kWarpSize;
  for (int w = 0; w < warps && !m.out_of_steps; ++w) {
    m.start_warp(w);
    m.run(index_, params, templ);
    for (Access& a : m.accesses) sites[{a.site, a.asm_site, a.op}].push_back(std::move(a));
    m.accesses.clear();
    for (const Unevaluated& u : m.unevaluated) {
      const int line = u.statement  ? lines_.line(p_.stmt(u.site).begin)
                       : u.asm_site ? lines_.line(p_.stmt(u.site).end)
                                    : lines_.line(u.pos);
      problems.emplace(std::pair{line, u.reason}, ScanProblem{line, u.reason, u.error});
    }
    m.unevaluated.clear();
  }
  for (const auto& [node, function] : m.calls) {
    const std::pair<int, std::string> call{lines_.line(p_.node(node).pos),
                                           p_.functions[static_cast<std::size_t>(function)].name};
    if (std::find(k.inlined_calls.begin(), k.inlined_calls.end(), call) == k.inlined_calls.end())
      k.inlined_calls.push_back(call);
  }
  std::sort(k.inlined_calls.begin(), k.inlined_calls.end());
  if (m.out_of_steps) {
    k.notes.push_back("the run stopped at the scan's work budget (" +
                      std::to_string(options_.max_steps) + " statements a file, " +
                      std::to_string(WorkBudget::kRecords) +
                      " warp-instructions a kernel): what ran before is counted");
  }
  adjacent_sites(sites, m, problems);
  Counter counter;
  // Widths BankLab cannot decide: the line is listed, its entry says why.
  std::set<std::pair<int, std::string>> undecided_widths;
  for (const auto& [key, accesses] : sites) {
    if (const std::string loop = hoisted_from(accesses, m); !loop.empty()) {
      const int line = line_of_site(accesses.front());
      const std::string why =
          "nvcc may hoist this load out of loop " + loop +
          ": it reads the same addresses on every trip, and the loop has no barrier and no "
          "store that may write them; whether it loads once or on every trip is not decided";
      problems.emplace(std::pair{line, why}, ScanProblem{line, why, false});
      continue;
    }
    std::vector<std::string> undecided;
    k.lines.push_back(summarize(accesses, m, counter, &undecided));
    for (const std::string& why : undecided) {
      const int line = k.lines.back().line;
      k.lines.back().notes.push_back("the width is not decided: " + why);
      undecided_widths.emplace(line, why);
      problems.emplace(std::pair{line, why}, ScanProblem{line, why, false});
    }
  }
  std::stable_sort(k.lines.begin(), k.lines.end(), [](const ScanLine& a, const ScanLine& b) {
    if (a.excess_wavefronts != b.excess_wavefronts)
      return a.excess_wavefronts > b.excess_wavefronts;
    return a.line < b.line;
  });
  for (auto& [key, problem] : problems) {
    // An access counted in some instructions and not in others says so in its entry too.
    for (ScanLine& l : k.lines) {
      if (l.line == problem.line && !undecided_widths.contains(key))
        l.notes.push_back("some instructions could not be evaluated: " + problem.reason);
    }
    k.unevaluated.push_back(std::move(problem));
  }
  return k;
}

// [SECTION] --let: names the file leaves open

// The names a --let may give in this file: the kernels' parameters and template parameters,
// and the names the code uses without defining them (blockIdx.x, a bound nobody #defined).
std::vector<std::string> open_names(const Program& p) {
  std::vector<std::string> names;
  const auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const Function& f : p.functions) {
    if (!f.kernel) continue;
    for (const std::vector<int>* vars : {&f.params, &f.template_params})
      for (int v : *vars) add(p.vars[static_cast<std::size_t>(v)].name);
  }
  for (const Node& n : p.nodes)
    if (n.kind == NodeKind::name && n.var < 0 && n.array < 0 && !is_builtin_name(n.text))
      add(n.text);
  return names;
}

// A --let the scan would not use is refused, not ignored: a name the file #defines or declares
// itself (its value is the file's), a name it never uses (a typo), a launch's value CUDA does
// not make (gridDim.x=0).
void check_scan_lets(const Program& p,
                     const std::vector<std::pair<std::string, std::int64_t>>& lets) {
  const std::vector<std::string> open = open_names(p);
  for (const auto& [name, value] : lets) {
    const std::string let = "--let " + name + ": ";
    if (std::find(p.macros.begin(), p.macros.end(), name) != p.macros.end())
      fail(kNowhere, let + "the file #defines " + name + " itself; change the #define instead");
    if (std::find(open.begin(), open.end(), name) == open.end()) {
      if (find_by(p.vars, &Variable::name, name) != p.vars.end())
        fail(kNowhere, let + "the file gives " + name + " its value itself; change it there");
      std::string list;
      for (const std::string& n : open) list += (list.empty() ? "" : ", ") + n;
      fail(kNowhere, let + "the file uses no name " + name +
                         (list.empty() ? " (it leaves no name open)"
                                       : " (the names it leaves open: " + list + ")"));
    }
    for (const auto& [prefix, low] : {std::pair{"gridDim.", 1}, {"blockIdx.", 0}}) {
      const int axis =
          name.starts_with(prefix) && name.size() == std::string_view(prefix).size() + 1
              ? static_cast<int>(std::string_view("xyz").find(name.back()))
              : -1;
      if (axis < 0) continue;
      const std::int64_t most = kMaxGridSides[static_cast<std::size_t>(axis)] - (1 - low);
      if (value < low || value > most) {
        fail(kNowhere, let + name + " is " + std::to_string(low) + " to " + std::to_string(most) +
                           " in a launch CUDA makes, not " + std::to_string(value));
      }
    }
  }
}

}  // namespace

// [SECTION] The public functions

std::int64_t KernelScan::blocks() const {
  return grid ? std::int64_t{(*grid)[0]} * (*grid)[1] * (*grid)[2] : 1;
}

ScanResult scan_source(const CodeSource& source, const ScanOptions& options) {
  ScanResult r;
  const CodeSource sources[] = {source};
  try {
    const auto wide = [](const std::array<int, 3>& d) {
      return std::array<std::int64_t, 3>{d[0], d[1], d[2]};
    };
    if (options.block) {
      if (const Expected<void> fine = check_block(wide(*options.block), "the block"); !fine)
        fail(kNowhere, fine.error());
    }
    if (options.grid) {
      if (const Expected<void> fine = check_grid(wide(*options.grid), "the grid"); !fine)
        fail(kNowhere, fine.error());
    }
    for (const auto& let : options.lets) {
      const std::string& name = let.first;  // not a binding: clang before 16 cannot capture one
      if (!valid_let_name(name)) fail(kNowhere, "--let " + name + ": a name is a C++ identifier");
      if (is_builtin_name(name))
        fail(kNowhere,
             "--let " + name + ": " + name +
                 " is built in (the block and the thread give it), not a value to choose");
      if (std::count_if(options.lets.begin(), options.lets.end(),
                        [&](const auto& other) { return other.first == name; }) > 1)
        fail(kNowhere, "--let " + name + ": given twice; give each name one value");
    }
    const Program p = parse_source(source.text);
    check_scan_lets(p, options.lets);
    const LineTable lines(source.text);
    std::vector<std::string> names;
    WorkBudget budget;
    budget.steps = options.max_steps;
    budget.stop = options.stop;
    for (std::size_t f = 0; f < p.functions.size(); ++f) {
      const Function& fn = p.functions[f];
      if (!fn.kernel || fn.body < 0) continue;
      names.push_back(fn.name);
      if (options.kernel && *options.kernel != fn.name) continue;
      r.kernels.push_back(KernelScanner(p, lines, options, static_cast<int>(f), budget).scan());
    }
    if (names.empty()) fail(kNowhere, source.label + " has no __global__ kernel with a body");
    if (options.stop != nullptr && options.stop->load()) fail(kNowhere, "the scan was stopped");
    if (r.kernels.empty()) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      fail(kNowhere, "--kernel " + *options.kernel + ": no such kernel in " + source.label +
                         " (its kernels: " + list + ")");
    }
  } catch (const Failure& f) {
    r.kernels.clear();
    CodeError e{.source = f.pos.source < 0 ? -1 : 0, .message = f.message};
    if (f.pos.source >= 0) {
      const LineTable lines(source.text);
      e.line = lines.line(f.pos);
      const std::size_t start =
          source.text.rfind('\n', static_cast<std::size_t>(std::max(0, f.pos.offset - 1)));
      e.column =
          f.pos.offset -
          (start == std::string::npos || f.pos.offset == 0 ? 0 : static_cast<int>(start) + 1);
    } else {
      e.line = 0;
    }
    r.error = std::move(e);
  }
  return r;
}

void append_json(std::string& out, const KernelScan& k) {
  JsonWriter w(out);
  w.begin_object().field("kernel", k.kernel).field("line", k.line);
  if (k.error) {
    w.field("error", *k.error).end_object();
    return;
  }
  w.key("block").begin_array();
  for (int b : k.block) w.value(b);
  w.end_array().field("block_from", k.block_from);
  if (k.grid) {
    w.key("grid").begin_array();
    for (int g : *k.grid) w.value(g);
    w.end_array();
  }
  w.key("lines").begin_array();
  for (const ScanLine& l : k.lines) {
    w.begin_object().field("line", l.line).field("array", l.array);
    w.field("op", op_name(l.op)).field("width", l.width);
    w.field("instructions", l.instructions).field("wavefronts", l.wavefronts);
    w.field("ideal_wavefronts", l.ideal_wavefronts).field("excess_wavefronts", l.excess_wavefronts);
    w.field("worst_wavefronts", l.worst_wavefronts)
        .field("typical_wavefronts", l.typical_wavefronts);
    w.field("worst_ways", l.worst_ways);
    w.key("worst").begin_object().field("warp", l.worst_warp).key("iteration").begin_array();
    for (std::int32_t i : l.worst_iteration) w.value(i);
    w.end_array().key("loops").begin_array();
    for (const std::string& name : l.loops) w.value(name);
    w.end_array().end_object();
    w.key("notes").begin_array();
    for (const std::string& n : l.notes) w.value(n);
    w.end_array().end_object();
  }
  w.end_array().key("unevaluated").begin_array();
  for (const ScanProblem& u : k.unevaluated) {
    w.begin_object()
        .field("line", u.line)
        .field("reason", u.reason)
        .field("error", u.error)
        .end_object();
  }
  w.end_array().key("notes").begin_array();
  for (const std::string& n : k.notes) w.value(n);
  w.end_array().end_object();
}

std::string describe_place(const ScanLine& line, int warp,
                           std::span<const std::int32_t> iteration) {
  std::string out = "warp " + std::to_string(warp);
  for (std::size_t i = 0; i < iteration.size(); ++i) {
    out += ", trip " + std::to_string(iteration[i]) + " of " +
           (i < line.loops.size() ? line.loops[i] : std::string("a loop"));
  }
  return out;
}

Scenario scenario_of(const ScanLine& line, const ScanInstance& instance) {
  Scenario s;
  s.pattern = AccessPattern::raw;
  s.tile = tile_of(line.shape);
  s.op = line.op;
  s.width = line.width;
  s.lane_mask = instance.lanes;
  s.raw_offsets = instance.offsets;
  return s;
}

}  // namespace banklab
