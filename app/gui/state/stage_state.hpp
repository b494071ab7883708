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

#include "app/figures/slide.hpp"
#include "core/base/expected.hpp"
#include "core/model/scenario.hpp"

namespace banklab::gui {

// What the stage shows: one view, or (in a lesson) the step as a slide: its title, its text and
// the figures it names (figures/slide.hpp).
enum class StageView : std::uint8_t { banks, lanes, tile, slide };

struct CompareItem {
  std::string name;  // what its column is headed with
  Scenario scenario;
  friend bool operator==(const CompareItem&, const CompareItem&) = default;
};

struct Stage {
  bool presenting = false;            // F5: the view fills the window, large type, keys drive it
  StageView view = StageView::banks;  // slide: only in a lesson (else drawn as the bank view)
  std::vector<CompareItem> compare;   // 2-4 side by side; empty: the scenario on screen alone
};

inline constexpr std::size_t kMaxCompared = 4;

// A slide's layout (which of the candidate arrangements gives its figures the largest numbers)
// costs a few figure layouts: chosen when the step, the scenario or the size changes, not every
// frame.
struct SlideCache {
  int step = -1;
  Scenario scenario;
  float width = 0, height = 0, font = 0;
  std::uint8_t tile_view = 0;
  bool footer = false;
  figures::SlideLayout layout;
};

// N on a lesson's slide in presentation mode: the step's speaker notes (the text the slide left
// out), page by page, then the slide again. Kept for the step they were asked on.
struct NotesShown {
  int step = -1;  // the lesson step whose notes are on screen; -1: none, the slide
  int page = 0;
  int pages = 1;  // as the last frame laid them out
};

// The built-in comparisons by name: "transpose" (row write, column read of float
// tile[32][32]), "transpose-padded" (the same over tile[32][33]), "naive-pad-swizzle".
struct Comparison {
  std::string_view name;
  std::string_view what;
};
std::span<const Comparison> comparisons();
std::vector<CompareItem> builtin_comparison(std::string_view name);  // empty: no such name

// Shows `items` side by side (empty: the comparison ends). Three or four panes are too narrow
// for 32 bank columns of readable numbers (426 px at 1280x720), so they open on the lane map,
// which runs down each pane; V still switches to the bank view.
void set_compare(Stage& stage, std::vector<CompareItem> items);

// A scenario file (key = value lines), read as --scenario FILE reads it.
Expected<Scenario> read_scenario(std::string_view path);

// "A,B,C": each item a preset, a built-in comparison, or a scenario file; 2 to 4 in all.
Expected<std::vector<CompareItem>> parse_compare(std::string_view list);

}  // namespace banklab::gui
