#include "core/base/format.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <system_error>

namespace banklab {
namespace {

void append_v(std::string& out, const char* fmt, va_list list) {
  va_list again;
  va_copy(again, list);
  const int n = std::vsnprintf(nullptr, 0, fmt, list);
  assert(n >= 0 && "format: a malformed format string");
  const std::size_t old_size = out.size();
  out.resize(old_size + static_cast<std::size_t>(n) + 1);  // room for vsnprintf's '\0'
  std::vsnprintf(out.data() + old_size, static_cast<std::size_t>(n) + 1, fmt, again);
  va_end(again);
  out.pop_back();
}

}  // namespace

std::string format(const char* fmt, ...) {
  std::string out;
  va_list list;
  va_start(list, fmt);
  append_v(out, fmt, list);
  va_end(list);
  return out;
}

void append_format(std::string& out, const char* fmt, ...) {
  va_list list;
  va_start(list, fmt);
  append_v(out, fmt, list);
  va_end(list);
}

namespace {

// The length of the well-formed UTF-8 sequence at text[i] (1 to 4), or 0 when the bytes there
// are not one (a stray continuation byte, a truncated or overlong sequence, a surrogate).
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = at(i);
  const std::size_t n = lead < 0x80                    ? 1
                        : lead >= 0xC2 && lead <= 0xDF ? 2
                        : lead >= 0xE0 && lead <= 0xEF ? 3
                        : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                       : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((at(i + k) & 0xC0) != 0x80) return 0;
  }
  const unsigned char second = n > 1 ? at(i + 1) : 0;
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0) ||
      (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90)) {
    return 0;
  }
  return n;
}

}  // namespace

std::string shown(std::string_view text, std::size_t max_chars) {
  // Cut at a character, not inside a UTF-8 sequence.
  std::size_t cut = std::min(text.size(), max_chars);
  while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  // A terminal acts on C0 controls and DEL, on C1 controls (U+0080..U+009F: CSI is U+009B) and,
  // in an 8-bit locale, on bytes that are not UTF-8: each of those bytes is shown as \xNN.
  std::string q;
  const auto escape = [&](unsigned char byte) {
    static constexpr char kHex[] = "0123456789abcdef";
    q += "\\x";
    q += kHex[byte >> 4];
    q += kHex[byte & 0xF];
  };
  for (std::size_t i = 0; i < cut;) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_sequence(text.substr(0, cut), i);
    const bool c1 = n == 2 && byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    if (n == 0 || byte < 0x20 || byte == 0x7F || c1) {
      for (std::size_t k = 0; k < std::max<std::size_t>(n, 1); ++k) {
        escape(static_cast<unsigned char>(text[i + k]));
      }
      i += std::max<std::size_t>(n, 1);
    } else {
      q.append(text.substr(i, n));
      i += n;
    }
  }
  if (cut < text.size()) q += "\u2026";
  return q;
}

std::string quote(std::string_view text) {
  std::string q(1, '\'');  // appended, not "'" + ...: GCC 12 warns falsely (-Wrestrict)
  q += shown(text);
  q += '\'';
  return q;
}

std::string_view trim(std::string_view text) {
  constexpr std::string_view kBlanks = " \t\r\n";
  const std::size_t first = text.find_first_not_of(kBlanks);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kBlanks) - first + 1);
}

Expected<std::int64_t> parse_integer(std::string_view text, std::string_view what, std::int64_t min,
                                     std::int64_t max) {
  std::int64_t number = 0;
  const char* end = text.data() + text.size();
  // from_chars rejects a leading '+'; accept it, since "+3" is a number to any reader.
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
  const auto [ptr, ec] = std::from_chars(begin, end, number);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
    return Error{std::string(what) + " expects a whole number, got " + quote(text)};
  }
  if (ec == std::errc::result_out_of_range || number < min || number > max) {
    return Error{std::string(what) + " must be between " + std::to_string(min) + " and " +
                 std::to_string(max) + ", got " + shown(text)};
  }
  return number;
}

std::optional<Dimensions> parse_dimensions(std::string_view text) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string_view::npos) return std::nullopt;
  const Expected<std::int64_t> first = parse_integer(text.substr(0, x), "", INT_MIN, INT_MAX);
  const Expected<std::int64_t> second = parse_integer(text.substr(x + 1), "", INT_MIN, INT_MAX);
  if (!first || !second) return std::nullopt;
  return Dimensions{static_cast<int>(*first), static_cast<int>(*second)};
}

std::string lane_mask_hex(std::uint32_t mask) {
  char digits[8];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, mask, 16);
  return "0x" + std::string(digits, end);
}

std::string lane_ranges(std::uint32_t mask) {
  std::string out;
  int lane = 0;
  while (lane < 32) {
    if (!(mask >> lane & 1u)) {
      ++lane;
      continue;
    }
    int end = lane;
    while (end + 1 < 32 && (mask >> (end + 1) & 1u)) ++end;
    if (!out.empty()) out += ", ";
    out += std::to_string(lane);
    if (end > lane) {
      out += '-';
      out += std::to_string(end);
    }
    lane = end + 1;
  }
  return out.empty() ? "none" : out;
}

}  // namespace banklab
