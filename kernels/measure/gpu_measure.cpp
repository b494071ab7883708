// measure(): plan every access, launch its probe kernel inside a CUPTI range-profiler batch, read
// the counters per launch, and check the bytes each kernel moved against a CPU replay.
#include "kernels/gpu_measure.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>
#include <vector>

#include "core/model/hardware.hpp"
#include "kernels/measure/probe_plan.hpp"
#include "kernels/measure/range_profiler.hpp"
#include "kernels/runtime/cuda_support.hpp"

namespace banklab::gpu {
namespace {

using detail::cuda_error_text;
using detail::kProbeOutBytes;
using detail::ProbePlan;

// Launches per profiling batch: large enough that CUPTI's per-batch set-up is amortised, small
// enough that a cancel request is answered within a fraction of a second.
constexpr int kBatchLaunches = 256;

// The counter names Nsight Compute uses. Loads (ld, ldmatrix) read the op_ld wavefronts and
// conflicts, stores (st, stmatrix) the op_st ones: LDSM and STSM are counted there too. The
// instruction counts are separate for LDS and LDSM (STS and STSM): their sum over the measured
// class must be 1. Measured on the H200: smsp__sass_inst_executed_op_shared_ld does not count
// LDSM (0 for an ldmatrix kernel), so both counters are read. The hardware instruction counters
// (smsp__inst_executed_*) are used rather than the SASS-patched smsp__sass_* ones: with them all
// eight metrics fit one replay pass instead of two, which halves the time of every measurement.
enum MetricIndex {
  kLdWavefronts,
  kLdConflicts,
  kLdsInstructions,
  kLdsmInstructions,
  kStWavefronts,
  kStConflicts,
  kStsInstructions,
  kStsmInstructions,
};
std::vector<std::string> metric_names() {
  return {
      std::string(kNcuWavefrontsLd),      std::string(kNcuConflictsLd),
      std::string(kNcuHwInstructionsLds), std::string(kNcuHwInstructionsLdsm),
      std::string(kNcuWavefrontsSt),      std::string(kNcuConflictsSt),
      std::string(kNcuHwInstructionsSts), std::string(kNcuHwInstructionsStsm),
  };
}

struct DeviceBuffer {
  void* ptr = nullptr;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;  // one owner: a copy would free twice
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr != nullptr) cudaFree(ptr);
  }
};

std::int64_t counter(double value) {
  return std::llround(value);
}

}  // namespace

MeasureSupport measure_support() {
  MeasureSupport s;
  s.device = query_device();
  if (!s.device.ok()) {
    // The device query's sentence ("no CUDA driver ...: cudaGetDeviceCount: ...") says it all.
    s.reason = s.device.detail.empty()
                   ? std::string(record::availability_name(s.device.availability))
                   : s.device.detail;
    return s;
  }
  // stmatrix and the counters the model is checked against are Hopper's (sm_90).
  if (s.device.cc_major < 9) {
    s.reason = s.device.name + " is compute capability " + std::to_string(s.device.cc_major) + "." +
               std::to_string(s.device.cc_minor) +
               "; the measured kernels need sm_90 or newer (stmatrix), and the model is Hopper's";
    return s;
  }
  // The counters are read through CUPTI, loaded at run time: a machine with a driver but no
  // CUDA toolkit runs the kernels (gpu-bench) but cannot measure.
  if (const std::string& why = detail::cupti_unavailable_reason(); !why.empty()) {
    s.reason = why;
    return s;
  }
  s.ok = true;
  return s;
}

