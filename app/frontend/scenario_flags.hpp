#pragma once
// The scenario flags of banklab analyze, explain, export, gpu-bench --pattern and banklab-gui:
// --scenario FILE, and one flag for each key of core's table (core/model/scenario_keys.hpp),
// whose names, help lines, rules and messages they are. A tile and an access pattern over it
// (--preset --dtype --tile --pad --swizzle --access --index --width --op --lanes), or 32 raw
// byte offsets (--offsets with --op, --width and --lanes).
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/frontend/args.hpp"
#include "core/base/expected.hpp"
#include "core/base/key_value_file.hpp"
#include "core/model/access.hpp"
#include "core/model/scenario.hpp"
#include "core/model/scenario_keys.hpp"

namespace banklab::frontend {

// The flag of core's key `name`, as --help shows it; a name that is not a key does not compile.
consteval FlagSpec scenario_flag(std::string_view name) {
  for (const ScenarioKey& k : kScenarioKeys) {
    if (k.name == name) return {k.name, k.value_name, k.help};
  }
  throw "scenario_flag: not a key of kScenarioKeys";
}

namespace detail {
consteval std::size_t count_keys(bool raw) {
  std::size_t n = 0;
  for (const ScenarioKey& k : kScenarioKeys) n += (k.form == KeyForm::raw) == raw;
  return n;
}
}  // namespace detail

// --scenario FILE, then every key of the scenario form and those both forms share, in table order.
inline constexpr auto kScenarioFlags = [] {
  std::array<FlagSpec, 1 + detail::count_keys(false)> flags{};
  flags[0] = {"scenario", "FILE",
              "start from a scenario file (key = value lines, the flags below)"};
  std::size_t n = 1;
  for (const ScenarioKey& k : kScenarioKeys) {
    if (k.form != KeyForm::raw) flags[n++] = {k.name, k.value_name, k.help};
  }
  return flags;
}();
// The raw form's own keys (--offsets).
inline constexpr auto kOffsetsFlags = [] {
  std::array<FlagSpec, detail::count_keys(true)> flags{};
  std::size_t n = 0;
  for (const ScenarioKey& k : kScenarioKeys) {
    if (k.form == KeyForm::raw) flags[n++] = {k.name, k.value_name, k.help};
  }
  return flags;
}();
// The element type and the tile, also flags of banklab solve.
inline constexpr FlagSpec kDtypeFlag = scenario_flag("dtype");
inline constexpr FlagSpec kTileFlag = scenario_flag("tile");

inline constexpr FlagGroup kScenarioGroup{"Scenario form: a tile and an access pattern over it.",
                                          kScenarioFlags};
inline constexpr FlagGroup kOffsetsGroup{"Raw form: 32 byte offsets.", kOffsetsFlags};
// Both forms, for a command that takes nothing else under these headings.
inline constexpr FlagGroup kScenarioGroups[] = {kScenarioGroup, kOffsetsGroup};

// The scenario flags as given: the file, and every key's flag in command-line order.
struct ScenarioFlags {
  std::optional<std::string> file = {};  // --scenario FILE
  std::vector<KeyValue> keys = {};       // --dtype bf16 ... (line 0: a flag, not a file's line)

  bool given() const { return file.has_value() || !keys.empty(); }
  bool has(std::string_view key) const;
};
// Every scenario flag in `args` (the command's syntax declares them: kScenarioGroups).
ScenarioFlags scenario_flags(const Args& args);

// The scenario the flags describe: the defaults, the --preset or the --scenario file (its
// lines, each checked alone first so that an error names its line: scenario_file.hpp), with
// the other flags applied; with --offsets, a raw scenario of those offsets. The first flag
// that cannot be read, or that does not fit the others, ends it with a message naming the flag.
Expected<Scenario> scenario_from_flags(const ScenarioFlags& flags);

// The raw form as one access (the lanes switched off are idle), for the commands that take raw
// addresses rather than a scenario (analyze, gpu-bench --pattern).
Expected<WarpAccess> access_from_flags(const ScenarioFlags& flags);

// With --offsets, a flag of the scenario form is an error, never silently ignored
// ("--pad belongs to the scenario form; ...").
Expected<void> check_one_form(const ScenarioFlags& flags);

}  // namespace banklab::frontend
