#pragma once
// The hardware half of the Descriptor Lab's test (tests/gpu/test_descriptor_gpu.cpp): one
// warpgroup loads a bf16 A (64 x 64, M x K) and B (64 x 64, N x K), both K-major, into shared
// memory through TMA (or A through the warpgroup's own stores, as an epilogue writes a swizzled
// tile), then multiplies them with wgmma.mma_async.m64n64k16 (sm_90a), one
// instruction per 16-element k-step, each reading A and B through the descriptor words the
// caller gives. The caller says what TMA does (the box, its swizzle, where it lands) and which
// descriptors the tensor core reads through; the kernel decides nothing, so a descriptor that
// does not describe the fill multiplies whatever its addresses hold, as a real kernel would.
//
// Plain C++: no CUDA type crosses this header. Built only where CUDA is (BANKLAB_HAVE_CUDA).
#include <array>
#include <cstdint>
#include <vector>

#include "core/base/expected.hpp"

namespace banklab::gpu {

inline constexpr int kProbeRows = 64;  // M of A, N of B
inline constexpr int kProbeK = 64;     // K of both: four k-steps of 16 bf16
inline constexpr int kProbeSteps = 4;

// One operand's fill: `boxes` TMA boxes of box_rows x box_cols bf16 elements, box j loaded from
// global column j * box_cols into shared memory at dest + j * box_bytes. dest is an offset from
// a 1024-byte-aligned base, so every swizzle pattern starts where it would at address 0.
struct ProbeFill {
  int swizzle_bytes = 128;  // TMA's swizzle: 0 (none), 32, 64 or 128
  int box_rows = 64;
  int box_cols = 64;
  int boxes = 1;
  std::uint32_t dest = 0;
  std::uint32_t box_bytes = 8192;
};

struct ProbeCase {
  std::vector<std::uint16_t> a;  // 64 x 64 bf16 bit patterns, row-major (K contiguous)
  std::vector<std::uint16_t> b;
  ProbeFill fill_a;
  ProbeFill fill_b;
  // The descriptor of each k-step, its start address relative to the aligned base (the kernel
  // adds the base's encoded address to bits 0-13).
  std::array<std::uint64_t, kProbeSteps> desc_a{};
  std::array<std::uint64_t, kProbeSteps> desc_b{};
  // The shared memory the kernel zeroes before the loads: every byte a descriptor may read.
  std::uint32_t smem_bytes = 32768;
  // When not empty, A is not loaded by TMA: element i of `a` (row-major) is stored by the
  // warpgroup's threads (st.shared, 2 bytes) at byte a_addresses[i] from the aligned base, and
  // fill_a is ignored. An epilogue's swizzled tile, its pattern starting wherever the caller's
  // addresses say.
  std::vector<std::uint32_t> a_addresses;
};

// D = A * B^T (64 x 64 fp32, row-major) as the tensor core computed it; an error names the CUDA
// call or the rule of the case that failed.
Expected<std::vector<float>> run_wgmma_probe(const ProbeCase& c);

}  // namespace banklab::gpu
