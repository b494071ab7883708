#pragma once
// The one sentence every failed CUDA runtime call of the measurement backend turns into:
// "cudaMalloc failed: cudaErrorMemoryAllocation (out of memory)".
#include <cuda_runtime_api.h>

#include <string>

namespace banklab::gpu::detail {

inline std::string cuda_failure(const char* call, cudaError_t err) {
  return std::string(call) + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
         ")";
}

}  // namespace banklab::gpu::detail
