#pragma once
// How the runners (transpose_suite.cu, pattern_bench.cu) end their CUDA section. Kept out of
// cuda_support.hpp, which the probe kernels of kernels/measure also include: they are compiled
// as C++17 without the library's headers, and this needs kernels/gpu_bench.hpp's RunStatus.
#include <new>
#include <string>

#include "kernels/gpu_bench.hpp"
#include "kernels/runtime/cuda_support.hpp"

namespace banklab::gpu::detail {

// The runners' CUDA section: `body` returns the status it ended with (RunStatus::ok when it
// ran to the end; cancelled or bad_input, with *error set, when it stopped early). A failed
// CUDA call anywhere in it, or the host running out of memory (the outputs are verified on
// the host), ends it as RunStatus::cuda_error with the reason in *error.
template <class Body>
record::RunStatus run_guarded(const Body& body, std::string* error) {
  try {
    return body();
  } catch (const CudaFailure& failure) {
    *error = failure.what();
  } catch (const std::bad_alloc&) {
    *error = "the host ran out of memory (std::bad_alloc)";
  }
  return record::RunStatus::cuda_error;
}

}  // namespace banklab::gpu::detail
