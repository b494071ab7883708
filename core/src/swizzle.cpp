#include "banklab/swizzle.hpp"

#include <charconv>
#include <ostream>
#include <sstream>

#include "banklab/format.hpp"

namespace banklab {

std::string Swizzle::check() const {
  if (bits >= 0 && base >= 0 && shift >= bits && std::int64_t{bits} + base + shift <= 30) return {};
  std::ostringstream msg;
  if (bits < 0 || base < 0 || shift < 0) {
    msg << "Swizzle<" << bits << "," << base << "," << shift
        << "> has a negative parameter; B, M and S must all be >= 0";
  } else if (shift < bits) {
    // With S < B the source bits overlap the bits they change, and the map is no longer its
    // own inverse; with S = 0 two offsets land on one. CuTe refuses S < B for this reason.
    msg << "Swizzle<" << bits << "," << base << "," << shift << "> is not its own inverse: S ("
        << shift << ") must be >= B (" << bits << ") so the bits read are not the bits written";
  } else if (std::int64_t{bits} + base + shift > 30) {  // summed in 64 bits: no overflow
    msg << "Swizzle<" << bits << "," << base << "," << shift << "> reaches bit "
        << std::int64_t{bits} + base + shift << "; B + M + S must be at most 30";
  }
  return msg.str();
}

std::ostream& operator<<(std::ostream& os, const Swizzle& s) {
  return os << "Swizzle<" << s.bits << "," << s.base << "," << s.shift << ">";
}

Swizzle SwizzleSpec::byte_swizzle() const {
  switch (kind) {
    case SwizzleKind::cute: return cute;
    case SwizzleKind::tma32: return {1, 4, 3};
    case SwizzleKind::tma64: return {2, 4, 3};
    case SwizzleKind::tma128: return {3, 4, 3};
    case SwizzleKind::none:
    case SwizzleKind::xor_columns: return {0, 0, 0};
  }
  return {0, 0, 0};
}

int SwizzleSpec::tma_span_bytes() const {
  switch (kind) {
    case SwizzleKind::tma32: return 32;
    case SwizzleKind::tma64: return 64;
    case SwizzleKind::tma128: return 128;
    default: return 0;
  }
}

int SwizzleSpec::tma_repeat_bytes() const { return tma_span_bytes() * 8; }

std::string to_string(const SwizzleSpec& s) {
  switch (s.kind) {
    case SwizzleKind::none: return "none";
    case SwizzleKind::xor_columns: return "xor";
    case SwizzleKind::cute:
      return "cute:" + std::to_string(s.cute.bits) + "," + std::to_string(s.cute.base) + "," +
             std::to_string(s.cute.shift);
    case SwizzleKind::tma32: return "tma32";
    case SwizzleKind::tma64: return "tma64";
    case SwizzleKind::tma128: return "tma128";
  }
  return "none";
}

std::ostream& operator<<(std::ostream& os, const SwizzleSpec& s) { return os << to_string(s); }

Expected<SwizzleSpec> parse_swizzle(std::string_view text) {
  if (text == "none") return SwizzleSpec{};
  if (text == "xor") return SwizzleSpec{SwizzleKind::xor_columns, {}};
  if (text == "tma32") return SwizzleSpec{SwizzleKind::tma32, {}};
  if (text == "tma64") return SwizzleSpec{SwizzleKind::tma64, {}};
  if (text == "tma128") return SwizzleSpec{SwizzleKind::tma128, {}};
  constexpr std::string_view kCute = "cute:";
  if (text.substr(0, kCute.size()) == kCute) {
    std::string_view rest = text.substr(kCute.size());
    int values[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
      const char* first = rest.data();
      const char* last = rest.data() + rest.size();
      auto [end, ec] = std::from_chars(first, last, values[i]);
      const bool separator_ok = (i < 2) ? (end != last && *end == ',') : (end == last);
      if (ec != std::errc() || !separator_ok) {
        return Error{"bad swizzle " + quote(text) +
                     ": expected cute:B,M,S with three integers, e.g. cute:3,4,3"};
      }
      rest = rest.substr(static_cast<std::size_t>(end - first) + (i < 2 ? 1 : 0));
    }
    SwizzleSpec spec{SwizzleKind::cute, {values[0], values[1], values[2]}};
    if (std::string why = spec.cute.check(); !why.empty()) return Error{why};
    return spec;
  }
  return Error{"unknown swizzle " + quote(text) +
               ": expected none, xor, cute:B,M,S, tma32, tma64 or tma128"};
}

}  // namespace banklab
