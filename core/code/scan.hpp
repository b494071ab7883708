#pragma once
// Your whole kernel: every shared-memory access of each kernel of a .cu file, run for every
// warp of the block and every iteration of its loops on the warp machine (machine.hpp), each
// warp-instruction's wavefronts counted by the model (model/analysis.hpp), summed per access
// and sorted by the wavefronts the conflicts add. What it cannot evaluate (an index loaded from
// memory, a kernel parameter without a value, an atomic) is listed with its line and reason,
// never dropped and never guessed.
//
//   the block   --block, else a launch kernel<<<grid, block>>> in the file whose block is a
//               constant, else __launch_bounds__(N); the grid and the dynamic shared memory from
//               that launch, the kernel's parameters from its arguments where they are constants
//               and from --let (which wins)
//   an access   one per place in the code and op: a[i] += a[i + s] is two loads and a store;
//               totals are over the whole block, so the entries of one line summed are what
//               Nsight Compute's Source page shows for that line with -lineinfo (times the
//               blocks of the grid); a warp whose lanes all skip it issues nothing
//   merging     nvcc -O3 (ptxas) turns adjacent 4-byte accesses of one thread in the code that
//               unrolled loops make straight-line into one 8- or 16-byte access where every
//               address is aligned for it, across the innermost loop or an outer one (an SGEMM
//               tile's As[ty + 8i][k] merges four trips of the outer k loop into LDS.128;
//               a[2t + i] over two trips is one LDS.64; never through volatile, never 2- or
//               1-byte elements): the entry then counts the merged instructions and its notes
//               give both counts. What nvcc may or may not merge (a partly unrolled loop, two
//               adjacent places in the code) is listed as not evaluated; --check-widths compares
//               each line's widths with nvcc's PTX (ptx_widths.hpp)
//   bounds      a loop stops after Machine::kMaxTrips iterations each time it is entered; the
//               kernels of a file share one WorkBudget of statements, each kernel has one of
//               warp-instructions: the kernel that spends it says so (what ran is counted), the
//               ones after it are not run
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/code/kernel_code.hpp"
#include "core/model/scenario.hpp"

namespace banklab {

// The largest source file the front ends scan: far past any kernel, and bounded memory.
inline constexpr std::size_t kMaxScanSourceBytes = 8 << 20;

struct ScanOptions {
  std::optional<std::string> kernel;         // one kernel by name; else every kernel
  std::optional<std::array<int, 3>> block;   // over the launch's
  std::optional<std::array<int, 3>> grid;    // over the launch's (gridDim, scaling)
  std::optional<std::int64_t> dynamic_smem;  // bytes, over the launch's
  std::vector<std::pair<std::string, std::int64_t>> lets;
  std::string let_hint = "give it a value with --let NAME=VALUE";  // how a front end gives one
  bool keep_instances = false;         // every warp-instruction's lanes, for the app to draw one
  std::int64_t max_steps = 4'000'000;  // statements the machines of the file run, all together
  // Set from another thread to stop the scan at its next statement (the app's Cancel): the
  // result is then an error, "the scan was stopped", and what was counted is not returned.
  const std::atomic<bool>* stop = nullptr;
};

// One warp-instruction of an access.
struct ScanInstance {
  int warp = 0;
  std::vector<std::int32_t> iteration;  // of each loop around the access, outermost first
  std::uint32_t lanes = 0;
  std::array<std::int64_t, kWarpSize> offsets{};  // bytes from the array's start; -1 idle
  int wavefronts = 0;
  int ideal = 0;
  // The times the warp issued it: a loop whose trips issue the same accesses is run once, its
  // first trip standing for all (iteration 0 there).
  std::int64_t times = 1;
};

// One access: a place in the code and an op.
struct ScanLine {
  int line = 0;  // 1-based, in the file
  // The lines of the statement it is part of (line itself for one of one line): where Nsight
  // Compute may count it when the statement spans lines.
  int statement_first = 0, statement_last = 0;
  std::string array;  // the shared array
  SharedArray shape;  // its element type and bounds
  Op op = Op::ld;
  int width = 4;          // bytes a lane moves
  bool cp_async = false;  // the shared side of a cp.async (LDGSTS): a store
  std::int64_t instructions = 0;
  std::int64_t wavefronts = 0;
  std::int64_t ideal_wavefronts = 0;
  std::int64_t excess_wavefronts = 0;
  int worst_wavefronts = 0;  // of one instruction
  int worst_ideal = 0;
  int worst_ways = 0;          // the worst instruction's wavefronts per ideal one, rounded up
  int typical_wavefronts = 0;  // the most common count of one instruction
  int worst_warp = 0;
  std::vector<std::int32_t> worst_iteration;
  std::vector<std::string> loops;  // the loops around it: their variables (or "line N")
  std::vector<std::string> notes;
  // Adjacent trips that nvcc keeps as written, and why ("lane 1 of warp 0 is at byte 4, not
  // 8-byte aligned"): what --check-widths says of a PTX whose accesses there are adjacent.
  std::string unmerged;
  std::vector<ScanInstance> instances;  // ScanOptions::keep_instances
};

struct ScanProblem {
  int line = 0;
  std::string reason;
  bool error = false;  // an error in the code (an index outside the array), not an unknown
};

struct KernelScan {
  std::string kernel;
  int line = 0;
  std::array<int, 3> block = {0, 0, 0};
  std::string block_from;  // "--block", "the launch on line 57", "__launch_bounds__ on line 12"
  std::optional<std::array<int, 3>> grid;
  std::string grid_from;
  std::optional<std::string> error;  // why it was not scanned (no block size)
  std::vector<ScanLine> lines;       // sorted by excess wavefronts, most first
  std::vector<ScanProblem> unevaluated;
  std::vector<std::string> notes;  // about the whole run (its bounds)
  // Lines that call a __device__ function of the file (inlined: Nsight Compute shows some of
  // its instructions at the call as well), and the function.
  std::vector<std::pair<int, std::string>> inlined_calls;
  std::int64_t blocks() const;  // in the grid, when known; else 1
};

struct ScanResult {
  std::vector<KernelScan> kernels;
  std::optional<CodeError> error;  // the file could not be read, or a bad option
};

ScanResult scan_source(const CodeSource& source, const ScanOptions& options);

// {"kernel", "block": [x, y, z], "block_from", "grid", "lines": [{"line", "op", "width",
// "instructions", "wavefronts", "ideal_wavefronts", "excess_wavefronts", "worst_ways",
// "worst": {"warp", "iteration"}, "notes", ...}], "unevaluated": [{"line", "reason"}]}
void append_json(std::string& out, const KernelScan& k);

// "warp 3, trip 2 of j, trip 5 of k": where one warp-instruction of an access ran (a trip counts
// from 0, outermost loop first).
std::string describe_place(const ScanLine& line, int warp, std::span<const std::int32_t> iteration);

// The warp-instruction as a raw Scenario, the array as its tile: what the views draw.
Scenario scenario_of(const ScanLine& line, const ScanInstance& instance);

}  // namespace banklab
