#pragma once
// The scenario flags of `banklab analyze` (--preset, --dtype, --tile, --pad, --swizzle,
// --access, --index, --width, --op, --lanes) as plain core functions, so that the CLI, the
// lesson files (whose steps name their scenario with the same flags) and the GUI read them with
// one set of rules and one set of messages.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"
#include "core/model/scenario.hpp"

namespace banklab {

// The flags, in the order they are applied: --preset first (it replaces the whole scenario),
// then the rest, so "--preset X --pad 2" and "--pad 2 --preset X" mean the same.
inline constexpr std::string_view kScenarioFlags[] = {
    "preset", "dtype", "tile", "pad", "swizzle", "access", "op", "index", "width", "lanes"};
bool is_scenario_flag(std::string_view name);

// Applies one flag (name without the dashes) to `s`; an Error names the flag and the value:
// "--dtype expects fp8, bf16, fp32 or fp64 (...), got 'fp128'".
Expected<Scenario> apply_scenario_flag(Scenario s, std::string_view flag, std::string_view value);

// "ffff0000" or "0xffff0000": bit L set = lane L takes part.
Expected<std::uint32_t> parse_lane_mask(std::string_view text);

// Words as a command line gives them: "--flag value" or "--flag=value", scenario flags only,
// each at most once, applied in kScenarioFlags order.
Expected<Scenario> scenario_from_words(std::span<const std::string> words);

}  // namespace banklab
