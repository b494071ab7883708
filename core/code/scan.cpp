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
#include <unordered_map>

#include "core/base/find.hpp"
#include "core/base/json_writer.hpp"
#include "core/code/kernel_params.hpp"
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

// nvcc -O3 (ptxas) turns the scalar accesses of one thread in consecutive iterations of an
// unrolled loop into one wider access when each thread's addresses follow one another and the
// first is aligned for the wider one: four LDS of As[ty][k..k+3] become one LDS.128, two of
// a[2 * t + i] one LDS.64 (measured on the H200, tests/scan/corpus/widths.cu). The accesses are
// grouped by warp and by the iterations of the loops around that loop; each group's trips are
// cut into runs of k = bytes / width, and every run must advance every lane by `width` and
// start aligned, in every group, for the merge to be made (the code is one, whatever the warp).
// A loop with fewer trips than k, or a count that is no multiple of it, is tried with the
// narrower vector; an access through a volatile pointer is never merged (each stays its own
// instruction). Returns the merged accesses, or nothing.
std::optional<std::vector<Access>> merge(const std::vector<Access>& accesses,
                                         const std::unordered_map<int, bool>& unrolled,
                                         const std::vector<ArrayShape>& shapes, int* merged_bytes) {
  const Access& first = accesses.front();
  if (is_matrix_op(first.op) || first.cp_async || first.width >= 8 || first.loops.empty())
    return std::nullopt;
  for (const Access& a : accesses)
    if (a.is_volatile || a.width != first.width) return std::nullopt;
  const int loop = first.loops.back();
  if (const auto u = unrolled.find(loop); u == unrolled.end() || !u->second) return std::nullopt;
  for (const Access& a : accesses)
    if (a.loops != first.loops) return std::nullopt;
  // Groups: same warp, same outer iterations; ordered by the unrolled loop's iteration.
  std::map<std::vector<std::int32_t>, std::vector<const Access*>> groups;
  for (const Access& a : accesses) {
    std::vector<std::int32_t> key = {a.warp};
    key.insert(key.end(), a.iteration.begin(), a.iteration.end() - 1);
    groups[key].push_back(&a);
  }
  for (const int bytes : {16, 8}) {
    const int k = bytes / first.width;
    if (k < 2) continue;
    bool ok = std::all_of(groups.begin(), groups.end(), [&](const auto& group) {
      return group.second.size() % static_cast<std::size_t>(k) == 0;  // whole runs, one at least
    });
    std::vector<Access> out;
    for (auto& [key, list] : groups) {
      std::sort(list.begin(), list.end(), [](const Access* a, const Access* b) {
        return a->iteration.back() < b->iteration.back();
      });
      for (std::size_t i = 0; i < list.size() && ok; ++i) {
        if (list[i]->iteration.back() != static_cast<std::int32_t>(i)) ok = false;
      }
      for (std::size_t c = 0; c < list.size() && ok; c += static_cast<std::size_t>(k)) {
        const Access& head = *list[c];
        const std::int64_t base = shapes[static_cast<std::size_t>(head.array)].base;
        for (int l = 0; l < kWarpSize && ok; ++l) {
          if ((head.lanes >> l & 1u) == 0) continue;
          const auto li = static_cast<std::size_t>(l);
          if ((base + head.offsets[li]) % bytes != 0) ok = false;
          for (int j = 1; j < k && ok; ++j) {
            const Access& next = *list[c + static_cast<std::size_t>(j)];
            if (next.lanes != head.lanes || next.array != head.array ||
                next.offsets[li] != head.offsets[li] + j * first.width) {
              ok = false;
            }
          }
        }
        Access wide = head;
        wide.width = bytes;
        out.push_back(std::move(wide));
      }
    }
    if (ok) {
      *merged_bytes = bytes;
      return out;
    }
  }
  return std::nullopt;
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
  int line_of_site(const Access& a) const {
    return a.asm_site ? lines_.line(p_.stmt(a.site).end) : lines_.line(p_.node(a.site).pos);
  }
  ScanLine summarize(const std::vector<Access>& accesses, const Machine& m, Counter& counter);

  const Program& p_;
  const LineTable& lines_;
  const ScanOptions& options_;
  int index_;
  const Function& fn_;
  WorkBudget& budget_;  // the file's, shared by its kernels
};

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
                                  Counter& counter) {
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
  int merged_bytes = 0;
  const std::optional<std::vector<Access>> merged =
      merge(accesses, m.unrolled, m.shapes(), &merged_bytes);
  const std::vector<Access>& counted = merged ? *merged : accesses;
  if (merged) {
    const Totals written = totals_of(accesses, counter);
    const Totals wide = totals_of(*merged, counter);
    s.width = merged_bytes;
    s.notes.push_back("nvcc merges this " + std::to_string(first.width) + "-byte " +
                      (is_load(first.op) ? "load" : "store") + " of " +
                      std::to_string(merged_bytes / first.width) +
                      " consecutive iterations of the unrolled loop (" + s.loops.back() +
                      ") into " + std::to_string(merged_bytes) + "-byte " +
                      (is_load(first.op) ? "loads (LDS." : "stores (STS.") +
                      std::to_string(merged_bytes * 8) + "): " + std::to_string(wide.wavefronts) +
                      " wavefronts in " + std::to_string(wide.instructions) +
                      " instructions, counted here; as written, " +
                      std::to_string(written.wavefronts) + " wavefronts in " +
                      std::to_string(written.instructions) + " instructions");
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
  Counter counter;
  for (const auto& [key, accesses] : sites) k.lines.push_back(summarize(accesses, m, counter));
  std::stable_sort(k.lines.begin(), k.lines.end(), [](const ScanLine& a, const ScanLine& b) {
    if (a.excess_wavefronts != b.excess_wavefronts)
      return a.excess_wavefronts > b.excess_wavefronts;
    return a.line < b.line;
  });
  for (auto& [key, problem] : problems) {
    // An access counted in some instructions and not in others says so in its entry too.
    for (ScanLine& l : k.lines) {
      if (l.line == problem.line)
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
void check_lets(const Program& p, const std::vector<std::pair<std::string, std::int64_t>>& lets) {
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
    check_lets(p, options.lets);
    const LineTable lines(source.text);
    std::vector<std::string> names;
    WorkBudget budget;
    budget.steps = options.max_steps;
    for (std::size_t f = 0; f < p.functions.size(); ++f) {
      const Function& fn = p.functions[f];
      if (!fn.kernel || fn.body < 0) continue;
      names.push_back(fn.name);
      if (options.kernel && *options.kernel != fn.name) continue;
      r.kernels.push_back(KernelScanner(p, lines, options, static_cast<int>(f), budget).scan());
    }
    if (names.empty()) fail(kNowhere, source.label + " has no __global__ kernel with a body");
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
  s.pattern = AccessPattern::custom;
  s.tile = tile_of(line.shape);
  s.op = line.op;
  s.width = line.width;
  s.lane_mask = instance.lanes;
  s.custom_offsets = instance.offsets;
  return s;
}

}  // namespace banklab
