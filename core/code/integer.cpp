// Integers as CUDA C++ computes them (integer.hpp). Every operator works on the mathematical
// values of its converted operands in 128 bits, where no result of two 64-bit operands
// overflows, and then wraps the result (unsigned) or checks that it fits (signed).
#include "core/code/integer.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace banklab::code {
namespace {

__extension__ typedef __int128 Wide;
__extension__ typedef unsigned __int128 UWide;

Wide value_of(Int v) {
  if (!v.type.is_signed && v.type.bits == 64)
    return static_cast<Wide>(static_cast<std::uint64_t>(v.bits));
  return v.bits;
}

Wide min_of(IntType t) {
  return t.is_signed ? -(Wide{1} << (t.bits - 1)) : 0;
}
Wide max_of(IntType t) {
  return t.is_signed ? (Wide{1} << (t.bits - 1)) - 1 : (Wide{1} << t.bits) - 1;
}

// The value modulo 2^bits, as the type holds it.
Int wrap(Wide v, IntType t) {
  if (t.bits == 1) return {v != 0 ? 1 : 0, t};
  const auto n = static_cast<unsigned>(t.bits);
  auto u = static_cast<UWide>(v) & ((static_cast<UWide>(1) << n) - 1);
  if (t.is_signed && (u >> (n - 1)) != 0) u -= static_cast<UWide>(1) << n;  // negative
  return {static_cast<std::int64_t>(static_cast<std::uint64_t>(u)), t};
}

std::string text(Wide v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  auto u = negative ? -static_cast<UWide>(v) : static_cast<UWide>(v);
  std::string digits;
  for (; u != 0; u /= 10) digits += static_cast<char>('0' + static_cast<int>(u % 10));
  if (negative) digits += '-';
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::string overflow(IntType t) {
  return " overflows " + std::to_string(t.bits) + " bits (" + type_name(t) + ")";
}

constexpr std::array<std::pair<std::string_view, IntOp>, 16> kOps = {{
    {"+", IntOp::add},
    {"-", IntOp::sub},
    {"*", IntOp::mul},
    {"/", IntOp::div},
    {"%", IntOp::rem},
    {"<<", IntOp::shl},
    {">>", IntOp::shr},
    {"&", IntOp::bit_and},
    {"|", IntOp::bit_or},
    {"^", IntOp::bit_xor},
    {"<", IntOp::lt},
    {"<=", IntOp::le},
    {">", IntOp::gt},
    {">=", IntOp::ge},
    {"==", IntOp::eq},
    {"!=", IntOp::ne},
}};

// a << b and a >> b: the type is the promoted left operand's alone.
Expected<Int> shift(IntOp op, Int a, Int b) {
  const IntType t = promoted(a.type);
  const Wide x = value_of(convert(a, t));
  const Wide count = value_of(b);
  if (count < 0 || count >= t.bits) {
    return Error{"shift by " + text(count) + ": a shift count must be 0.." +
                 std::to_string(t.bits - 1) + " for " + type_name(t)};
  }
  const auto n = static_cast<int>(count);
  if (op == IntOp::shr) return wrap(x >> n, t);  // arithmetic for a negative signed value
  const Wide r = x * (Wide{1} << n);
  // Unsigned: modulo 2^bits. Signed (C++17): a non-negative value may move into the sign bit
  // (1 << 31 is INT_MIN) but not past it; a negative one must stay in range.
  if (t.is_signed && (x >= 0 ? r > max_of({t.bits, false}) : r < min_of(t))) {
    return Error{text(x) + " << " + text(count) + overflow(t)};
  }
  return wrap(r, t);
}

// a < b and the other comparisons, in whatever integer the caller computes in.
template <class T>
std::optional<Int> comparison(IntOp op, T x, T y) {
  switch (op) {
    case IntOp::lt:
      return Int{x < y, kBool};
    case IntOp::le:
      return Int{x <= y, kBool};
    case IntOp::gt:
      return Int{x > y, kBool};
    case IntOp::ge:
      return Int{x >= y, kBool};
    case IntOp::eq:
      return Int{x == y, kBool};
    case IntOp::ne:
      return Int{x != y, kBool};
    default:
      return std::nullopt;
  }
}

}  // namespace

std::string type_name(IntType t) {
  switch (t.bits) {
    case 1:
      return "bool";
    case 8:
      return t.is_signed ? "char" : "unsigned char";
    case 16:
      return t.is_signed ? "short" : "unsigned short";
    case 32:
      return t.is_signed ? "int" : "unsigned int";
    default:
      return t.is_signed ? "long long" : "unsigned long long";
  }
}

IntType promoted(IntType t) {
  return t.bits < 32 ? kInt : t;
}

IntType common_type(IntType a, IntType b) {
  a = promoted(a);
  b = promoted(b);
  if (a == b) return a;
  if (a.bits != b.bits) return a.bits > b.bits ? a : b;
  return {a.bits, false};  // equal width, one unsigned: unsigned
}

Int convert(Int v, IntType to) {
  return wrap(value_of(v), to);
}

bool fits_int64(Int v) {
  return v.type.is_signed || v.type.bits < 64 || v.bits >= 0;
}

std::string to_string(Int v) {
  return text(value_of(v));
}

IntType literal_type(std::int64_t value, bool decimal, bool has_u, bool has_l) {
  if (has_u) return !has_l && value <= 0xFFFFFFFFLL ? kUnsignedInt : IntType{64, false};
  if (!has_l && value <= 0x7FFFFFFFLL) return kInt;
  if (!has_l && !decimal && value <= 0xFFFFFFFFLL) return kUnsignedInt;
  return kLongLong;
}

std::optional<IntOp> int_op(std::string_view s) {
  for (const auto& [name, op] : kOps)
    if (name == s) return op;
  return std::nullopt;
}

int binary_precedence(std::string_view op) {
  static constexpr std::pair<std::string_view, int> kPrecedence[] = {
      {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5},  {"==", 6},
      {"!=", 6}, {"<", 7},  {"<=", 7}, {">", 7},  {">=", 7}, {"<<", 8},
      {">>", 8}, {"+", 9},  {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10},
  };
  for (const auto& [name, precedence] : kPrecedence)
    if (name == op) return precedence;
  return 0;
}

std::string_view spelling(IntOp op) {
  for (const auto& [name, o] : kOps)
    if (o == op) return name;
  return "?";
}

bool is_comparison(IntOp op) {
  return op >= IntOp::lt;
}

Expected<Int> apply(IntOp op, Int a, Int b) {
  if (op == IntOp::shl || op == IntOp::shr) return shift(op, a, b);
  const IntType t = common_type(a.type, b.type);
  const Wide x = value_of(convert(a, t));
  const Wide y = value_of(convert(b, t));
  const auto in_type = [&](Wide r) -> Expected<Int> {
    if (t.is_signed && (r < min_of(t) || r > max_of(t))) {
      return Error{text(x) + " " + std::string(spelling(op)) + " " + text(y) + overflow(t)};
    }
    return wrap(r, t);
  };
  switch (op) {
    case IntOp::add:
      return in_type(x + y);
    case IntOp::sub:
      return in_type(x - y);
    case IntOp::mul:
      return in_type(x * y);
    case IntOp::div:
    case IntOp::rem:
      if (y == 0)
        return Error{"division by zero: " + text(x) + " " + std::string(spelling(op)) + " 0"};
      // INT_MIN / -1 does not fit, and C++ leaves INT_MIN % -1 undefined with it.
      if (t.is_signed && x == min_of(t) && y == -1) {
        return Error{text(x) + " " + std::string(spelling(op)) + " -1" + overflow(t)};
      }
      return in_type(op == IntOp::div ? x / y : x % y);
    case IntOp::bit_and:
      return wrap(x & y, t);
    case IntOp::bit_or:
      return wrap(x | y, t);
    case IntOp::bit_xor:
      return wrap(x ^ y, t);
    default:
      return *comparison(op, x, y);
    case IntOp::shl:
    case IntOp::shr:
      break;
  }
  return shift(op, a, b);
}

std::optional<Int> try_apply(IntOp op, Int a, Int b) {
  const bool shift = op == IntOp::shl || op == IntOp::shr;
  const IntType t = shift ? promoted(a.type) : common_type(a.type, b.type);
  if (t.bits > 32) return std::nullopt;
  // In 64 bits every result of two 32-bit operands is exact; the type then wraps or checks.
  const std::int64_t x = convert(a, t).bits;
  const std::int64_t y = shift ? b.bits : convert(b, t).bits;
  std::int64_t r = 0;
  switch (op) {
    case IntOp::add:
      r = x + y;
      break;
    case IntOp::sub:
      r = x - y;
      break;
    case IntOp::mul:
      r = x * y;
      break;
    case IntOp::div:
    case IntOp::rem:
      if (y == 0 || (t.is_signed && x == INT32_MIN && y == -1)) return std::nullopt;
      r = op == IntOp::div ? x / y : x % y;
      break;
    case IntOp::shl:
      if (y < 0 || y >= 32 || (!fits_int64(b)) || (t.is_signed && x < 0)) return std::nullopt;
      r = x << y;
      if (t.is_signed && r > 0xFFFFFFFFLL) return std::nullopt;
      break;
    case IntOp::shr:
      if (y < 0 || y >= 32 || !fits_int64(b)) return std::nullopt;
      r = x >> y;
      break;
    case IntOp::bit_and:
      r = x & y;
      break;
    case IntOp::bit_or:
      r = x | y;
      break;
    case IntOp::bit_xor:
      r = x ^ y;
      break;
    default:
      return *comparison(op, x, y);
  }
  if (t.is_signed && op != IntOp::shl && (r < INT32_MIN || r > INT32_MAX)) return std::nullopt;
  return convert({r, kLongLong}, t);
}

Expected<Int> negate(Int a) {
  const IntType t = promoted(a.type);
  const Wide x = value_of(convert(a, t));
  if (t.is_signed && x == min_of(t)) return Error{"-(" + text(x) + ")" + overflow(t)};
  return wrap(-x, t);
}

Int complement(Int a) {
  const IntType t = promoted(a.type);
  return wrap(~value_of(convert(a, t)), t);
}

Int unary_plus(Int a) {
  return convert(a, promoted(a.type));
}

}  // namespace banklab::code
