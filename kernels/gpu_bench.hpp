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
//
// What the runners return (SuiteReport, PatternReport and their rows, the run's status) is plain
// data a recording holds too, so it lives in core (core/record/results.hpp); this header holds
// the runners, their options beyond what is recorded, and the kernels' table.
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
#include "core/record/results.hpp"
#include "kernels/gpu_device.hpp"

namespace banklab::gpu {

// ---------------------------------------------------------------------------------------------
// The transpose variants, one table (kVariants in kernels/transpose/transpose_suite.cu): what the
// GUI lists and the CLI runs.

struct VariantInfo {
  std::string_view name;  // "fp32-padded": what --variant and the GUI use
  DType dtype = DType::fp32;
  record::VariantRole role = record::VariantRole::teaching;
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
// the smallest that makes the column read conflict-free (DTypeInfo::conflict_free_pad).
int default_pad(DType dtype);

// ---------------------------------------------------------------------------------------------
// Progress, shared by both runners (their outcome: RunStatus, core/record/results.hpp).

struct Progress {
  int step = 0;      // steps finished so far
  int steps = 0;     // steps in the whole run
  std::string what;  // the variant or pattern being run now
};
using ProgressFn = std::function<void(const Progress&)>;

// ---------------------------------------------------------------------------------------------
// The transpose suite (its options and results: core/record/results.hpp).

// Rules for the options, as sentences with the numbers; done when the options are valid.
Expected<void> check_options(const record::TransposeOptions& options);

record::SuiteReport run_transpose_suite(const record::TransposeOptions& options,
                                        const ProgressFn& progress = {},
                                        const std::atomic<bool>* cancel = nullptr);

// ---------------------------------------------------------------------------------------------
// The shared-memory microbenchmark: one WarpAccess, replayed by every warp of a full GPU in an
// unrolled loop with the addresses held in registers, so the loop is bound by the shared-memory
// pipe (one wavefront per clock per SM) and its time is proportional to the wavefronts. Its
// results, the pipe's limit and the conflict-free baseline: core/record/results.hpp.

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
// profiler; done, or the error that stops the run.
using ReplayObserver = std::function<Expected<void>(const ReplayAccounting&,
                                                    const std::function<Expected<void>()>& launch)>;

struct PatternOptions {
  int repetitions = 7;     // timed launches per pattern; the median is reported
  double target_ms = 2.0;  // each launch is sized to run about this long if the shared-memory
                           // pipe serves one wavefront per clock (at the rated clock)
  int max_blocks = 0;      // 0: every SM full of warps (the benchmark); tests give a few so
                           // that the sanitizers finish quickly
  ReplayObserver observe;  // if set, called once per run after its timed launches
};

// The lesson's sweep: a column read of float tile[32][S] for S = 33, 34, 36, 40, 48, 32, i.e.
// k = 1, 2, 4, 8, 16, 32 wavefronts.
std::vector<WarpAccess> conflict_sweep();

// Each access must pass banklab::check_access() (else bad_input with its first error).
record::PatternReport run_pattern_benchmark(std::span<const WarpAccess> accesses,
                                            const PatternOptions& options = {},
                                            const ProgressFn& progress = {},
                                            const std::atomic<bool>* cancel = nullptr);

}  // namespace banklab::gpu
