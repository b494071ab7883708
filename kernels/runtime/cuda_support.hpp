#pragma once
// What the runners share on the CUDA side: checked calls, owned device memory, event timing
// and the SM clock probe. Internal to banklab_gpu (CUDA types stay in kernels/).
//
// Every CUDA call goes through check(); a failure throws CudaFailure, which the runners'
// entry points turn into RunStatus::cuda_error with the call and CUDA's text through
// run_guarded() (run_guarded.hpp). The exception never leaves the library.
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace banklab::gpu::detail {

class CudaFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The one sentence a failed CUDA call becomes, in the runners (thrown as CudaFailure by check())
// and in the measurement backend (returned as an Error):
// "cudaMalloc(output, 1073741824 bytes): out of memory (cudaErrorMemoryAllocation)".
inline std::string cuda_error_text(std::string_view call, cudaError_t status) {
  return std::string(call) + ": " + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) +
         ")";
}

inline void check(cudaError_t status, std::string_view call) {
  if (status == cudaSuccess) return;
  throw CudaFailure(cuda_error_text(call, status));
}

// A launch reports a bad configuration at once and a fault in the kernel at the next
// synchronising call; both are checked by the callers through this.
inline void check_launch(std::string_view kernel) {
  check(cudaGetLastError(), std::string("launching ") + std::string(kernel));
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(std::size_t bytes, std::string_view what) : bytes_(bytes) {
    check(cudaMalloc(&ptr_, bytes == 0 ? 1 : bytes),
          "cudaMalloc(" + std::string(what) + ", " + std::to_string(bytes) + " bytes)");
  }
  ~DeviceBuffer() {
    if (ptr_ != nullptr) cudaFree(ptr_);  // nothing useful to do with a failure while unwinding
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Two events around a stretch of stream 0: elapsed() waits for the second and returns ms.
class EventTimer {
 public:
  EventTimer() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start() { check(cudaEventRecord(start_), "cudaEventRecord(start)"); }
  void stop() { check(cudaEventRecord(stop_), "cudaEventRecord(stop)"); }
  float elapsed_ms() {
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize (the timed kernel)");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

// Times `launch` (it launches one kernel on stream 0) as every figure here is timed: `warmup`
// untimed launches, lasting at least min_warmup_ms of kernel time in all (none when warmup is
// 0), then `repetitions` launches, each between two events. Returns those times in ms; the
// transpose suite and banklab_transpose_tuning both time through this.
template <class Launch>
std::vector<double> time_launches(const Launch& launch, int warmup, int repetitions,
                                  std::string_view kernel, double min_warmup_ms = 0) {
  EventTimer timer;
  double warm_ms = 0;
  for (int i = 0; i < warmup || (warmup > 0 && warm_ms < min_warmup_ms); ++i) {
    timer.start();
    launch();
    check_launch(kernel);
    timer.stop();
    warm_ms += timer.elapsed_ms();
  }
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(repetitions));
  for (int i = 0; i < repetitions; ++i) {
    timer.start();
    launch();
    check_launch(kernel);
    timer.stop();
    ms.push_back(timer.elapsed_ms());
  }
  return ms;
}

// The median of a non-empty set of timings (the upper middle for an even count).
double median(std::vector<double> values);

// The SM clock while the GPU is busy, in MHz: one block per SM spins on clock64() for a fixed
// number of cycles, timed by events. Launch overhead (microseconds) against a ~10 ms spin
// makes it read at most ~0.1% low.
double measure_sm_clock_mhz(int sm_count);

}  // namespace banklab::gpu::detail
