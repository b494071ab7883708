#pragma once
// CUPTI's range profiler (CUDA 12.6+: cupti_range_profiler.h, cupti_profiler_host.h), reduced to
// what measuring one kernel at a time needs: auto ranges (one range per kernel launch) with
// kernel replay (CUPTI replays each launch once per pass and restores device memory between),
// many launches per batch, metric values per launch. Plain C++ header; CUPTI stays in the .cpp.
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/base/expected.hpp"

namespace banklab::gpu::detail {

// CUPTI sessions are per context and the profiler is process-wide: whoever opens a
// RangeProfiler holds this for as long as it is open (measure(), cross_check_patterns()).
std::mutex& profiler_session_mutex();

// Why CUPTI cannot be used here, in one line ("CUPTI could not be loaded (libcupti.so.13 not
// found); ..."); empty when it was loaded. CUPTI is not linked but loaded with dlopen the first
// time this or open() is called, so BankLab starts on a machine without the CUDA toolkit.
const std::string& cupti_unavailable_reason();

class RangeProfiler {
 public:
  // Initialises CUPTI on `device` (the CUDA runtime's current context) for these metrics and up
  // to max_launches launches per batch. The error says exactly why profiling is impossible:
  // CUPTI not loadable (cupti_unavailable_reason()), CUPTI_ERROR_INSUFFICIENT_PRIVILEGES and how to
  // lift it, an unsupported device or system (vGPU, MIG, WSL, confidential computing, ...), or the
  // failed call and its CUPTI text.
  static Expected<std::unique_ptr<RangeProfiler>> open(int device, std::vector<std::string> metrics,
                                                       int max_launches);
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  // Calls enqueue(), which must launch exactly `launches` kernels (and nothing else that runs on
  // the GPU), waits for them, and returns values[launch][metric] in launch order. An error from
  // enqueue aborts the batch.
  Expected<std::vector<std::vector<double>>> profile(
      int launches, const std::function<Expected<void>()>& enqueue);

  int passes() const;  // how many times CUPTI replays each launch to collect every metric

  struct State;

 private:
  explicit RangeProfiler(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace banklab::gpu::detail
