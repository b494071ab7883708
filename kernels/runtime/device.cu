// query_device(): the first CUDA device as the rest of BankLab sees it, or why there is none;
// and the SM clock probe the runners use.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "kernels/gpu_device.hpp"
#include "kernels/runtime/cuda_support.hpp"

namespace banklab::gpu {

namespace {

std::string call_error(std::string_view call, cudaError_t status) {
  return std::string(call) + ": " + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) +
         ")";
}

// Which state a failed first call means. With the static runtime and no libcuda.so.1 on the
// machine, or a driver older than the toolkit, the runtime answers "insufficient driver".
record::Availability classify(cudaError_t status) {
  switch (status) {
    case cudaErrorNoDevice:
      return record::Availability::no_device;
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary:
    case cudaErrorCallRequiresNewerDriver:
      return record::Availability::no_driver;
    default:
      return record::Availability::error;
  }
}

record::DeviceInfo probe_device() {
  record::DeviceInfo info;
  // The test command's no-GPU suites force the no-GPU path on a machine that has one.
  if (const char* force = std::getenv("BANKLAB_FORCE_NO_GPU"); force && std::string(force) == "1") {
    info.availability = record::Availability::no_device;
    info.detail = "no CUDA device: BANKLAB_FORCE_NO_GPU=1 hides the GPU";
    return info;
  }
  int count = 0;
  const cudaError_t counted = cudaGetDeviceCount(&count);
  if (counted != cudaSuccess) {
    info.availability = classify(counted);
    info.detail = call_error("cudaGetDeviceCount", counted);
    if (info.availability == record::Availability::no_driver) {
      info.detail = "no CUDA driver (or one older than CUDA 13): " + info.detail;
    } else if (info.availability == record::Availability::no_device) {
      info.detail = "no CUDA device: " + info.detail;
    }
    return info;
  }
  if (count == 0) {
    info.availability = record::Availability::no_device;
    info.detail = "no CUDA device: cudaGetDeviceCount found 0 devices";
    return info;
  }
  // Every figure comes from one attribute call each; the first that fails names itself.
  struct Attribute {
    cudaDeviceAttr attribute;
    const char* name;
    int* into;
  };
  int shared_per_sm = 0;
  int l2 = 0;
  const Attribute attributes[] = {
      {cudaDevAttrComputeCapabilityMajor, "cudaDevAttrComputeCapabilityMajor", &info.cc_major},
      {cudaDevAttrComputeCapabilityMinor, "cudaDevAttrComputeCapabilityMinor", &info.cc_minor},
      {cudaDevAttrMultiProcessorCount, "cudaDevAttrMultiProcessorCount", &info.sm_count},
      {cudaDevAttrClockRate, "cudaDevAttrClockRate", &info.sm_clock_khz},
      {cudaDevAttrMemoryClockRate, "cudaDevAttrMemoryClockRate", &info.memory_clock_khz},
      {cudaDevAttrGlobalMemoryBusWidth, "cudaDevAttrGlobalMemoryBusWidth", &info.memory_bus_bits},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor, "cudaDevAttrMaxSharedMemoryPerMultiprocessor",
       &shared_per_sm},
      {cudaDevAttrL2CacheSize, "cudaDevAttrL2CacheSize", &l2},
  };
  info.ordinal = 0;
  for (const Attribute& a : attributes) {
    const cudaError_t status = cudaDeviceGetAttribute(a.into, a.attribute, info.ordinal);
    if (status != cudaSuccess) {
      info.availability = record::Availability::error;
      info.detail = call_error(std::string("cudaDeviceGetAttribute(") + a.name + ")", status);
      return info;
    }
  }
  info.shared_memory_per_sm = shared_per_sm;
  info.l2_bytes = l2;
  cudaDeviceProp prop{};
  if (const cudaError_t status = cudaGetDeviceProperties(&prop, info.ordinal);
      status != cudaSuccess) {
    info.availability = record::Availability::error;
    info.detail = call_error("cudaGetDeviceProperties", status);
    return info;
  }
  info.name = prop.name;
  info.memory_bytes = prop.totalGlobalMem;
  info.availability = record::Availability::available;
  return info;
}

__global__ void spin_clock(long long cycles, unsigned long long* elapsed) {
  const long long start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  if (threadIdx.x == 0) elapsed[blockIdx.x] = static_cast<unsigned long long>(now - start);
}

}  // namespace

record::DeviceInfo query_device() {
  // A magic static: initialised once, thread-safe, and the CUDA runtime is asked only once.
  static const record::DeviceInfo info = probe_device();
  return info;
}

namespace detail {

double median(std::vector<double> values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

double measure_sm_clock_mhz(int sm_count) {
  constexpr long long kSpinCycles = 20'000'000;  // ~10 ms at 2 GHz
  DeviceBuffer elapsed(sizeof(unsigned long long) * static_cast<std::size_t>(sm_count),
                       "clock probe cycles");
  EventTimer timer;
  timer.start();
  spin_clock<<<sm_count, 32>>>(kSpinCycles, static_cast<unsigned long long*>(elapsed.get()));
  check_launch("spin_clock");
  timer.stop();
  const double ms = timer.elapsed_ms();
  std::vector<unsigned long long> cycles(static_cast<std::size_t>(sm_count));
  check(cudaMemcpy(cycles.data(), elapsed.get(), elapsed.bytes(), cudaMemcpyDeviceToHost),
        "cudaMemcpy(clock probe cycles)");
  // The slowest SM bounds the event time; its own count of cycles over that time is the clock.
  const unsigned long long most = *std::max_element(cycles.begin(), cycles.end());
  return static_cast<double>(most) / (ms * 1e3);
}

}  // namespace detail

}  // namespace banklab::gpu
