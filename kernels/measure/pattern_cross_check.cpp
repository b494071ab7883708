// cross_check_patterns(): the microbenchmark's accounting held against CUPTI's counters.
#include <cuda_runtime.h>

#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/model/hardware.hpp"
#include "kernels/gpu_measure.hpp"
#include "kernels/measure/range_profiler.hpp"

namespace banklab::gpu {
namespace {

enum Metric {
  kLds,
  kLdsm,
  kSts,
  kStsm,
  kLdWavefronts,
  kStWavefronts,
  kSmActiveCycles,
};
std::vector<std::string> metric_names() {
  return {
      std::string(kNcuHwInstructionsLds), std::string(kNcuHwInstructionsLdsm),
      std::string(kNcuHwInstructionsSts), std::string(kNcuHwInstructionsStsm),
      std::string(kNcuWavefrontsLd),      std::string(kNcuWavefrontsSt),
      std::string(kNcuSmActiveCycles),
  };
}

record::PatternCrossCheck compare(const ReplayAccounting& a, const std::vector<double>& v,
                                  int sm_count) {
  record::PatternCrossCheck c;
  c.access = a.access;
  const bool load = is_load(a.access.op);
  const bool matrix = is_matrix_op(a.access.op);
  const Metric cls = load ? (matrix ? kLdsm : kLds) : (matrix ? kStsm : kSts);
  c.counted_instructions = a.instructions + a.same_class_extra;
  c.hardware_instructions = std::llround(v[cls]);
  c.counted_cycles_per_access = a.cycles_per_access;
  const double measured_instructions = double(c.hardware_instructions - a.same_class_extra);
  c.hardware_cycles_per_access =
      measured_instructions > 0 ? v[kSmActiveCycles] / (measured_instructions / sm_count) : 0;
  c.hardware_wavefronts = std::llround(v[load ? kLdWavefronts : kStWavefronts]);
  c.hardware_wavefronts_per_clock =
      v[kSmActiveCycles] > 0 ? double(c.hardware_wavefronts) / (v[kSmActiveCycles] * sm_count) : 0;

  const Expected<void> agreement = record::check_agreement(c);
  c.agrees = agreement.has_value();
  c.detail = agreement ? std::string() : agreement.error();
  return c;
}

}  // namespace

Expected<PatternCrossCheckReport> cross_check_patterns(std::span<const WarpAccess> accesses,
                                                       PatternOptions options) {
  const std::lock_guard<std::mutex> lock(detail::profiler_session_mutex());
  const MeasureSupport support = measure_support();
  if (!support.ok) return Error{support.reason};
  const int sm_count = support.device.sm_count;
  std::unique_ptr<detail::RangeProfiler> profiler;
  PatternCrossCheckReport report;
  options.observe = [&](const ReplayAccounting& a,
                        const std::function<Expected<void>()>& launch) -> Expected<void> {
    if (!profiler) {
      auto opened = detail::RangeProfiler::open(support.device.ordinal, metric_names(), 1);
      if (!opened) return Error{opened.error()};
      profiler = std::move(*opened);
    }
    auto values = profiler->profile(1, launch);
    if (!values) return Error{values.error()};
    report.runs.push_back(compare(a, values->front(), sm_count));
    return {};
  };
  report.benchmark = run_pattern_benchmark(accesses, options);
  if (!report.benchmark.ok()) return Error{report.benchmark.error};
  return report;
}

}  // namespace banklab::gpu
