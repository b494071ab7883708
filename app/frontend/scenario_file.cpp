#include "app/frontend/scenario_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "app/frontend/file_io.hpp"
#include "app/frontend/scenario_flags.hpp"
#include "app/frontend/text_file.hpp"
#include "core/base/format.hpp"

namespace banklab::frontend {
namespace {

std::string_view trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

}  // namespace

std::string scenario_file_text(const Scenario& s) {
  std::string out = "# BankLab scenario: " + describe(s) + "\n";
  out += "# Open it with: banklab analyze --scenario FILE  or  banklab-gui --scenario FILE\n";
  const auto line = [&](std::string_view key, const std::string& value) {
    out += std::string(key) + " = " + value + "\n";
  };
  if (s.pattern == AccessPattern::custom) {
    line("op", std::string(op_name(s.op)));
    line("width", std::to_string(s.effective_width()));
    std::string offsets;
    for (std::int64_t o : s.custom_offsets) {
      if (!offsets.empty()) offsets += ',';
      offsets += std::to_string(o);
    }
    line("offsets", offsets);
  } else {
    line("dtype", std::string(dtype_name(s.tile.dtype)));
    line("tile", std::to_string(s.tile.rows) + "x" + std::to_string(s.tile.cols));
    line("pad", std::to_string(s.tile.pad));
    line("swizzle", to_string(s.tile.swizzle));
    line("access",
         std::string(s.pattern == AccessPattern::matrix ? op_name(s.op) : pattern_name(s.pattern)));
    line("index", std::to_string(s.index));
    if (s.pattern != AccessPattern::matrix) line("op", std::string(op_name(s.op)));
    if (s.width != 0) line("width", std::to_string(s.width));
  }
  line("lanes", lane_mask_hex(s.lane_mask));
  return out;
}

Expected<ScenarioFile> read_scenario_file(const std::string& path) {
  const Expected<std::string> text = read_input_file(path, kMaxScenarioFileBytes, "scenario file");
  if (!text) return Error{text.error()};
  ScenarioFile file;
  std::vector<std::string_view> keys;
  std::string_view rest = *text;
  for (int number = 1; !rest.empty(); ++number) {
    const std::size_t end = rest.find('\n');
    std::string_view line = trim(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (number == 1 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
    if (line.empty() || line.starts_with('#')) continue;
    const std::string where = input_name(path) + ":" + std::to_string(number) + ": ";
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos) {
      return Error{where + "expected 'key = value', got " + quote(line)};
    }
    const std::string_view key = trim(line.substr(0, equals));
    const std::string_view value = trim(line.substr(equals + 1));
    if (!is_scenario_flag(key) || key == "scenario") {
      return Error{where + "unknown key " + quote(key) +
                   "; the keys are the scenario flags: preset, dtype, tile, pad, swizzle, "
                   "access, index, width, op, lanes, offsets"};
    }
    if (std::ranges::find(keys, key) != keys.end()) {
      return Error{where + std::string(key) + " is given twice"};
    }
    if (value.empty()) return Error{where + std::string(key) + " has no value"};
    keys.push_back(key);
    file.words.push_back("--" + std::string(key) + "=" + std::string(value));
    file.lines.push_back(number);
  }
  return file;
}

Expected<bool> write_scenario_file(const std::string& path, const Scenario& s) {
  return write_text_file(path, scenario_file_text(s), "a scenario");
}

}  // namespace banklab::frontend
