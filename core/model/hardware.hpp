#pragma once
// The facts about Hopper (H100/H200, sm_90) shared memory that the whole model rests on.
// Measured on an H200: see docs/hardware-model.md (the rules and the measured examples).
#include <cstdint>

namespace banklab {

inline constexpr int kWarpSize = 32;
inline constexpr int kBankCount = 32;
inline constexpr int kBankWidthBytes = 4;  // banks are 4-byte words: bank = (byte / 4) mod 32
inline constexpr int kWavefrontBytes = kBankCount * kBankWidthBytes;  // 128 B per clock per SM
inline constexpr std::int64_t kSharedMemoryBytes = 228 * 1024;        // per SM on sm_90
inline constexpr int kMaxWavefronts = 32;  // no access needs more (see analysis.cpp)

// Bank-level arithmetic, the only place it is spelled out.
constexpr std::int64_t word_of_byte(std::int64_t byte) {
  return byte / kBankWidthBytes;
}
constexpr int bank_of_word(std::int64_t word) {
  return static_cast<int>(word % kBankCount);
}
constexpr int bank_of_byte(std::int64_t byte) {
  return bank_of_word(word_of_byte(byte));
}

}  // namespace banklab
