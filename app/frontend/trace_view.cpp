#include "app/frontend/trace_view.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/base/find.hpp"
#include "core/base/format.hpp"
#include "core/model/analysis.hpp"

namespace banklab::frontend {
namespace {

bool is_toolkit_header(const std::string& path) {
  return path.find("/cuda") != std::string::npos &&
         (path.ends_with(".h") || path.ends_with(".hpp") || path.ends_with(".cuh"));
}

// The kernel's file: the outermost place of most instructions (a kernel is never inlined).
std::string kernel_file(const record::Trace& t) {
  std::map<std::string, std::int64_t> votes;
  for (const record::TraceAccess& a : t.accesses) {
    const auto& where = t.instructions[static_cast<std::size_t>(a.instruction)].where;
    if (!where.empty() && !is_toolkit_header(where.back().file)) ++votes[where.back().file];
  }
  std::string best;
  std::int64_t most = 0;
  for (const auto& [file, n] : votes) {
    if (n > most) {
      best = file;
      most = n;
    }
  }
  return best;
}

// Which lines of the kernel's file an instruction's runs are added to.
enum class Attribution {
  own,       // its innermost place in the file, one line (0 when it has none): the trace's view
  measured,  // every place the line table gives its address, as Nsight Compute counts it
};

std::vector<int> lines_of(const record::TraceInstruction& in, const std::string& file,
                          Attribution how) {
  if (file.empty()) return {0};
  if (how == Attribution::own) {
    const auto own = std::find_if(in.where.begin(), in.where.end(),
                                  [&](const record::TraceLocation& l) { return l.file == file; });
    return {own == in.where.end() ? 0 : own->line};
  }
  std::vector<int> lines;
  for (const record::TraceLocation& l : in.counted_at)
    if (l.file == file && std::find(lines.begin(), lines.end(), l.line) == lines.end())
      lines.push_back(l.line);
  return lines;
}

using LineKey = std::tuple<int, Op, int, std::string, std::int64_t>;  // line, op, width, opcode, pc

void add_instance(ScanLine& l, const record::Trace& t, const record::TraceAccess& a) {
  ScanInstance s;
  s.warp = static_cast<int>(a.block * t.warps_per_block() + a.warp);
  s.iteration = {static_cast<std::int32_t>(std::min<std::int64_t>(a.instance, INT32_MAX))};
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (a.access.active(lane)) s.lanes |= 1u << lane;
  s.offsets = a.access.offsets;
  s.wavefronts = a.wavefronts;
  s.ideal = a.ideal;
  ++l.instructions;
  l.wavefronts += a.wavefronts;
  l.ideal_wavefronts += a.ideal;
  const int excess = a.wavefronts - a.ideal, worst_excess = l.worst_wavefronts - l.worst_ideal;
  if (l.instances.empty() || excess > worst_excess ||
      (excess == worst_excess && a.wavefronts > l.worst_wavefronts)) {
    l.worst_wavefronts = a.wavefronts;
    l.worst_ideal = a.ideal;
    l.worst_warp = s.warp;
    l.worst_iteration = s.iteration;
  }
  l.instances.push_back(std::move(s));
}

// A trace knows bytes, not arrays: its lines' shape is the shared window as float rows of 32
// (one 128-byte row a bank cycle), as far as the line's lanes reach, so views draw it as a tile.
SharedArray window_up_to(const ScanLine& l) {
  std::int64_t end = 1;
  for (const ScanInstance& s : l.instances)
    for (const std::int64_t o : s.offsets) end = std::max(end, o + l.width);
  return SharedArray{"shared window", "float", 4, 4, {(end + 127) / 128, 32}, false};
}

void finish_line(ScanLine& l, const std::map<int, std::int64_t>& counts) {
  l.shape = window_up_to(l);
  l.excess_wavefronts = l.wavefronts - l.ideal_wavefronts;
  l.worst_ways = l.worst_ideal > 0 ? (l.worst_wavefronts + l.worst_ideal - 1) / l.worst_ideal : 0;
  std::int64_t most = 0;
  for (const auto& [wavefronts, n] : counts) {
    if (n > most) {
      most = n;
      l.typical_wavefronts = wavefronts;
    }
  }
}

// The offsets of a line's copies of one instruction: each one, in the order first run, where
// they are few; else how many and their span (an unrolled loop leaves hundreds on one line, and
// a note is read as a sentence).
std::string where_in_function(const std::vector<std::int64_t>& offsets) {
  constexpr std::size_t kListed = 8;
  const auto pc = [](std::int64_t offset) {
    return format("+0x%04llx", static_cast<unsigned long long>(offset));
  };
  if (offsets.size() > kListed) {
    // Iterator forms: the browser edition's libc++ has no std::ranges algorithms.
    const auto [low, high] = std::minmax_element(offsets.begin(), offsets.end());
    return format("%zu offsets from %s to %s", offsets.size(), pc(*low).c_str(), pc(*high).c_str());
  }
  std::string at;
  for (const std::int64_t offset : offsets) at += (at.empty() ? "" : ", ") + pc(offset);
  return at;
}

KernelScan scan_of(const record::Trace& t, const std::string& file, Attribution how) {
  KernelScan k;
  k.kernel = t.kernel;
  k.block = t.block;
  k.block_from = "the traced launch";
  std::map<LineKey, ScanLine> lines;
  std::map<LineKey, std::map<int, std::int64_t>> counts;  // wavefronts -> instructions
  std::map<LineKey, std::vector<std::int64_t>> pcs;       // each instruction's offset, once
  for (const record::TraceAccess& a : t.accesses) {
    const record::TraceInstruction& in = t.instructions[static_cast<std::size_t>(a.instruction)];
    for (const int line : lines_of(in, file, how)) {
      // Without a line, each instruction is its own entry; with one, a line's copies are one.
      const LineKey key{line, a.access.op, a.access.width, in.opcode(), line == 0 ? in.offset : 0};
      ScanLine& l = lines[key];
      if (l.instances.empty()) {
        l.line = line;
        l.array = in.opcode();
        l.op = a.access.op;
        l.width = a.access.width;
        l.cp_async = in.opcode().starts_with("LDGSTS");
        l.loops = {"its runs"};
        if (in.atomic()) l.notes.push_back("an atomic: counted as the store it makes");
      }
      std::vector<std::int64_t>& seen = pcs[key];
      if (std::find(seen.begin(), seen.end(), in.offset) == seen.end()) seen.push_back(in.offset);
      add_instance(l, t, a);
      ++counts[key][a.wavefronts];
    }
  }
  for (auto& [key, l] : lines) {
    finish_line(l, counts[key]);
    if (l.line > 0 && (k.line == 0 || l.line < k.line)) k.line = l.line;
    l.notes.insert(l.notes.begin(),
                   l.array + " at " + where_in_function(pcs[key]) + " in " + t.function);
    k.lines.push_back(std::move(l));
  }
  std::stable_sort(k.lines.begin(), k.lines.end(), [](const ScanLine& a, const ScanLine& b) {
    return std::tie(b.excess_wavefronts, a.line) < std::tie(a.excess_wavefronts, b.line);
  });
  if (!t.line_info) {
    k.notes.push_back(
        "the program was built without -lineinfo: each entry is one SASS instruction, at line 0 "
        "(nvcc -lineinfo maps them to CUDA lines)");
  }
  if (t.truncated()) {
    k.notes.push_back(
        format("the launch executed %lld shared-memory warp-instructions; the first "
               "%zu were kept (--max-records): the counts are of those",
               static_cast<long long>(t.executed), t.accesses.size()));
  }
  for (const std::string& n : t.notes) k.notes.push_back(n);
  return k;
}

// A compared line whose count, as Nsight Compute attributes it, holds instructions the trace's
// own view places on another line (an inlined function's first instructions, counted at the call
// as well as in the body) says so, with the line's own count.
void explain_inlined_calls(KernelComparison& c, const KernelScan& own) {
  for (LineComparison& x : c.lines) {
    if (!x.evaluated || !x.explanation.empty()) continue;
    std::int64_t wavefronts = 0;
    for (const ScanLine& l : own.lines)
      if (l.line == x.line) wavefronts += l.wavefronts * c.blocks;
    if (wavefronts == x.predicted_wavefronts) continue;
    x.explanation = format(
        "counted with the first instructions of the function this line calls, inlined, as "
        "Nsight Compute counts them; %lld wavefronts are the line's own",
        static_cast<long long>(wavefronts));
  }
}

}  // namespace

std::vector<record::TraceMeasuredLine> measured_lines(const MeasuredKernel& kernel) {
  std::vector<record::TraceMeasuredLine> out;
  for (const MeasuredFile& f : kernel.files) {
    for (const MeasuredLine& m : f.lines) {
      if (m.line < 1) continue;
      out.push_back({f.path, m.line, m.instructions, m.wavefronts, m.ideal, m.excessive});
    }
  }
  return out;
}

MeasuredKernel measured_kernel(const record::Trace& t) {
  MeasuredKernel k;
  k.function = t.kernel;
  for (const record::TraceMeasuredLine& m : t.measured) {
    auto f = find_by(k.files, &MeasuredFile::path, m.file);
    if (f == k.files.end()) f = k.files.insert(k.files.end(), MeasuredFile{m.file, {}});
    MeasuredLine line;
    line.line = m.line;
    line.instructions = m.instructions;
    line.wavefronts = m.wavefronts;
    line.ideal = m.ideal;
    line.excessive = m.excessive;
    f->lines.push_back(std::move(line));
  }
  return k;
}

TraceView view_of(const record::Trace& t) {
  TraceView v;
  v.file = kernel_file(t);
  for (const record::TraceSource& s : t.sources)
    if (s.path == v.file) v.source = s.text;
  v.scan = scan_of(t, v.file, Attribution::own);
  if (t.measured_by.empty()) {
    v.not_measured = t.not_measured;
  } else if (!v.file.empty()) {
    // Compared as Nsight Compute counts: an inlined call's first instructions on both lines.
    Expected<KernelComparison> c =
        compare(scan_of(t, v.file, Attribution::measured), measured_kernel(t),
                v.file.substr(v.file.rfind('/') + 1), v.source);
    if (c) {
      explain_inlined_calls(*c, v.scan);
      v.measured = std::move(*c);
    } else {
      v.not_measured = c.error();
    }
  } else {
    v.not_measured = "the measurement is per CUDA line, and the trace has no lines";
  }
  return v;
}

std::string describe_trace_place(const record::Trace& t, int launch_warp, std::int64_t run) {
  const int per_block = t.warps_per_block();
  return format("block %d, warp %d, run %lld", launch_warp / per_block, launch_warp % per_block,
                static_cast<long long>(run));
}

}  // namespace banklab::frontend
