#pragma once
// The project's own H200 figures that lesson texts quote, copied from docs/gpu-results.md (one
// source; a test checks that every value below still appears there word for word). A lesson
// names them as {measured:KEY}.
#include <span>
#include <string_view>

namespace banklab {

struct Measured {
  std::string_view key;    // "fp32-naive"
  std::string_view value;  // "41.5 / 41.3 %": the text as docs/gpu-results.md has it
  std::string_view what;   // what was measured
};

std::span<const Measured> measured();
const Measured* find_measured(std::string_view key);

// The machine behind the figures (docs/gpu-results.md, first lines and the microbenchmark).
inline constexpr int kH200SmCount = 132;
inline constexpr double kH200MeasuredClockGHz = 1.969;

}  // namespace banklab
