// The measured kernels: one warp, one block, and exactly one shared-memory instruction of the
// measured op class, written in inline PTX so that the instruction is the one asked for.
//
//   kind      PTX                                             SASS (cuobjdump -sass)
//   ld1..16   ld.shared.{u8,u16,u32,v2.u32,v4.u32}            LDS.U8, LDS.U16, LDS, LDS.64, LDS.128
//   st1..16   st.shared.{u8,u16,u32,v2.u32,v4.u32}            STS.U8, STS.U16, STS, STS.64, STS.128
//   ldsm_xN   ldmatrix.sync.aligned.m8n8.xN.shared.b16        LDSM.16.M88(.2/.4)
//   stsm_x4   stmatrix.sync.aligned.m8n8.x4.shared.b16        STSM.16.M88.4
//
// ld/st: a lane with offset -1 skips the instruction through a PTX predicate (the warp still
// issues it once). ldmatrix/stmatrix are .sync.aligned: all 32 lanes execute them; the lanes
// past the matrices in use pass their given address, or lane 0's, and the hardware ignores it.
//
// The other op class is used only to make the data checkable (see probe.hpp), so the counters
// of the measured class see one instruction (smsp__inst_executed_op_shared_{ld,st} plus
// smsp__inst_executed_op_{ldsm,shared_stsm} = 1, which banklab validate and the GPU test require).
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/measure/probe.hpp"
#include "kernels/runtime/cuda_support.hpp"

// clang-format off: the inline PTX reads best with its operand lists on one line each.
namespace banklab::gpu::detail {
namespace {

struct KernelArgs {
  std::int32_t offsets[32];
  std::uint8_t* out;  // kProbeOutBytes
};

extern __shared__ __align__(1024) std::uint8_t smem[];

__device__ std::uint32_t shared_address(int offset) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(smem + offset));
}

__device__ std::uint32_t pack_fill(int byte_offset) {
  const auto b = static_cast<std::uint32_t>(byte_offset);
  return fill_byte(b) | fill_byte(b + 1) << 8 | fill_byte(b + 2) << 16 |
         static_cast<std::uint32_t>(fill_byte(b + 3)) << 24;
}

__device__ std::uint32_t pack_store(int lane, int first_k) {
  return store_byte(lane, first_k) | store_byte(lane, first_k + 1) << 8 |
         store_byte(lane, first_k + 2) << 16 |
         static_cast<std::uint32_t>(store_byte(lane, first_k + 3)) << 24;
}

// Store fill_byte() over the words covering [offset, offset + bytes): op_st, before a load.
__device__ void fill_words(int offset, int bytes) {
  for (int w = offset & ~3; w < offset + bytes; w += 4)
    *reinterpret_cast<std::uint32_t*>(smem + w) = pack_fill(w);
}

// Byte loads (op_ld, after a store): what the measured store left at [offset, offset + bytes).
__device__ void read_back(int offset, int bytes, std::uint8_t* out) {
  const volatile std::uint8_t* s = smem;
  for (int k = 0; k < bytes; ++k) out[k] = s[offset + k];
}

__device__ void write_registers(const std::uint32_t (&r)[4], std::uint8_t* out) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<std::uint8_t>(r[i] >> (8 * j));
}

template <int W>
__global__ void __launch_bounds__(32, 1) ld_probe(KernelArgs args) {
  const int lane = static_cast<int>(threadIdx.x);
  const int offset = args.offsets[lane];
  const std::uint32_t active = offset >= 0 ? 1u : 0u;
  if (active) fill_words(offset, W);
  __syncwarp();
  const std::uint32_t addr = shared_address(active ? offset : 0);
  std::uint32_t r[4] = {0, 0, 0, 0};
  if constexpr (W == 1) {
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; @p ld.shared.u8 %0, [%2]; }"
                 : "+r"(r[0])
                 : "r"(active), "r"(addr)
                 : "memory");
  } else if constexpr (W == 2) {
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; @p ld.shared.u16 %0, [%2]; }"
                 : "+r"(r[0])
                 : "r"(active), "r"(addr)
                 : "memory");
  } else if constexpr (W == 4) {
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; @p ld.shared.u32 %0, [%2]; }"
                 : "+r"(r[0])
                 : "r"(active), "r"(addr)
                 : "memory");
  } else if constexpr (W == 8) {
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; @p ld.shared.v2.u32 {%0, %1}, [%3]; }"
                 : "+r"(r[0]), "+r"(r[1])
                 : "r"(active), "r"(addr)
                 : "memory");
  } else {
    static_assert(W == 16, "LDS moves 1, 2, 4, 8 or 16 bytes per lane");
    asm volatile(
        "{ .reg .pred p; setp.ne.u32 p, %4, 0; @p ld.shared.v4.u32 {%0, %1, %2, %3}, [%5]; }"
        : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3])
        : "r"(active), "r"(addr)
        : "memory");
  }
  write_registers(r, args.out + 16 * lane);
}

