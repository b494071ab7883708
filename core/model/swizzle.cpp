#include "core/model/swizzle.hpp"

#include <bit>
#include <charconv>
#include <ostream>
#include <sstream>

#include "core/base/format.hpp"
#include "core/model/hardware.hpp"

namespace banklab {

std::string Swizzle::check() const {
  // Summed in 64 bits, |S| taken in 64 bits: absurd parameters must not overflow.
  const std::int64_t abs_shift = shift < 0 ? -std::int64_t{shift} : std::int64_t{shift};
  if (bits >= 0 && base >= 0 && abs_shift >= bits && std::int64_t{bits} + base + abs_shift <= 30)
    return {};
  std::ostringstream msg;
  msg << "Swizzle<" << bits << "," << base << "," << shift << ">";
  if (bits < 0 || base < 0) {
    msg << " has a negative B or M; B and M must be >= 0 (only S may be negative)";
  } else if (abs_shift < bits) {
    // With |S| < B the source bits overlap the bits they change, and the map is no longer its
    // own inverse; with S = 0 two offsets land on one. CuTe refuses |S| < B for this reason.
    msg << " is not its own inverse: |S| (" << abs_shift << ") must be >= B (" << bits
        << ") so the bits read are not the bits written";
  } else {
    msg << " reaches bit " << std::int64_t{bits} + base + abs_shift
        << "; B + M + |S| must be at most 30";
  }
  return msg.str();
}

std::ostream& operator<<(std::ostream& os, const Swizzle& s) {
  return os << "Swizzle<" << s.bits << "," << s.base << "," << s.shift << ">";
}

int TritonSwizzle::column_xor(int row, int cols) const {
  // Row r XORs the bases of its set bits: Triton's linear layout, bit by bit.
  int x = 0;
  for (int k = 0; (row >> k) != 0; ++k) {
    if ((row >> k & 1) == 0) continue;
    const std::int64_t phase = (std::int64_t{1} << k) / per_phase % max_phase;
    x ^= static_cast<int>(vec * phase % cols);
  }
  return x;
}

std::string TritonSwizzle::check() const {
  constexpr int kMax = 1024;
  if (vec >= 1 && vec <= kMax && per_phase >= 1 && per_phase <= kMax && max_phase >= 1 &&
      max_phase <= kMax) {
    return {};
  }
  return "triton:" + std::to_string(vec) + "," + std::to_string(per_phase) + "," +
         std::to_string(max_phase) + ": vec, perPhase and maxPhase must each be between 1 and " +
         std::to_string(kMax);
}

int SwizzleSpec::tma_span_bytes() const {
  switch (kind) {
    case SwizzleKind::tma32:
      return 32;
    case SwizzleKind::tma64:
      return 64;
    case SwizzleKind::tma128:
      return 128;
    default:
      return 0;
  }
}

int SwizzleSpec::tma_repeat_bytes() const {
  return tma_span_bytes() * 8;
}

int SwizzleSpec::tma_alignment_bytes() const {
  if (kind == SwizzleKind::none) return kTmaAlignmentBytes;
  return tma_repeat_bytes();
}

namespace {

std::string triple(std::string_view prefix, int a, int b, int c) {
  std::string text(prefix);
  text += std::to_string(a);
  text += ',';
  text += std::to_string(b);
  text += ',';
  text += std::to_string(c);
  return text;
}

// "B,M,S" or "VEC,PERPHASE,MAXPHASE": three integers separated by commas, nothing else.
bool parse_triple(std::string_view rest, int values[3]) {
  for (int i = 0; i < 3; ++i) {
    const char* first = rest.data();
    const char* last = rest.data() + rest.size();
    auto [end, ec] = std::from_chars(first, last, values[i]);
    const bool separator_ok = (i < 2) ? (end != last && *end == ',') : (end == last);
    if (ec != std::errc() || !separator_ok) return false;
    rest = rest.substr(static_cast<std::size_t>(end - first) + (i < 2 ? 1 : 0));
  }
  return true;
}

}  // namespace

std::string to_string(const SwizzleSpec& s) {
  switch (s.kind) {
    case SwizzleKind::none:
      return "none";
    case SwizzleKind::xor_columns:
      return "xor";
    case SwizzleKind::cute:
      return triple("cute:", s.cute.bits, s.cute.base, s.cute.shift);
    case SwizzleKind::cute_elem:
      return triple("cute-elem:", s.cute.bits, s.cute.base, s.cute.shift);
    case SwizzleKind::tma32:
      return "tma32";
    case SwizzleKind::tma64:
      return "tma64";
    case SwizzleKind::tma128:
      return "tma128";
    case SwizzleKind::triton:
      return triple("triton:", s.triton.vec, s.triton.per_phase, s.triton.max_phase);
  }
  return "none";
}

std::ostream& operator<<(std::ostream& os, const SwizzleSpec& s) {
  return os << to_string(s);
}

Expected<SwizzleSpec> parse_swizzle(std::string_view text) {
  if (text == "none") return SwizzleSpec{};
  if (text == "xor") return SwizzleSpec{SwizzleKind::xor_columns};
  if (text == "tma32") return SwizzleSpec{SwizzleKind::tma32};
  if (text == "tma64") return SwizzleSpec{SwizzleKind::tma64};
  if (text == "tma128") return SwizzleSpec{SwizzleKind::tma128};
  struct Form {
    std::string_view prefix;
    SwizzleKind kind;
    std::string_view expected;
  };
  constexpr Form kForms[] = {
      {"cute:", SwizzleKind::cute,
       "cute:B,M,S with three integers (byte offsets), e.g. cute:3,4,3"},
      {"cute-elem:", SwizzleKind::cute_elem,
       "cute-elem:B,M,S with three integers (element indices), e.g. cute-elem:3,3,3"},
      {"triton:", SwizzleKind::triton,
       "triton:VEC,PERPHASE,MAXPHASE with three integers, e.g. triton:8,1,8"},
  };
  for (const Form& f : kForms) {
    if (!text.starts_with(f.prefix)) continue;
    int v[3] = {0, 0, 0};
    if (!parse_triple(text.substr(f.prefix.size()), v)) {
      return Error{"bad swizzle " + quote(text) + ": expected " + std::string(f.expected)};
    }
    if (f.kind == SwizzleKind::triton) {
      const SwizzleSpec spec{f.kind, {}, {v[0], v[1], v[2]}};
      if (std::string why = spec.triton.check(); !why.empty()) return Error{why};
      return spec;
    }
    const SwizzleSpec spec{f.kind, {v[0], v[1], v[2]}};
    if (std::string why = spec.cute.check(); !why.empty()) return Error{why};
    return spec;
  }
  return Error{"unknown swizzle " + quote(text) +
               ": expected none, xor, cute:B,M,S (bytes), cute-elem:B,M,S (elements), tma32, "
               "tma64, tma128 or triton:VEC,PERPHASE,MAXPHASE"};
}

}  // namespace banklab
