#include "core/base/format.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstdarg>
#include <cstdio>

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

std::string shown(std::string_view text, std::size_t max_chars) {
  // Cut at a character, not inside a UTF-8 sequence.
  std::size_t cut = std::min(text.size(), max_chars);
  while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  std::string q;
  for (std::size_t i = 0; i < cut; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7F) {
      static constexpr char kHex[] = "0123456789abcdef";
      q += "\\x";
      q += kHex[byte >> 4];
      q += kHex[byte & 0xF];
    } else {
      q += text[i];
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
