// The device side of `banklab trace`: the callbacks Compute Sanitizer's patching API calls before
// every shared-memory instruction of the traced launch (trace_inject.cpp patches them in). Each
// warp's active lanes claim one record together, so a record is one warp-wide instruction as
// the hardware issued it: divergent halves of a warp that reach the instruction at different
// times are two records, as they are two instructions to the memory pipe.
//
// Built into a fatbin with --compile-as-tools-patch (kernels/trace/CMakeLists.txt); never linked.
#include <sanitizer_patching.h>

#include "kernels/trace_record.hpp"

using banklab::trace_abi::Buffer;
using banklab::trace_abi::Record;

namespace {

__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ void record_access(void* userdata, uint64_t pc, uint32_t address,
                                              uint32_t size, uint32_t flags, uint8_t kind,
                                              uint8_t matrices) {
  Buffer* buffer = static_cast<Buffer*>(userdata);
  if (buffer == nullptr) return;  // a launch that is not traced
  const unsigned lanes = __activemask();
  const unsigned lane = lane_id();
  const unsigned leader = __ffs(lanes) - 1;
  unsigned long long slot = 0;
  if (lane == leader) slot = atomicAdd(&buffer->next, 1ull);
  slot = __shfl_sync(lanes, slot, leader);
  if (slot >= buffer->capacity) return;  // over the cap: counted in next, not stored
  Record& r = buffer->records[slot];
  r.address[lane] = address;
  if (lane == leader) {
    const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    r.pc = pc;
    r.block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    r.warp = thread / 32;
    r.lanes = lanes;
    r.flags = flags;
    r.size = static_cast<uint16_t>(size);
    r.kind = kind;
    r.matrices = matrices;
  }
}

}  // namespace

extern "C" __device__ __noinline__ SanitizerPatchResult banklab_trace_shared(
    void* userdata, uint64_t pc, void* ptr, uint32_t size, uint32_t flags, const void*) {
  record_access(userdata, pc, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ptr)), size, flags,
                banklab::trace_abi::kSharedAccess, 0);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
banklab_trace_matrix(void* userdata, uint64_t pc, uint32_t address, uint32_t size, uint32_t flags,
                     uint32_t count, const void*) {
  record_access(userdata, pc, address, size, flags, banklab::trace_abi::kMatrixAccess,
                static_cast<uint8_t>(count));
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult banklab_trace_async_copy(
    void* userdata, uint64_t pc, void*, uint32_t shared_offset, uint32_t size) {
  record_access(userdata, pc, shared_offset, size, banklab::trace_abi::kFlagWrite,
                banklab::trace_abi::kAsyncCopy, 0);
  return SANITIZER_PATCH_SUCCESS;
}
