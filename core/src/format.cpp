#include "banklab/format.hpp"

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
