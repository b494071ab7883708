#include "core/model/shared_limits.hpp"

#include "core/model/hardware.hpp"

namespace banklab {

namespace {

std::string kilobytes(std::int64_t bytes) {
  return std::to_string(bytes) + " B (" + std::to_string(bytes / 1024) + " KB)";
}

}  // namespace

SharedDeclaration declaration_for(std::int64_t bytes) {
  return bytes <= kStaticSharedBytes ? SharedDeclaration::static_array
                                     : SharedDeclaration::extern_array;
}

std::string block_limit_text() {
  // The SM's 228 KB is the ceiling behind the block's: 1 KB of it is the block's reserve.
  return kilobytes(kMaxSharedPerBlockBytes) +
         ", the most one block can have on an H100/H200 (the SM's " +
         kilobytes(kSharedMemoryBytes) + " less the " +
         std::to_string(kReservedSharedPerBlockBytes) + " B reserved per block)";
}

std::string opt_in_line(std::int64_t bytes) {
  return "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, " +
         std::to_string(bytes) + ");";
}

bool shared_bytes_fit(std::int64_t bytes, SharedDeclaration how) {
  return bytes <= kMaxSharedPerBlockBytes &&
         (how == SharedDeclaration::extern_array || bytes <= kStaticSharedBytes);
}

Expected<void> check_shared_bytes(std::int64_t bytes, SharedDeclaration how,
                                  const std::string& what) {
  if (shared_bytes_fit(bytes, how)) return {};
  const std::string needs = what + " needs " + std::to_string(bytes) + " B of shared memory";
  if (bytes > kMaxSharedPerBlockBytes) {
    return Error{needs + ", more than " + block_limit_text() +
                 ": use fewer rows or narrower elements, or split the tile across blocks"};
  }
  // Within the block's limit, only a static array's can be broken.
  return Error{needs + ", more than the " + kilobytes(kStaticSharedBytes) +
               " a static __shared__ array may take (nvcc: \"uses too much shared data\"): "
               "declare it extern __shared__ and, on the host, opt in with "
               "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, " +
               std::to_string(bytes) + ") before the launch (up to " +
               kilobytes(kMaxSharedPerBlockBytes) + " per block)"};
}

}  // namespace banklab
