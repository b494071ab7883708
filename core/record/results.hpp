#pragma once
// What a GPU run found, as the runners return it and a recording holds it: the transpose suite's
// rows against the copy roof, the shared-memory microbenchmark's patterns, and the microbenchmark
// checked against the hardware's counters. Plain data and the rules that judge it without a GPU
// (the pipe's limit, the conflict-free baseline, the cross-check's agreement), so that a recording
// replayed anywhere is judged as a live run is. The runners themselves are the GPU library's
// (kernels/gpu_bench.hpp, kernels/gpu_measure.hpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/access.hpp"
#include "core/model/dtype.hpp"
#include "core/record/device.hpp"

namespace banklab::record {

// ---------------------------------------------------------------------------------------------
// How a run ended.

enum class RunStatus : std::uint8_t {
  ok,           // every requested measurement ran (each one still carries its own verified flag)
  unavailable,  // no GPU / no driver / not built: see device.availability and device.detail
  bad_input,    // the options break a rule; error says which and with what numbers
  cancelled,    // the cancel flag was raised; results holds what finished before it
  cuda_error,   // a CUDA call failed; error names the call and gives CUDA's text
};
std::string_view status_name(RunStatus status);  // "ok", "unavailable", ...

// ---------------------------------------------------------------------------------------------
// The transpose suite.

enum class VariantRole : std::uint8_t {
  roof,      // the copy kernel: the HBM limit every transpose is measured against
  teaching,  // the lesson's tile[32][32+P] / XOR / 16-byte-vector kernels, line for line
  fast,      // the production kernel for the dtype: 16-byte accesses, swizzled tile
  library,   // cuBLAS's geam (fp32, fp64): what a user would call instead, loaded at run time
};
std::string_view role_name(VariantRole role);  // "roof", "teaching", "fast", "library"

struct TransposeOptions {
  DType dtype = DType::fp32;
  int rows = 16384;  // the input matrix is rows x cols, row-major; need not be tile multiples
  int cols = 16384;
  int pad = -1;          // pad of the "padded" teaching variant in elements; -1 = default_pad()
  int repetitions = 20;  // timed launches per variant; the median is reported
  int warmup = 3;        // untimed launches first, lasting at least 20 ms in all (0: none)
  // Variant names to run (transpose_variants() spelling); empty = every variant of the dtype.
  // The copy roof always runs, since every fraction is measured against it. A library row
  // named here is refused where its library cannot be loaded; left to the default, it is left
  // out with a note.
  std::vector<std::string> variants;
};

struct VariantResult {
  std::string name;
  std::string lesson;
  VariantRole role = VariantRole::teaching;
  std::string tile;              // the shared tile as declared: "float tile[32][33]"
  std::string preset;            // VariantInfo::preset: the access the kernel makes ("" if none)
  bool uses_pad = false;         // VariantInfo::uses_pad
  std::int64_t bytes_moved = 0;  // bytes read + bytes written
  double ms = 0;                 // median of the timed launches
  double ms_min = 0, ms_max = 0;
  double gbps = 0;              // bytes_moved / ms, in 1e9 bytes per second
  double fraction_of_copy = 0;  // gbps / the same run's copy gbps
  bool verified = false;        // output equal to the CPU reference, bit for bit
  std::string detail;           // why not verified: the first wrong element and the count
};

struct SuiteReport {
  RunStatus status = RunStatus::unavailable;
  std::string error;
  DeviceInfo device;
  // The SM clock measured during the run (clock64() cycles of a spinning kernel over its event
  // time), in MHz; 0 when it could not be read.
  double sm_clock_mhz = 0;
  TransposeOptions options;            // as run, pad resolved
  std::vector<VariantResult> results;  // the copy roof first
  // What was left out and why, one sentence each ("fp64-cublas left out: cuBLAS could not be
  // loaded (libcublas.so.13 not found)").
  std::vector<std::string> notes;

