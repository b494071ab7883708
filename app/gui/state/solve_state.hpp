#pragma once
// The Solve window's logic, without ImGui: which access families the user ticked, the ranking
// core's solve() gave for the current tile, the current layout counted against the same
// families (to compare), and applying a candidate to the scenario. panels/solve_panel.cpp draws it.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/report/study.hpp"
#include "core/solve/solve.hpp"

namespace banklab::gui {

// The families the window offers, one check box each.
struct SolveChoice {
  std::string_view family;  // parse_family() spelling
  std::string_view label;   // what the check box says
};
inline constexpr SolveChoice kSolveChoices[] = {
    {"row:st", "row stores, one element a lane"},
    {"row:4:st", "4-byte row stores (bf16x2)"},
    {"row:8:st", "8-byte row stores"},
    {"row:16:st", "16-byte row stores (float4)"},
    {"row", "row reads"},
    {"row:16", "16-byte row reads"},
    {"column", "column reads"},
    {"column:st", "column stores"},
    {"ldmatrix.x4", "ldmatrix.x4"},
    {"ldmatrix.x2", "ldmatrix.x2"},
    {"stmatrix.x4", "stmatrix.x4"},
};
inline constexpr std::size_t kSolveChoiceCount = std::size(kSolveChoices);

using SolveChoices = std::array<bool, kSolveChoiceCount>;

// "row:16:st,column": the check boxes ticked (each name one of kSolveChoices' families).
Expected<SolveChoices> parse_solve_choices(std::string_view list);

struct SolveState {
  // The transpose of the lesson by default: rows written one element a lane, columns read.
  SolveChoices chosen = {true, false, false, false, false, false, true};
  int max_overhead = -1;  // bytes; -1: no limit

  // The last solve, for the tile it was run on (dtype and shape; its pad and swizzle were
  // today's layout).
  std::optional<TileLayout> solved_for;
  std::optional<SolveResult> result;
  std::optional<Candidate> today;  // today's layout counted against the same families
  std::string today_rejected;      // or why they cannot run on it
  std::string error;               // why solve() refused (families, tile), "" when it ran
  int selected = 0;                // the candidate the window compares with today's

  // The scenario on screen with the selected candidate's layout, studied for the comparison
  // views; rebuilt when the selection or the scenario on screen changes.
  std::optional<Study> preview;
  int preview_of = -1;                 // the candidate it shows
  std::uint64_t preview_revision = 0;  // AppState::study_revision of the scenario on screen
};

// Whether family i can run on a tile of this dtype and shape, and why not.
Expected<void> choice_available(std::size_t i, const TileLayout& tile);

// Runs solve() for the ticked families (those that fit the tile) on the tile's dtype and shape,
// and counts the tile's own layout against them.
void run_solve(SolveState& p, const TileLayout& tile);

// Whether the result belongs to another dtype or shape than the tile's (the user changed it).
bool solve_stale(const SolveState& p, const TileLayout& tile);

// The tile with candidate i's pad and swizzle (its simplest spelling).
TileLayout applied_layout(const SolveState& p, int i, const TileLayout& tile);

// The preview of the selected candidate for `on_screen` (the Study the app draws, made by its
// refresh number `revision`): studied again only when the selection or the scenario changed.
// Needs a result.
const Study& candidate_preview(SolveState& p, const Study& on_screen, std::uint64_t revision);

}  // namespace banklab::gui
