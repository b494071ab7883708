#pragma once
// Whether a shared array of some size can be declared the way the code declares it, under the
// three limits of sm_90 (hardware.hpp):
//
//   static   __shared__ T tile[R][C];                       up to 48 KB  (49152 B)
//   extern   extern __shared__ T tile[][C];  + on the host  up to 227 KB (232448 B) per block
//            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)
//            and kernel<<<grid, block, bytes>>>
//   the SM   228 KB (233472 B) for all its resident blocks, 1 KB of it reserved per block
//
// bf16 tile[256][258] is 132096 B: nvcc refuses it as a static array ("uses too much shared
// data (0x20400 bytes, 0xc000 max)"), and accepts it as an extern array with the opt-in.
#include <cstdint>
#include <string>

#include "core/base/expected.hpp"

namespace banklab {

enum class SharedDeclaration : std::uint8_t {
  static_array,  // __shared__ T tile[R][C];
  extern_array,  // extern __shared__ T tile[][C]; sized at launch, after the opt-in
};

// The form a tile of `bytes` needs: static up to 48 KB, extern above (check_shared_bytes then
// says whether it fits a block at all).
SharedDeclaration declaration_for(std::int64_t bytes);

// Done when `bytes` of shared memory fit the declaration; otherwise the limit broken, with its
// numbers and the fix, in one sentence: "tile needs 132096 B of shared memory, more than the
// 49152 B (48 KB) a static __shared__ array may take: declare it extern __shared__ ...".
// `what` names the array ("tile", "bf16 tile[256][258]").
Expected<void> check_shared_bytes(std::int64_t bytes, SharedDeclaration how,
                                  const std::string& what);

// Whether `bytes` fit the declaration: check_shared_bytes() without the message, for callers
// that name the array only when it does not fit (a tile's name is a formatted string, and every
// scenario evaluated checks its tile twice).
bool shared_bytes_fit(std::int64_t bytes, SharedDeclaration how);

// The block's limit and why, for every message that refuses a size above it: "232448 B (227 KB),
// the most one block can have on an H100/H200 (the SM's 233472 B (228 KB) less the 1024 B
// reserved per block)".
std::string block_limit_text();

// The host line that opts a kernel in to `bytes` of dynamic shared memory, for the code shown
// with an extern array: "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
// 132096);".
std::string opt_in_line(std::int64_t bytes);

}  // namespace banklab
