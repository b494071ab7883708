#pragma once
// Presentation and comparison, the "stage": one view of the scenario on screen filling the
// window in large type, or 2-4 scenarios side by side, each with its wavefronts and verdict.
//
//   banklab-gui --compare transpose                     the row write and the column read of
//                                                       one float tile[32][32]
//   banklab-gui --compare fp32-naive,fp32-pad1,fp32-xor naive | pad | swizzle
//   banklab-gui --compare fp32-naive,mine.scenario      a preset beside a scenario file
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/scenario.hpp"

namespace banklab::gui {

enum class StageView : std::uint8_t { banks, lanes, tile };

struct CompareItem {
  std::string name;  // what its column is headed with
  Scenario scenario;
  friend bool operator==(const CompareItem&, const CompareItem&) = default;
};

struct Stage {
  bool presenting = false;  // F5: the view fills the window, large type, keys drive it
  StageView view = StageView::banks;
  std::vector<CompareItem> compare;  // 2-4 side by side; empty: the scenario on screen alone
};

inline constexpr std::size_t kMaxCompared = 4;

// The built-in comparisons by name: "transpose" (row write, column read of float
// tile[32][32]), "transpose-padded" (the same over tile[32][33]), "naive-pad-swizzle".
struct Comparison {
  std::string_view name;
  std::string_view what;
};
std::span<const Comparison> comparisons();
std::vector<CompareItem> builtin_comparison(std::string_view name);  // empty: no such name

// A scenario file (key = value lines), read as --scenario FILE reads it.
Expected<Scenario> read_scenario(std::string_view path);

// "A,B,C": each item a preset, a built-in comparison, or a scenario file; 2 to 4 in all.
Expected<std::vector<CompareItem>> parse_compare(std::string_view list);

}  // namespace banklab::gui
