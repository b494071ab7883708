#pragma once
// What the kernels that load through the tensor-memory accelerator share (transpose_tuning.cu's
// TMA transpose, descriptor/wgmma_probe.cu): shared-memory addresses, the mbarrier a load
// completes, one box copied, and the driver's cuTensorMapEncodeTiled reached through the
// runtime (no link dependency on libcuda). PTX ISA: mbarrier, cp.async.bulk.tensor.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdint>

#include "kernels/runtime/cuda_support.hpp"

namespace banklab::gpu::detail {

__device__ inline std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
// The 128-byte swizzle repeats every 1024 bytes, so swizzled tiles start on a 1024-byte boundary.
__device__ inline unsigned char* align_1024(unsigned char* p) {
  return reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(p) + 1023) &
                                          ~std::uintptr_t{1023});
}
// One arrival (the thread that issues the copies) plus the bytes they bring.
__device__ inline void barrier_init(std::uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(bar)));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
// The issuing thread's arrival: the phase completes once `bytes` have landed.
__device__ inline void barrier_expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)),
               "r"(bytes)
               : "memory");
}
// One 2-D box of `map` at (column x, row y) into shared memory at `dst`, counted on `bar`.
__device__ inline void load_box(const CUtensorMap& map, void* dst, std::uint64_t* bar, int x,
                                int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(&map)), "r"(x), "r"(y), "r"(shared_address(bar))
      : "memory");
}
// Every thread: until `bar`'s phase of this parity completes.
__device__ inline void barrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  while (done == 0) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; "
        "selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  }
}

// cuTensorMapEncodeTiled from the driver, looked up once; a CudaFailure when the driver lacks it.
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (encode == nullptr) {
    cudaDriverEntryPointQueryResult found{};
    check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled",
                                           reinterpret_cast<void**>(&encode), 12000,
                                           cudaEnableDefault, &found),
          "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (found != cudaDriverEntryPointSuccess) throw CudaFailure("cuTensorMapEncodeTiled not found");
  }
  return encode;
}

}  // namespace banklab::gpu::detail