template <int W>
__global__ void __launch_bounds__(32, 1) st_probe(KernelArgs args) {
  const int lane = static_cast<int>(threadIdx.x);
  const int offset = args.offsets[lane];
  const std::uint32_t active = offset >= 0 ? 1u : 0u;
  const std::uint32_t addr = shared_address(active ? offset : 0);
  const std::uint32_t v0 = pack_store(lane, 0), v1 = pack_store(lane, 4);
  const std::uint32_t v2 = pack_store(lane, 8), v3 = pack_store(lane, 12);
  if constexpr (W == 1) {
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, 0; @p st.shared.u8 [%1], %2; }" ::"r"(active),
                 "r"(addr), "r"(v0)
                 : "memory");
  } else if constexpr (W == 2) {
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, 0; @p st.shared.u16 [%1], %2; }" ::"r"(active),
                 "r"(addr), "r"(v0)
                 : "memory");
  } else if constexpr (W == 4) {
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, 0; @p st.shared.u32 [%1], %2; }" ::"r"(active),
                 "r"(addr), "r"(v0)
                 : "memory");
  } else if constexpr (W == 8) {
    asm volatile(
        "{ .reg .pred p; setp.ne.u32 p, %0, 0; @p st.shared.v2.u32 [%1], {%2, %3}; }" ::"r"(active),
        "r"(addr), "r"(v0), "r"(v1)
        : "memory");
  } else {
    static_assert(W == 16, "STS moves 1, 2, 4, 8 or 16 bytes per lane");
    asm volatile(
        "{ .reg .pred p; setp.ne.u32 p, %0, 0; @p st.shared.v4.u32 [%1], {%2, %3, %4, %5}; }" ::"r"(
            active),
        "r"(addr), "r"(v0), "r"(v1), "r"(v2), "r"(v3)
        : "memory");
  }
  __syncwarp();
  if (active) read_back(offset, W, args.out + 16 * lane);
}

// Lanes 8m..8m+7 give the rows of matrix m. Thread t receives, in register m, the 4 bytes at
// byte 4*(t mod 4) of row t/4 of matrix m (the m8n8 .b16 fragment layout).
template <int kMatrices>
__global__ void __launch_bounds__(32, 1) ldsm_probe(KernelArgs args) {
  const int lane = static_cast<int>(threadIdx.x);
  const int given = args.offsets[lane];
  if (lane < 8 * kMatrices) fill_words(given, 16);
  __syncwarp();
  const std::uint32_t addr = shared_address(given >= 0 ? given : args.offsets[0]);
  std::uint32_t r[4] = {0, 0, 0, 0};
  if constexpr (kMatrices == 1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(addr)
                 : "memory");
  } else if constexpr (kMatrices == 2) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr)
                 : "memory");
  } else {
    static_assert(kMatrices == 4, "ldmatrix loads 1, 2 or 4 matrices");
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
  }
  write_registers(r, args.out + 16 * lane);
}

// Thread t gives, in register m, the 4 bytes for byte 4*(t mod 4) of row t/4 of matrix m.
__global__ void __launch_bounds__(32, 1) stsm_x4_probe(KernelArgs args) {
  const int lane = static_cast<int>(threadIdx.x);
  const int given = args.offsets[lane];
  const std::uint32_t addr = shared_address(given);
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr),
               "r"(pack_store(lane, 0)), "r"(pack_store(lane, 4)), "r"(pack_store(lane, 8)),
               "r"(pack_store(lane, 12))
               : "memory");
  __syncwarp();
  read_back(given, 16, args.out + 16 * lane);
}

using ProbeKernel = void (*)(KernelArgs);

// Indexed by ProbeKind.
constexpr ProbeKernel kKernels[kProbeKindCount] = {
    ld_probe<1>,   ld_probe<2>,   ld_probe<4>,   ld_probe<8>,   ld_probe<16>,
    st_probe<1>,   st_probe<2>,   st_probe<4>,   st_probe<8>,   st_probe<16>,
    ldsm_probe<1>, ldsm_probe<2>, ldsm_probe<4>, stsm_x4_probe,
};

}  // namespace

std::string prepare_probes(int device) {
  if (cudaError_t err = cudaSetDevice(device); err != cudaSuccess)
    return cuda_error_text("cudaSetDevice", err);
  for (ProbeKernel kernel : kKernels) {
    const cudaError_t err = cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxBlockSharedBytes);
    if (err != cudaSuccess)
      return cuda_error_text("cudaFuncSetAttribute(MaxDynamicSharedMemorySize)", err);
  }
  return {};
}

std::string launch_probe(const ProbePlan& plan, void* device_out) {
  KernelArgs args{};
  for (int lane = 0; lane < 32; ++lane) args.offsets[lane] = plan.offsets[lane];
  args.out = static_cast<std::uint8_t*>(device_out);
  const auto shared_bytes = static_cast<std::size_t>(plan.shared_bytes);
  kKernels[static_cast<int>(plan.kind)]<<<1, 32, shared_bytes>>>(args);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess)
    return cuda_error_text("kernel launch", err);
  return {};
}

}  // namespace banklab::gpu::detail
// clang-format on