  bool ok() const { return status == RunStatus::ok; }
};

// ---------------------------------------------------------------------------------------------
// The shared-memory microbenchmark.
// One WarpAccess, replayed by every warp of a full GPU in an unrolled loop with the addresses held
// in registers, so the loop is bound by the shared-memory pipe (one wavefront per clock per SM)
// and its time is proportional to the wavefronts.

// The shared-memory pipe serves at most one wavefront per clock per SM (128 bytes, see
// core's kWavefrontBytes). A measured figure above this, with room for clock64()'s jitter, is a
// wrong accounting, not a result: the benchmark flags it instead of reporting it.
inline constexpr double kMaxWavefrontsPerClock = 1.02;

struct PatternResult {
  WarpAccess access;
  int predicted_wavefronts = 0;  // banklab::analyze()
  int baseline_wavefronts = 0;   // the conflict-free baseline's (its ideal)
  int warps_per_sm = 0;          // resident warps replaying the access
  double cycles_per_access = 0;  // SM clocks per warp instruction per SM (median launch)
  double baseline_cycles_per_access = 0;
  double ns_per_access = 0;         // cycles_per_access at the measured clock
  double wavefronts_per_clock = 0;  // predicted_wavefronts / cycles_per_access (ideal 1)
  double measured_ratio = 0;        // cycles_per_access / baseline_cycles_per_access
  double predicted_ratio = 0;       // predicted_wavefronts / baseline_wavefronts
  // Loaded sums / stored bytes equal the CPU's expectation, and the figure is within the pipe's
  // limit (kMaxWavefrontsPerClock); a row that is not verified is no result.
  bool verified = false;
  std::string detail;
};

struct PatternReport {
  RunStatus status = RunStatus::unavailable;
  std::string error;
  DeviceInfo device;
  double sm_clock_mhz = 0;  // clock64() cycles over event time, read in the same launches
  std::vector<PatternResult> results;  // one per access, in order

  bool ok() const { return status == RunStatus::ok; }
};

// The conflict-free access the pattern is compared with: same op, width and active lanes, lane L
// at byte L * width (rows of 16 contiguous bytes for ldmatrix/stmatrix).
WarpAccess conflict_free_baseline(const WarpAccess& access);

// ---------------------------------------------------------------------------------------------
// The cross-check against the hardware's counters.
// For each access and its baseline, one more launch of the replay kernel exactly as timed runs
// under CUPTI's range profiler (kernels/gpu_measure.hpp, cross_check_patterns), which reads the
// instructions of the measured class, the shared-memory wavefronts and sm__cycles_active.avg (the
// clocks in which each SM held warps: the benchmark's span, first warp's start to last warp's stop
// on each SM, and the fill before it and the read-back after it; sm__cycles_elapsed also counts
// the launch before an SM's first block). The benchmark's instruction count must be the
// hardware's, its clocks per instruction within 0.5 % of the hardware's, and the hardware's own
// wavefronts per clock within the pipe's limit. This is the check that found ldmatrix counted 4x
// and, at 0.5 %, confirms the clock span of issue 22's fix (docs/gpu-results.md).
//
// The instruction counts must match; 0.5 % leaves room only for the fill and read-back loops'
// code shape.
inline constexpr double kCrossCheckInstructionTolerance = 0.005;
// The fill and the read-back, which the hardware counts and the span leaves out, are at most
// 0.13 % of an SM's active clocks at gpu-bench's launch length (2 ms) and 0.4 % at 0.5 ms (the
// H200, 2026-12-01): cross-check launches of 2 ms, as gpu-bench's and the tests' are.
inline constexpr double kCrossCheckCycleTolerance = 0.005;

struct PatternCrossCheck {
  WarpAccess access;
  std::int64_t counted_instructions = 0;     // the benchmark's, with the fill or read-back
  std::int64_t hardware_instructions = 0;    // smsp__inst_executed_op_{shared_ld,ldsm,...}.sum
  double counted_cycles_per_access = 0;      // the benchmark's clock64() figure
  double hardware_cycles_per_access = 0;     // sm__cycles_active.avg / instructions per SM
  std::int64_t hardware_wavefronts = 0;      // l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*
  double hardware_wavefronts_per_clock = 0;  // per active clock per SM
  bool agrees = false;
  std::string detail;  // which rule failed, with the numbers
};

// Done when a cross-check agrees, otherwise which of the rules above it breaks, with the numbers:
// the one agreement rule of a live run (kernels/measure/pattern_cross_check.cpp) and of a
// replayed recording (recording_check.hpp), which recomputes it from the counts it holds rather
// than trusting its `agrees`. Its caller sets `agrees` and `detail` from it.
Expected<void> check_agreement(const PatternCrossCheck& c);

}  // namespace banklab::record
