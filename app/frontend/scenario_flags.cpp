#include "app/frontend/scenario_flags.hpp"

#include <algorithm>

#include "app/frontend/file_io.hpp"
#include "app/frontend/scenario_file.hpp"
#include "core/base/find.hpp"

namespace banklab::frontend {

bool ScenarioFlags::has(std::string_view key) const {
  return find_by(keys, &KeyValue::key, key) != keys.end();
}

ScenarioFlags scenario_flags(const Args& args) {
  ScenarioFlags flags;
  if (const auto file = args.value(FlagName<kScenarioGroup>("scenario")))
    flags.file = std::string(*file);
  for (std::string_view name : args.given()) {
    if (find_scenario_key(name) != nullptr) {
      flags.keys.push_back({.key = std::string(name), .value = std::string(*args.value(name))});
    }
  }
  return flags;
}

Expected<void> check_one_form(const ScenarioFlags& flags) {
  return banklab::check_one_form(flags.keys);
}

Expected<Scenario> scenario_from_flags(const ScenarioFlags& flags) {
  if (!flags.file) return scenario_from_keys(flags.keys);
  // --scenario FILE: the file's lines, overridden by the other flags given. The file alone
  // first, so that a value it gets wrong is reported at its line even where a flag replaces it.
  const Expected<std::vector<KeyValue>> file = read_scenario_file(*flags.file);
  if (!file) return Error{file.error()};
  const std::string origin = input_name(*flags.file);
  if (const Expected<Scenario> alone = scenario_from_keys(*file, origin); !alone) return alone;
  std::vector<KeyValue> merged;
  for (const KeyValue& v : *file) {
    if (!flags.has(v.key)) merged.push_back(v);
  }
  merged.insert(merged.end(), flags.keys.begin(), flags.keys.end());
  return scenario_from_keys(merged, origin);
}

Expected<WarpAccess> access_from_flags(const ScenarioFlags& flags) {
  const Expected<Scenario> s = scenario_from_keys(flags.keys);
  if (!s) return Error{s.error()};
  WarpAccess access{.op = s->op, .width = s->width, .offsets = s->raw_offsets};
  for (int l = 0; l < kWarpSize; ++l) {
    if ((s->lane_mask >> l & 1u) == 0) access.offsets[static_cast<std::size_t>(l)] = kInactiveLane;
  }
  return access;
}

}  // namespace banklab::frontend
