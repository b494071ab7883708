#pragma once
// Swizzles: permutations of byte offsets that spread a tile's columns over the banks.
//
// CuTe's Swizzle<B, M, S> XORs B bits taken from position M + S into position M:
//
//                 bit:  ... M+S+B-1 ... M+S   ...   M+B-1 ... M   ... 0
//     x            =        [  yyy (B bits) ]       [ zzz (B bits) ]
//     apply(x)     =        [      yyy      ]       [  zzz ^ yyy   ]
//
//   yyy_mask = ((1 << B) - 1) << (M + S);   apply(x) = x ^ ((x & yyy_mask) >> S)
//
// With S >= B the yyy bits are never changed, so apply is its own inverse (a bijection on all
// offsets). The TMA swizzle modes are Swizzle<1,4,3>, <2,4,3>, <3,4,3> on byte offsets: 16-byte
// chunks (M = 4) permuted within a span of 32, 64 or 128 bytes, the pattern repeating every
// 256, 512 or 1024 bytes. For 128-byte rows and the 128B mode that is "chunk q of row r lands at
// chunk q ^ (r mod 8)".
#include <cstdint>
#include <iosfwd>
#include <string>

#include "banklab/expected.hpp"

namespace banklab {

struct Swizzle {
  int bits = 0;   // B: how many bits are XORed
  int base = 0;   // M: the lowest bit that changes
  int shift = 0;  // S: how far above the changed bits the source bits sit

  std::int64_t yyy_mask() const { return ((std::int64_t{1} << bits) - 1) << (base + shift); }
  std::int64_t operator()(std::int64_t x) const { return x ^ ((x & yyy_mask()) >> shift); }

  // Offsets in [0, 2^period_log2()) map onto themselves: every bit the swizzle reads or writes
  // lies below it, so a tile whose size is a multiple of the period is permuted in place.
  int period_log2() const { return base + shift + bits; }

  // Empty when the parameters make a bijection (B >= 0, M >= 0, S >= B, all within 30 bits);
  // otherwise the rule they break.
  std::string check() const;

  friend bool operator==(const Swizzle&, const Swizzle&) = default;
};

std::ostream& operator<<(std::ostream& os, const Swizzle& s);  // "Swizzle<3,4,3>"

// How a tile's elements are permuted, as the user picks it.
enum class SwizzleKind : std::uint8_t {
  none,
  xor_columns,  // element (r, c) stored at column c ^ (r mod C); C must be a power of two
  cute,         // CuTe Swizzle<B,M,S> on byte offsets within the tile
  tma32,        // CU_TENSOR_MAP_SWIZZLE_32B  = Swizzle<1,4,3>
  tma64,        // CU_TENSOR_MAP_SWIZZLE_64B  = Swizzle<2,4,3>
  tma128,       // CU_TENSOR_MAP_SWIZZLE_128B = Swizzle<3,4,3>
};

struct SwizzleSpec {
  SwizzleKind kind = SwizzleKind::none;
  Swizzle cute;  // the parameters when kind == cute

  // The byte-offset swizzle for cute and the TMA modes; identity for none and xor_columns.
  Swizzle byte_swizzle() const;
  // TMA modes only: the span of one swizzled row (32, 64, 128 B) and the repeat (256, 512,
  // 1024 B); 0 otherwise.
  int tma_span_bytes() const;
  int tma_repeat_bytes() const;

  friend bool operator==(const SwizzleSpec&, const SwizzleSpec&) = default;
};

// "none", "xor", "cute:B,M,S", "tma32", "tma64", "tma128": the CLI spelling, also printed.
std::string to_string(const SwizzleSpec& s);
Expected<SwizzleSpec> parse_swizzle(std::string_view text);
std::ostream& operator<<(std::ostream& os, const SwizzleSpec& s);

}  // namespace banklab
