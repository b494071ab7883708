#pragma once
// Text helpers that every front end shares: printf into a std::string (GCC 12 has no
// std::format), and the lane mask as text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace banklab {

// printf's format into a new string, or appended to one: format("%.1f GB/s", gbps).
[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...);
[[gnu::format(printf, 2, 3)]] void append_format(std::string& out, const char* fmt, ...);

// User text as a message may show it: at most 60 bytes (then "…"), control bytes (C0, DEL, C1
// such as U+009B) and bytes that are not UTF-8 as \xNN, so that a huge token or an escape
// sequence never reaches the terminal whole.
std::string shown(std::string_view text, std::size_t max_chars = 60);
// The same inside single quotes: 'fp128'.
std::string quote(std::string_view text);

// The lanes of a mask (bit L = lane L): as hex, "0xffff" (JSON, --lanes); as ranges for people,
// "0-15, 20" ("none" when empty).
std::string lane_mask_hex(std::uint32_t mask);
std::string lane_ranges(std::uint32_t mask);

}  // namespace banklab
