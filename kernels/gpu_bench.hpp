#pragma once
// Running the lesson on a real GPU: the transpose suite and the shared-memory microbenchmark.
// A plain C++ header (no CUDA types), safe to call from a worker thread: progress comes back
// through a callback, a cancel flag stops the run between launches, and every failure comes
// back as a value (status + the CUDA call and its error text), never as exit() or a throw.
//
// Two numbers first, for every transpose: the bytes moved (rows x cols x element size, read
// once and written once) and the roof, a device-to-device copy of the same bytes (one 16-byte
// chunk per thread, the fastest copy measured) timed in the same run. Each variant reports
// achieved / roof.
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/access.hpp"
#include "core/model/dtype.hpp"
#include "kernels/gpu_device.hpp"

namespace banklab::gpu {

// ---------------------------------------------------------------------------------------------
// The transpose variants, one table (kVariants in kernels/transpose/transpose_suite.cu): what the
// GUI lists and the CLI runs.

enum class VariantRole : std::uint8_t {
  roof,      // the copy kernel: the HBM limit every transpose is measured against
  teaching,  // the lesson's tile[32][32+P] / XOR / 16-byte-vector kernels, line for line
  fast,      // the production kernel for the dtype: 16-byte accesses, swizzled tile
  library,   // cuBLAS's geam (fp32, fp64): what a user would call instead, loaded at run time
};
std::string_view role_name(VariantRole role);  // "roof", "teaching", "fast", "library"

struct VariantInfo {
  std::string_view name;  // "fp32-padded": what --variant and the GUI use
  DType dtype = DType::fp32;
  VariantRole role = VariantRole::teaching;
  std::string_view lesson;  // one line: what the variant shows
  // The core preset (banklab::presets()) whose shared-memory access this kernel performs,
  // so the GUI can show the bank view beside the timing; "" when the kernel has no preset.
  std::string_view preset;
  bool uses_pad = false;  // the shared tile is padded by TransposeOptions::pad
};

// All variants of one dtype, in the order they run (the copy roof first, the library last).
// Needs no GPU, but the table holds the kernels, so a build without CUDA has none and returns
// an empty list.
std::vector<VariantInfo> transpose_variants(DType dtype);

// The pad (elements per row) the "padded" variant uses when the user has not chosen one:
// the smallest that makes the column read conflict-free (1 for fp32/fp64, 2 for bf16, 4 for fp8).
int default_pad(DType dtype);

// ---------------------------------------------------------------------------------------------
// Progress and outcome, shared by both runners.

struct Progress {
  int step = 0;      // steps finished so far
  int steps = 0;     // steps in the whole run
  std::string what;  // the variant or pattern being run now
};
using ProgressFn = std::function<void(const Progress&)>;

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

// Rules for the options, as sentences with the numbers; done when the options are valid.
Expected<void> check_options(const TransposeOptions& options);

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

SuiteReport run_transpose_suite(const TransposeOptions& options, const ProgressFn& progress = {},
                                const std::atomic<bool>* cancel = nullptr);

// ---------------------------------------------------------------------------------------------
// The shared-memory microbenchmark: one WarpAccess, replayed by every warp of a full GPU in an
// unrolled loop with the addresses held in registers, so the loop is bound by the shared-memory
// pipe (one wavefront per clock per SM) and its time is proportional to the wavefronts.

// What the benchmark believes one launch of a run did: every figure it reports rests on it.
// The cross-check (gpu_measure.hpp, cross_check_patterns) holds it against the hardware's
// counters for the same launch.
struct ReplayAccounting {
  WarpAccess access;
  int blocks = 0;        // blocks launched
  int warps_per_sm = 0;  // resident warps replaying the access
  // Warp instructions of the measured op in one launch: blocks x warps x loop trips x 16.
  std::int64_t instructions = 0;
  // Other instructions the hardware counts in the same class in that launch: the fill's stores
  // (st kernels) or block 0's read-back loads (ld kernels); 0 for ldmatrix and stmatrix.
  std::int64_t same_class_extra = 0;
  double cycles_per_access = 0;  // the benchmark's figure for this run (median launch)
};

// Runs `launch` (one more launch of the run, exactly as timed) however it likes, e.g. under a
// profiler; returns an error sentence, or "" when all went well.
using ReplayObserver =
    std::function<std::string(const ReplayAccounting&, const std::function<std::string()>& launch)>;

// The shared-memory pipe serves at most one wavefront per clock per SM (128 bytes, see
// core's kWavefrontBytes). A measured figure above this, with room for clock64()'s jitter, is a
// wrong accounting, not a result: the benchmark flags it instead of reporting it.
inline constexpr double kMaxWavefrontsPerClock = 1.02;

struct PatternOptions {
  int repetitions = 7;     // timed launches per pattern; the median is reported
  double target_ms = 2.0;  // each launch is sized to run about this long if the shared-memory
                           // pipe serves one wavefront per clock (at the rated clock)
  int max_blocks = 0;      // 0: every SM full of warps (the benchmark); tests give a few so
                           // that the sanitizers finish quickly
  ReplayObserver observe;  // if set, called once per run after its timed launches
};

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

// The lesson's sweep: a column read of float tile[32][S] for S = 33, 34, 36, 40, 48, 32, i.e.
// k = 1, 2, 4, 8, 16, 32 wavefronts.
std::vector<WarpAccess> conflict_sweep();

// Each access must pass banklab::check_access() (else bad_input with its first error).
PatternReport run_pattern_benchmark(std::span<const WarpAccess> accesses,
                                    const PatternOptions& options = {},
                                    const ProgressFn& progress = {},
                                    const std::atomic<bool>* cancel = nullptr);

}  // namespace banklab::gpu
