#pragma once
// Integers as CUDA C++ computes them: every value has a type (its width and signedness), the
// operators convert their operands as the language does, unsigned arithmetic wraps, and what
// C++ leaves undefined is an error here rather than a guess.
//
//   integer promotion      bool, char, short (signed or not) -> int, before any operator
//   usual conversions      the operands of + - * / % & | ^ < <= > >= == != meet in one type:
//                          the wider; at equal width the unsigned one (int + unsigned ->
//                          unsigned, so -1 < 1u is false); long long + unsigned -> long long
//   conversion             to an unsigned type of N bits: the value modulo 2^N; to a signed
//                          type: the same bits read as signed (C++20; GCC did so before);
//                          to bool: value != 0. (unsigned char)300 = 44, (short)65537 = 1
//   errors                 signed overflow, division by zero, INT_MIN / -1, a shift count
//                          outside 0..bits-1 of the promoted left operand, a left shift
//                          whose result does not fit (C++17's rule; 1 << 31 is INT_MIN)
//
// The target is LP64, as nvcc's host and device agree: int 32 bits, long and long long 64,
// char signed. threadIdx.x and blockDim.x are unsigned int, warpSize int.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"

namespace banklab::code {

struct IntType {
  std::uint8_t bits = 32;  // 1 (bool), 8, 16, 32 or 64
  bool is_signed = true;
  friend bool operator==(IntType, IntType) = default;
};
inline constexpr IntType kBool{1, false};
inline constexpr IntType kInt{32, true};
inline constexpr IntType kUnsignedInt{32, false};
inline constexpr IntType kLongLong{64, true};
inline constexpr IntType kSizeT{64, false};

// "int", "unsigned int", "long long", "unsigned char", "bool" (long is named long long: on
// LP64 they behave alike).
std::string type_name(IntType t);
IntType promoted(IntType t);
IntType common_type(IntType a, IntType b);  // of the promoted operands

// A value of an integer type. `bits` holds it sign-extended (signed types) or zero-extended
// (unsigned types) to 64 bits; an unsigned long long above INT64_MAX is its bit pattern.
struct Int {
  std::int64_t bits = 0;
  IntType type = kInt;
};
Int convert(Int v, IntType to);
// The value as a mathematical integer, for bounds and byte offsets; false for an unsigned
// long long above INT64_MAX (larger than any array).
bool fits_int64(Int v);
std::string to_string(Int v);
// The type C++ gives an integer literal of this value and suffix: decimal without u: int, else
// long long; hexadecimal, octal and binary also try unsigned int before long long; u:
// unsigned int, else unsigned long long; l or ll: at least 64 bits.
IntType literal_type(std::int64_t value, bool decimal, bool has_u, bool has_l);

enum class IntOp : std::uint8_t {
  add,
  sub,
  mul,
  div,
  rem,
  shl,
  shr,
  bit_and,
  bit_or,
  bit_xor,
  lt,
  le,
  gt,
  ge,
  eq,
  ne,
};
std::optional<IntOp> int_op(std::string_view spelling);
// C++'s precedence of a binary operator, from || (1) to * / % (10); 0 for another token. The
// parser's and the preprocessor's #if share it.
int binary_precedence(std::string_view op);
std::string_view spelling(IntOp op);
bool is_comparison(IntOp op);

// a op b as C++ computes it, or why it has no value: "2147483647 + 1 overflows 32 bits (int)",
// "division by zero: 7 / 0", "shift by 40: a shift count must be 0..31 for int".
Expected<Int> apply(IntOp op, Int a, Int b);
// The same value when the operands meet in a type of at most 32 bits and the result has one,
// computed without the 128-bit path or a message; nothing where apply() must be asked (an
// error, a 64-bit type). What the warp machine runs for every lane of every operator.
std::optional<Int> try_apply(IntOp op, Int a, Int b);
Expected<Int> negate(Int a);  // unary -
Int complement(Int a);        // ~
Int unary_plus(Int a);        // +: the promotion alone

}  // namespace banklab::code
