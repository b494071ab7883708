#pragma once
// Text helpers that every front end shares: printf into a std::string (GCC 12 has no
// std::format), user text in messages, the readers of whole numbers and "RxC" sizes, and the
// lane mask as text.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"

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

// The text without blanks (space, tab, CR, LF) at either end.
std::string_view trim(std::string_view text);

// A whole decimal number in [min, max] ("+3" too), or a sentence naming `what` and the text:
// "--count expects a whole number, got 'x'", "--count must be between 1 and 1000, got '0'".
Expected<std::int64_t> parse_integer(std::string_view text, std::string_view what, std::int64_t min,
                                     std::int64_t max);

// Two whole numbers joined by an 'x' or 'X': a tile's rows x columns ("32x32"), a picture's
// width x height ("1920x1080"); nullopt when the text is not that. Each number reads as
// parse_integer reads it and fits an int; the caller states its range.
struct Dimensions {
  int first = 0;
  int second = 0;
};
std::optional<Dimensions> parse_dimensions(std::string_view text);

// The lanes of a mask (bit L = lane L): as hex, "0xffff" (JSON, --lanes); as ranges for people,
// "0-15, 20" ("none" when empty).
std::string lane_mask_hex(std::uint32_t mask);
std::string lane_ranges(std::uint32_t mask);

}  // namespace banklab
