#pragma once
// A trace: every shared-memory instruction one kernel launch of a real program executed, as
// `banklab trace` recorded it on a GPU (kernels/trace: Compute Sanitizer's patching API), with
// each warp-instruction's 32 lanes counted by the model, the SASS instruction and CUDA line it
// came from, the hardware's own per-line counts where they could be measured, and the source
// files its lines are in, so that a trace opens anywhere: `banklab trace --open FILE`, the app's
// Kernel window (File > Open trace...). The file is JSON written and read through one list of
// fields per structure (record_fields.hpp), and what is read is checked before anything in it is
// shown (check_trace): every count is recomputed by the model and must be what the file says.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/access.hpp"

namespace banklab::record {

// A place in the source: a file (as the machine that built the program named it) and a line.
struct TraceLocation {
  std::string file;
  int line = 0;
};

// One SASS instruction of the traced function that touched shared memory.
struct TraceInstruction {
  std::int64_t offset = 0;  // bytes from the function's start
  std::string sass;         // "LDS.128 R8, [R2+0x40]", as nvdisasm prints it
  // Where it came from, innermost first: an inlined function's line, then the line that called
  // it, and so on. Empty when the program was built without -lineinfo.
  std::vector<TraceLocation> where;
  // The places the line table gives its address, where Nsight Compute's Source page counts it:
  // the first instructions of an inlined call at the call and the body's line, the rest at the
  // body's line alone (cubin_lines.hpp).
  std::vector<TraceLocation> counted_at;
  std::string opcode() const;  // "LDS.128"
  bool atomic() const;         // ATOMS, ATOM, RED: counted as the store they make
};

// One warp-wide execution of an instruction: what the memory pipe saw.
struct TraceAccess {
  int instruction = 0;        // into Trace::instructions
  std::int64_t block = 0;     // blockIdx, linearised (x fastest)
  int warp = 0;               // within the block
  std::int64_t instance = 0;  // this warp's n-th execution of the instruction, from 0
  WarpAccess access;          // the lanes' shared-window offsets (-1: the lane did not run it)
  int wavefronts = 0;         // the model's count (model/analysis.hpp)
  int ideal = 0;
};

// Nsight Compute's count for one line of the same launch (its Source page).
struct TraceMeasuredLine {
  std::string file;
  int line = 0;
  std::int64_t instructions = 0;  // SASS instructions executed on the line (all kinds)
  std::int64_t wavefronts = 0;    // L1 Wavefronts Shared
  std::int64_t ideal = 0;         // ... Ideal
  std::int64_t excessive = 0;     // ... Excessive
};

// A source file the trace's lines are in, as it was when the trace was made.
struct TraceSource {
  std::string path;
  std::string text;
};

struct Trace {
  std::string created_utc;  // "2026-12-03T14:05:00Z"
  std::string commit;       // BankLab's commit that made it
  std::string driver;       // the NVIDIA driver ("580.159.04")
  std::string device;       // "NVIDIA H200"
  int cc_major = 0, cc_minor = 0;
  std::string program;      // the command traced, its arguments separated by spaces
  std::string kernel;       // demangled: "histogram256(const unsigned char*, int, unsigned int*)"
  std::string function;     // as the module names it: "_Z12histogram256PKhiPj"
  std::int64_t launch = 0;  // which launch of the kernel, from 0
  std::array<int, 3> grid = {1, 1, 1};
  std::array<int, 3> block = {1, 1, 1};
  std::int64_t executed = 0;  // warp-instructions the launch executed on shared memory
  std::int64_t cap = 0;       // at most this many were kept (accesses.size() <= cap)
  bool line_info = false;     // the program was built with -lineinfo
  double traced_ms = 0;       // the traced launch, host time from launch to its end
  double untraced_ms = 0;     // the same kernel's other launches (median), 0 if none timed
  std::vector<TraceInstruction> instructions;
  std::vector<TraceAccess> accesses;
  std::vector<TraceSource> sources;
  std::string measured_by;   // "Nsight Compute 2025.3.1 (Source page)", empty when not measured
  std::string not_measured;  // why not, when measured_by is empty
  std::vector<TraceMeasuredLine> measured;
  std::vector<std::string> notes;

  bool truncated() const { return executed > static_cast<std::int64_t>(accesses.size()); }
  int warps_per_block() const;
};

// The largest trace read (a shipped one is under 2 MB): a larger file is refused unread.
inline constexpr std::uintmax_t kMaxTraceBytes = 64u << 20;
// The most warp-instructions a trace keeps unless told otherwise (`--max-records`).
inline constexpr std::int64_t kDefaultTraceCap = 1 << 20;

// The model's count of one traced access: sets wavefronts and ideal.
void count_access(TraceAccess& a);

// The trace as JSON text (one object, a newline at the end).
std::string trace_json(const Trace& t);
// Reads what trace_json() wrote. A file that is not JSON, not a BankLab trace, of another
// version, with a field missing or of the wrong type, or whose counts are not what the model
// gives for its lanes, gives one sentence naming the first problem, never a crash.
Expected<Trace> parse_trace(std::string_view json);

// nvdisasm's listing of a cubin, for one function (its mangled name): each instruction's offset
// and text. An error when the function is not in the listing. (Its lines come from the cubin's
// line table, cubin_lines.hpp: nvdisasm's line comments name one place per change of the
// innermost line, which merges consecutive calls of one inlined function.)
struct SassLine {
  std::int64_t offset = 0;
  std::string text;
};
Expected<std::vector<SassLine>> parse_sass_listing(std::string_view listing,
                                                   std::string_view function);

}  // namespace banklab::record
