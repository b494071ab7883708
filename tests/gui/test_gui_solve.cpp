// The Solve window driven as a user drives it: synthetic mouse clicks on its check boxes, its
// Solve button and an Apply button (at the rectangles the window reports), headless; the ranking
// and the applied layout checked against core's solve(). And --solve on the command line.
#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "app/gui/platform/options.hpp"
#include "app/gui/state/solve_state.hpp"
#include "core/solve/solve.hpp"
#include "tests/gui/headless_imgui.hpp"

namespace banklab::gui {
namespace {

std::size_t choice(std::string_view family) {
  for (std::size_t i = 0; i < kSolveChoiceCount; ++i) {
    if (kSolveChoices[i].family == family) return i;
  }
  FAIL("no such choice: " << family);
  return 0;
}

const SolveGeometry& solve_geometry(const AppState& s) {
  REQUIRE(s.frame.geometry.solve.has_value());
  return *s.frame.geometry.solve;
}

}  // namespace

TEST_CASE("the Solve window: tick the families, Solve, compare, Apply, with mouse clicks") {
  HeadlessImGui ui;
  AppState s;
  REQUIRE(load_preset(s, "fp32-naive"));  // float tile[32][32], column read
  s.user.views.solve = true;
  ui.frame(s);
  REQUIRE(solve_geometry(s).choices.size() == kSolveChoiceCount);
  CHECK(s.user.solve.chosen[choice("row:st")]);
  CHECK(s.user.solve.chosen[choice("column")]);

  // The lesson's second question: rows stored 16 bytes a lane, columns read.
  ui.click(s, solve_geometry(s).choices[choice("row:st")].centre());
  ui.click(s, solve_geometry(s).choices[choice("row:16:st")].centre());
  CHECK_FALSE(s.user.solve.chosen[choice("row:st")]);
  CHECK(s.user.solve.chosen[choice("row:16:st")]);
  CHECK_FALSE(s.user.solve.result.has_value());
  ui.click(s, solve_geometry(s).solve.centre());

  // The ranking is core's, for these two families.
  REQUIRE(s.user.solve.result.has_value());
  const Expected<SolveResult> expected = solve(
      {DType::fp32, 32, 32, {*parse_family("row:16:st"), *parse_family("column")}, std::nullopt});
  REQUIRE(expected.has_value());
  const SolveResult& shown = *s.user.solve.result;
  REQUIRE(shown.candidates.size() == expected->candidates.size());
  CHECK(shown.candidates[0].layout == expected->candidates[0].layout);
  CHECK(shown.candidates[0].layout.swizzle.kind == SwizzleKind::xor_columns);
  // Today's layout, the plain tile, counted against the same families: 32 column reads of 32
  // wavefronts, 8 row stores of 4.
  REQUIRE(s.user.solve.today.has_value());
  CHECK(s.user.solve.today->total_wavefronts == 32 * 32 + 8 * 4);
  // The comparison derived the access on screen under the best candidate: one wavefront.
  REQUIRE(s.user.solve.preview.has_value());
  CHECK(s.user.solve.preview->evaluation.analysis->wavefront_count() == 1);

  // Apply the second candidate, then the first, each with its own button. (A new table sizes
  // its columns in its first frame: the user sees it settled a frame later, and so does this.)
  ui.frame(s);
  const SolveGeometry g = solve_geometry(s);
  REQUIRE(g.apply.size() >= 2);
  CHECK(g.apply_rank[0] == 0);
  ui.click(s, g.apply[1].centre());
  CHECK(s.user.scenario.tile.swizzle == shown.candidates[1].layout.swizzle);
  CHECK(s.user.solve.selected == 1);
  ui.click(s, solve_geometry(s).apply[0].centre());
  CHECK(s.user.scenario.tile.swizzle.kind == SwizzleKind::xor_columns);
  CHECK(s.user.scenario.tile.pad == 0);
  // The app now shows the column read under xor (derived at the next frame): conflict-free.
  ui.frame(s);
  REQUIRE(s.study.evaluation.ok());
  CHECK(s.study.scenario.tile.swizzle.kind == SwizzleKind::xor_columns);
  CHECK(s.study.evaluation.analysis->wavefront_count() == 1);

  // Another tile size: the old ranking is hidden until Solve runs again.
  s.user.scenario.tile.rows = 64;
  ui.frame(s);
  CHECK(solve_stale(s.user.solve, s.user.scenario.tile));
  CHECK(solve_geometry(s).apply.empty());
  ui.click(s, solve_geometry(s).solve.centre());
  REQUIRE(s.user.solve.result.has_value());
  CHECK(s.user.solve.solved_for->rows == 64);
  CHECK_FALSE(solve_geometry(s).apply.empty());
}

TEST_CASE("a family the tile cannot take is greyed out and left out of the solve") {
  HeadlessImGui ui;
  AppState s;
  REQUIRE(load_preset(s, "fp32-naive"));
  s.user.scenario.tile.rows = 12;  // not a multiple of 8 rows: no ldmatrix
  s.user.views.solve = true;
  s.user.solve.chosen[choice("ldmatrix.x4")] = true;
  ui.frame(s);
  CHECK_FALSE(choice_available(choice("ldmatrix.x4"), s.user.scenario.tile));
  ui.click(s, solve_geometry(s).choices[choice("ldmatrix.x4")].centre());
  CHECK(s.user.solve.chosen[choice("ldmatrix.x4")]);  // disabled: the click changed nothing
  ui.click(s, solve_geometry(s).solve.centre());
  REQUIRE(s.user.solve.result.has_value());
  CHECK(s.user.solve.result->candidates[0].families.size() == 2);
  SUBCASE("with one family left the window says why it cannot solve") {
    s.user.solve.chosen[choice("row:st")] = false;
    ui.click(s, solve_geometry(s).solve.centre());
    CHECK_FALSE(s.user.solve.result.has_value());
    CHECK(s.user.solve.error.find("two or more") != std::string::npos);
  }
}

TEST_CASE("a narrow TMA box's gap is padding in the tile view, and the layout's spellings shown") {
  HeadlessImGui ui;
  AppState s;
  REQUIRE(load_preset(s, "fp32-naive"));
  s.user.scenario.tile = TileLayout{DType::bf16, 32, 16, 0, SwizzleSpec{SwizzleKind::tma128}};
  for (bool physical : {false, true}) {
    CAPTURE(physical);
    set_tile_view(s, physical ? figures::TileView::physical : figures::TileView::logical);
    ui.frame(s);
    REQUIRE(s.study.tile_valid);
    // 32-byte box rows at the 128-byte span: 64 bf16 slots a row, 48 of them the gap, which
    // the physical picture scatters as the swizzle does.
    const HeatmapImage& img = s.frame.draw.heatmap;
    REQUIRE(img.cols == 64);
    const std::span<const std::uint8_t> cells = img.picture(physical);
    int gap = 0;
    bool scattered = false;
    for (int r = 0; r < img.rows; ++r) {
      for (int c = 0; c < img.cols; ++c) {
        const bool is_gap =
            cells[static_cast<std::size_t>(r * img.cols + c)] & HeatmapImage::kHeatPadding;
        gap += is_gap;
        CHECK(is_gap == (physical ? s.study.scenario.tile.is_gap_slot(r, c) : c >= 16));
        scattered = scattered || (is_gap && c < 16);
      }
    }
    CHECK(gap == 32 * 48);
    CHECK(scattered == physical);
    REQUIRE(s.frame.geometry.tile.has_value());
    CHECK(s.frame.geometry.tile->grid.cols == 64);
  }
  // The Controls show the layout in the notations that spell it.
  REQUIRE(s.study.spellings.size() == 3);
  CHECK(s.study.spellings[1].args() ==
        std::vector<std::string>{"--pad", "48", "--swizzle", "cute:3,4,3"});
}

TEST_CASE("--solve opens the Solve window with its families ticked, and refuses others") {
  const std::vector<std::string_view> words = {"--solve", "row:16:st,ldmatrix.x4"};
  const Expected<Options> o = parse_options(words);
  REQUIRE(o.has_value());
  REQUIRE(o->solve.has_value());
  CHECK((*o->solve)[choice("row:16:st")]);
  CHECK((*o->solve)[choice("ldmatrix.x4")]);
  CHECK_FALSE((*o->solve)[choice("column")]);
  const std::vector<std::string_view> bad = {"--solve", "row:16:st,diagonal"};
  const Expected<Options> refused = parse_options(bad);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().find("'diagonal' is not one of the Solve window's families") !=
        std::string::npos);
}

}  // namespace banklab::gui
