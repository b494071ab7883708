#pragma once
// Measured, not only predicted: run one warp-wide shared-memory instruction on the GPU and read
// how many wavefronts and bank conflicts the hardware counted for it.
//
// Each access becomes one launch of a one-warp kernel whose only instruction in the measured op
// class is the one asked for (LDS.U8/U16/32/64/128, STS.*, LDSM.x1/x2/x4, STSM.x4, written in
// inline PTX). CUPTI's range profiler reads, per launch, the Nsight Compute counters
//
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum       -> wavefronts
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum   -> bank_conflicts
//   smsp__inst_executed_op_shared_{ld,st}.sum
//     + smsp__inst_executed_op_{ldsm,shared_stsm}.sum                -> instructions (must be 1)
//
// (op_ld for ld and ldmatrix, op_st for st and stmatrix), so the numbers are the ones
// `ncu --metrics ...` would print for the same kernel, read in-process and in batches.
//
// A plain C++ header: no CUDA or CUPTI type reaches the app. Call it from a worker thread; a
// call profiles thousands of accesses in one session, so prefer one call with many accesses to
// many calls with one.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/access.hpp"
#include "core/validate/model_match.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_device.hpp"

namespace banklab::gpu {

// What the hardware counted for one access (core's HardwareCount; core's judge() says whether
// it matches the model: ModelMatch).
using Measurement = HardwareCount;

// Whether measure() can run here, and if not, exactly why (no build support, no driver, no
// device, a device the profiler does not support, CUPTI not loadable). Cheap after the first
// call; does not open a profiling session, so a permission problem is reported by measure()
// itself.
struct MeasureSupport {
  record::DeviceInfo device;
  bool ok = false;
  std::string reason;  // empty when ok
};
MeasureSupport measure_support();

// Called after each batch with the number of accesses measured so far and the total.
using MeasureProgress = std::function<void(std::size_t done, std::size_t total)>;

// One Measurement per access, in order. The whole call fails (an Error whose message says what
// to do) only when nothing can be measured: no GPU, profiling not permitted for this user
// (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES), not supported on this device or system, or a CUDA or
// CUPTI call failing; and when *cancel becomes true between batches. An access that breaks
// check_access() comes back as a failed Measurement naming the rule.
Expected<std::vector<Measurement>> measure(std::span<const WarpAccess> accesses,
                                           const MeasureProgress& progress = {},
                                           const std::atomic<bool>* cancel = nullptr);

// ---------------------------------------------------------------------------------------------
// The microbenchmark (gpu_bench.hpp) against the hardware's counters: for each access and its
// baseline, one more launch of the replay kernel exactly as timed runs under CUPTI's range
// profiler. Its rows (PatternCrossCheck), its tolerances and its one agreement rule
// (check_agreement) are what a recording holds and a replay recomputes, so they live in core
// (core/record/results.hpp, where the rules are explained).

struct PatternCrossCheckReport {
  record::PatternReport benchmark;  // the run itself (each pattern against its baseline)
  std::vector<record::PatternCrossCheck> runs;  // one per distinct run: patterns and baselines
  bool all_agree() const {
    for (const record::PatternCrossCheck& c : runs) {
      if (!c.agrees) return false;
    }
    return !runs.empty();
  }
};

// Fails only when nothing could be checked (no GPU, profiling not permitted, a CUDA or CUPTI
// call failing); options.observe is the cross-check's own.
Expected<PatternCrossCheckReport> cross_check_patterns(std::span<const WarpAccess> accesses,
                                                       PatternOptions options = {});

}  // namespace banklab::gpu
