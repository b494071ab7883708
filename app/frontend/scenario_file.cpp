#include "app/frontend/scenario_file.hpp"

#include <algorithm>

#include "app/frontend/file_io.hpp"
#include "app/frontend/text_file.hpp"
#include "core/base/format.hpp"
#include "core/model/scenario_keys.hpp"

namespace banklab::frontend {

std::string scenario_file_text(const Scenario& s) {
  std::string out = "# BankLab scenario: " + describe(s) + "\n";
  out += "# Open it with: banklab analyze --scenario FILE  or  banklab-gui --scenario FILE\n";
  for (const KeyValue& v : scenario_key_values(s)) out += key_value_line(v.key, v.value, v.kind);
  return out;
}

Expected<std::vector<KeyValue>> read_scenario_file(const std::string& path) {
  const Expected<std::string> text = read_input_file(path, kMaxScenarioFileBytes, "scenario file");
  if (!text) return Error{text.error()};
  KeyValueLines file = read_key_value_lines(*text);
  // Every wrong line, whether the line itself or its key is wrong; the first is reported.
  std::vector<KeyValueError> wrong = file.errors;
  for (auto v = file.values.begin(); v != file.values.end(); ++v) {
    if (find_scenario_key(v->key) == nullptr) {
      wrong.push_back({v->line, "unknown key " + quote(v->key) +
                                    "; the keys are the scenario flags: " + scenario_key_names()});
    } else if (std::find_if(file.values.begin(), v,
                            [&](const KeyValue& before) { return before.key == v->key; }) != v) {
      wrong.push_back({v->line, v->key + " is given twice"});
    } else if (v->value.empty()) {
      wrong.push_back({v->line, v->key + " has no value"});
    }
  }
  if (wrong.empty()) return std::move(file.values);
  const KeyValueError& first = *std::min_element(
      wrong.begin(), wrong.end(),
      [](const KeyValueError& a, const KeyValueError& b) { return a.line < b.line; });
  return Error{input_name(path) + ":" + std::to_string(first.line) + ": " + first.message};
}

Expected<void> write_scenario_file(const std::string& path, const Scenario& s) {
  return write_text_file(path, scenario_file_text(s), "a scenario");
}

}  // namespace banklab::frontend
