#pragma once
// Text helpers that every front end shares: printf into a std::string (GCC 12 has no
// std::format), and the lane mask as text.
#include <cstdint>
#include <string>

namespace banklab {

// printf's format into a new string, or appended to one: format("%.1f GB/s", gbps).
[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...);
[[gnu::format(printf, 2, 3)]] void append_format(std::string& out, const char* fmt, ...);

// The lanes of a mask (bit L = lane L): as hex, "0xffff" (JSON, --lanes); as ranges for people,
// "0-15, 20" ("none" when empty).
std::string lane_mask_hex(std::uint32_t mask);
std::string lane_ranges(std::uint32_t mask);

}  // namespace banklab