Expected<std::vector<Measurement>> measure(std::span<const WarpAccess> accesses,
                                           const MeasureProgress& progress,
                                           const std::atomic<bool>* cancel) {
  const std::lock_guard<std::mutex> lock(detail::profiler_session_mutex());
  const MeasureSupport support = measure_support();
  if (!support.ok) return Error{support.reason};

  std::vector<Measurement> results(accesses.size());
  std::vector<ProbePlan> plans(accesses.size());
  std::vector<std::size_t> runnable;
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    const std::vector<Diagnostic> diagnostics = check_access(accesses[i]);
    if (has_error(diagnostics)) {
      results[i].error = first_error(diagnostics);
      continue;
    }
    Expected<ProbePlan> plan = detail::plan_probe(accesses[i]);
    if (!plan) {
      results[i].error = plan.error();
      continue;
    }
    plans[i] = *plan;
    runnable.push_back(i);
  }
  if (runnable.empty()) {
    if (progress) progress(accesses.size(), accesses.size());
    return results;
  }

  const int device = support.device.ordinal;
  if (std::string err = detail::prepare_probes(device); !err.empty()) return Error{err};
  auto profiler = detail::RangeProfiler::open(device, metric_names(), kBatchLaunches);
  if (!profiler) return Error{profiler.error()};
  DeviceBuffer out;
  const std::size_t out_bytes = static_cast<std::size_t>(kBatchLaunches) * kProbeOutBytes;
  if (cudaError_t err = cudaMalloc(&out.ptr, out_bytes); err != cudaSuccess)
    return Error{cuda_error_text("cudaMalloc", err)};
  std::vector<std::uint8_t> host_out(out_bytes);

  std::size_t done = accesses.size() - runnable.size();
  for (std::size_t first = 0; first < runnable.size(); first += kBatchLaunches) {
    if (cancel != nullptr && cancel->load()) {
      return Error{"measurement cancelled after " + std::to_string(first) + " of " +
                   std::to_string(runnable.size()) + " accesses"};
    }
    const int count =
        static_cast<int>(std::min<std::size_t>(kBatchLaunches, runnable.size() - first));
    // Poison the output outside the profiled range, so a byte the kernel did not write fails
    // verification instead of passing on stale data.
    if (cudaError_t err = cudaMemset(out.ptr, 0xCD, out_bytes); err != cudaSuccess)
      return Error{cuda_error_text("cudaMemset", err)};
    auto values = (*profiler)->profile(count, [&]() -> Expected<void> {
      for (int j = 0; j < count; ++j) {
        void* slot = static_cast<std::uint8_t*>(out.ptr) + std::size_t{kProbeOutBytes} * j;
        // launch_probe() speaks probe.hpp's self-contained form: "" or the failed call.
        if (std::string err = detail::launch_probe(plans[runnable[first + j]], slot); !err.empty())
          return Error{std::move(err)};
      }
      return {};
    });
    if (!values) return Error{values.error()};
    if (cudaError_t err = cudaMemcpy(host_out.data(), out.ptr, out_bytes, cudaMemcpyDeviceToHost);
        err != cudaSuccess) {
      return Error{cuda_error_text("cudaMemcpy", err)};
    }
    for (int j = 0; j < count; ++j) {
      const std::size_t i = runnable[first + j];
      const std::vector<double>& v = (*values)[j];
      const bool load = is_load(accesses[i].op);
      Measurement& m = results[i];
      m.wavefronts = counter(v[load ? kLdWavefronts : kStWavefronts]);
      m.bank_conflicts = counter(v[load ? kLdConflicts : kStConflicts]);
      m.instructions = load ? counter(v[kLdsInstructions]) + counter(v[kLdsmInstructions])
                            : counter(v[kStsInstructions]) + counter(v[kStsmInstructions]);
      const Expected<void> right = detail::verify_probe(
          accesses[i], plans[i],
          std::span<const std::uint8_t>(host_out.data() + std::size_t{kProbeOutBytes} * j,
                                        kProbeOutBytes));
      m.verified = right.has_value();
      m.ok = m.verified;
      if (!right)
        m.error = "the kernel moved the wrong bytes, so its counts are not used: " + right.error();
    }
    done += static_cast<std::size_t>(count);
    if (progress) progress(done, accesses.size());
  }
  return results;
}

}  // namespace banklab::gpu
