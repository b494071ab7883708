#pragma once
// The lesson as a table: every scenario it discusses, with a name, a title and the one-line
// lesson it teaches. The GUI's preset list, `banklab presets`, the tests and the GPU kernel list
// all read this one table.
#include <span>
#include <string>
#include <string_view>

#include "core/model/scenario.hpp"

namespace banklab {

struct Preset {
  std::string_view name;    // "fp32-naive": what the CLI and --preset take
  std::string_view title;   // "float tile[32][32], column read"
  std::string_view lesson;  // one line: what to see
  Scenario scenario;
  int expected_wavefronts;  // what the lesson claims (checked by the tests)
};

std::span<const Preset> presets();
const Preset* find_preset(std::string_view name);
// "'x' is not a preset; the presets are fp32-naive, fp32-pad1, ...".
std::string unknown_preset(std::string_view name);
inline constexpr std::string_view kDefaultPreset = "fp32-naive";

}  // namespace banklab
