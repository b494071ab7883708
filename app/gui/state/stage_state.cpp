#include "app/gui/state/stage_state.hpp"

#include <utility>

#include "app/frontend/scenario_flags.hpp"
#include "core/model/presets.hpp"

namespace banklab::gui {
namespace {

constexpr Comparison kComparisons[] = {
    {"transpose", "the transpose's row write and column read of float tile[32][32]"},
    {"transpose-padded", "the same through float tile[32][33]"},
    {"naive-pad-swizzle", "a column read of tile[32][32], tile[32][33] and the XOR swizzle"},
};

CompareItem preset_item(std::string_view name) {
  const Preset* p = find_preset(name);
  return CompareItem{std::string(p->name) + ": " + std::string(p->title), p->scenario};
}

}  // namespace

Expected<Scenario> read_scenario(std::string_view path) {
  return frontend::scenario_from_flags(frontend::ScenarioFlags{.file = std::string(path)});
}

void set_compare(Stage& stage, std::vector<CompareItem> items) {
  if (items.size() >= 3) stage.view = StageView::lanes;
  stage.compare = std::move(items);
}

std::span<const Comparison> comparisons() {
  return kComparisons;
}

std::vector<CompareItem> builtin_comparison(std::string_view name) {
  if (name == "transpose") return {preset_item("fp32-row-write"), preset_item("fp32-naive")};
  if (name == "transpose-padded") {
    CompareItem write = preset_item("fp32-pad1");
    write.scenario.pattern = AccessPattern::row;
    write.scenario.op = Op::st;
    write.name = "float tile[32][33], row write";
    return {write, preset_item("fp32-pad1")};
  }
  if (name == "naive-pad-swizzle") {
    // Like for like: column 0 of all three (the fp32-xor preset reads column 5, where its
    // lesson's arithmetic is more telling; the swizzle spreads every column alike).
    CompareItem xor_swizzle = preset_item("fp32-xor");
    xor_swizzle.scenario.index = 0;
    xor_swizzle.name = "fp32-xor: float tile[32][32], XOR swizzle c ^ r, column 0";
    return {preset_item("fp32-naive"), preset_item("fp32-pad1"), xor_swizzle};
  }
  return {};
}

Expected<std::vector<CompareItem>> parse_compare(std::string_view list) {
  std::vector<CompareItem> items;
  while (true) {
    const auto comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    if (item.empty()) return Error{"--compare takes names separated by commas, with none empty"};
    if (const Preset* p = find_preset(item)) {
      items.push_back(preset_item(p->name));
    } else if (auto builtin = builtin_comparison(item); !builtin.empty()) {
      items.insert(items.end(), builtin.begin(), builtin.end());
    } else {
      const Expected<Scenario> s = read_scenario(item);
      if (!s) {
        return Error{"--compare: " + quote(item) +
                     " is neither a preset, a comparison (transpose, transpose-padded, "
                     "naive-pad-swizzle) nor a readable scenario file: " +
                     s.error()};
      }
      items.push_back(CompareItem{std::string(item), *s});
    }
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  if (items.size() < 2 || items.size() > kMaxCompared) {
    return Error{"--compare shows 2 to 4 scenarios side by side; got " +
                 std::to_string(items.size())};
  }
  return items;
}

}  // namespace banklab::gui
