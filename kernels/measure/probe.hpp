#pragma once
// The measured kernel, as the host sees it (plain C++; probe_kernels.cu holds the CUDA side).
//
// One access = one launch of a one-block, one-warp kernel that executes exactly one
// shared-memory instruction of the measured op class:
//
//   load kinds (ld, ldmatrix)    every addressing lane first stores fill_byte() over the bytes it
//                                will read (plain 4-byte stores: op_st, not measured), then the
//                                one LDS / LDSM runs, and what each lane got goes to `out`.
//   store kinds (st, stmatrix)   the one STS / STSM writes store_byte() values, then every lane
//                                reads its bytes back (byte loads: op_ld, not measured) to `out`.
//
// `out` (kProbeOutBytes per launch, 16 bytes per lane) lets verify_probe() replay the access on
// the CPU (probe_plan.hpp): the counters are only trusted for a kernel that moved the right
// bytes. This header needs nothing from the core, so the CUDA translation unit builds alone.
#include <array>
#include <cstdint>
#include <string>

#if defined(__CUDACC__)
#define BANKLAB_HOST_DEVICE __host__ __device__
#else
#define BANKLAB_HOST_DEVICE
#endif

namespace banklab::gpu::detail {

// One kernel per instruction: the width is part of the PTX, so each is its own template
// instance and its own SASS (LDS.U8 ... LDS.128, STS.*, LDSM.16.M88.{1,2,4}, STSM.16.M88.4).
// clang-format off
enum class ProbeKind : std::uint8_t {
  ld1, ld2, ld4, ld8, ld16,
  st1, st2, st4, st8, st16,
  ldsm_x1, ldsm_x2, ldsm_x4,
  stsm_x4,
};
// clang-format on
inline constexpr int kProbeKindCount = 14;

inline constexpr int kProbeOutBytes = 32 * 16;  // per launch: 16 bytes per lane
// The most dynamic shared memory one block may have on sm_90 (228 KB per SM, 1 KB reserved).
inline constexpr int kMaxBlockSharedBytes = 227 * 1024;

// What the kernel is given: its kind, the 32 lane offsets (-1: the lane does not address),
// relative to the start of the block's dynamic shared memory, and the bytes to allocate.
struct ProbePlan {
  ProbeKind kind = ProbeKind::ld4;
  std::array<std::int32_t, 32> offsets{};
  std::int64_t shift = 0;  // subtracted from the access's offsets (a multiple of 1024)
  int shared_bytes = 0;
};

// The bytes the kernels write and expect, the same function on both sides.
BANKLAB_HOST_DEVICE inline std::uint8_t fill_byte(std::uint32_t byte_offset) {
  return static_cast<std::uint8_t>(((byte_offset * 2654435761u) >> 24) ^ byte_offset);
}
BANKLAB_HOST_DEVICE inline std::uint8_t store_byte(int lane, int k) {
  return static_cast<std::uint8_t>(lane * 16 + k + 1) ^
         static_cast<std::uint8_t>(lane >= 16 ? 0x5A : 0);
}

// CUDA side (probe_kernels.cu). Both return "" or the failed CUDA call and its error text.
// prepare_probes: select the device and allow every kernel the largest dynamic shared memory.
std::string prepare_probes(int device);
// Enqueue one launch on the default stream; `device_out` is kProbeOutBytes of device memory.
std::string launch_probe(const ProbePlan& plan, void* device_out);

}  // namespace banklab::gpu::detail
