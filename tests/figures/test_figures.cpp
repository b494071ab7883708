// banklab_figures without a display: every label the views promise is drawn inside its cell at
// projector sizes, red appears only for a conflict, the SVG is well-formed XML with the 32 bank
// numbers as text, and the CSV and Markdown carry the core's values.
//
// [SECTION] Labels, colours and SVG text
// [SECTION] Labels inside their cells
// [SECTION] Colours and broadcasts
// [SECTION] SVG, CSV and Markdown
// [SECTION] Highlights and the plain tile
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/figures/figure.hpp"
#include "app/figures/svg.hpp"
#include "app/figures/tables.hpp"
#include "core/model/presets.hpp"
#include "core/report/explain.hpp"
#include "tests/figures/markup.hpp"

using namespace banklab;
using namespace banklab::figures;

namespace {

constexpr Theme kThemes[] = {Theme::dark, Theme::light};
constexpr Scheme kSchemes[] = {Scheme::standard, Scheme::colour_blind};
constexpr float kSizes[][2] = {{1280, 720}, {1600, 900}, {1920, 1080}};

// [SECTION] Labels, colours and SVG text

std::vector<const Label*> labels(const Figure& f, Role role) {
  std::vector<const Label*> out;
  for (const Label& l : f.labels) {
    if (l.role == role) out.push_back(&l);
  }
  return out;
}

// Labels of `role` numbered 0..31 by index, each with its own number, inside its cell, at least
// `min_size` pixels.
void check_numbered(const Figure& f, Role role, float min_size) {
  CAPTURE(role_name(role));
  const auto found = labels(f, role);
  REQUIRE(found.size() == 32);
  for (const Label* l : found) {
    CAPTURE(l->index);
    CHECK(l->text == std::to_string(l->index));
    REQUIRE(l->cell.has_value());
    CHECK(l->cell->contains(l->box));
    CHECK(l->size >= min_size);
  }
}

bool is_red(Rgba c) {
  const float h = hue_of(c);
  return saturation_of(c) > 0.25f && (h < 0.045f || h > 0.93f);
}

// The text of every <text class="CLASS" ...>...</text>.
std::vector<std::string> svg_texts(const std::string& svg, const std::string& cls) {
  std::vector<std::string> out;
  const std::string start = "<text class=\"" + cls + "\"";
  for (auto at = svg.find(start); at != std::string::npos; at = svg.find(start, at + 1)) {
    const auto open_end = svg.find('>', at) + 1;
    out.push_back(svg.substr(open_end, svg.find("</text>", open_end) - open_end));
  }
  return out;
}

}  // namespace

// [SECTION] Labels inside their cells

TEST_CASE("every bank and lane label of every preset is drawn inside its cell at 1280x720 and up") {
  for (const Preset& p : presets()) {
    const Study studied = study(p.scenario);
    const Evaluation& e = studied.evaluation;
    if (!e.ok()) continue;  // a preset that teaches through its diagnostic has no views
    for (Theme theme : kThemes) {
      for (const auto& size : kSizes) {
        CAPTURE(p.name);
        CAPTURE(theme_name(theme));
        CAPTURE(size[0]);
        const FigureStyle st{&palette_for(theme)};
        const Figure banks = page_figure(View::banks, studied, size[0], size[1], st);
        check_numbered(banks, Role::bank_label, 9.0f);
        // A row label for every wavefront, and the lanes of every served cell, readable.
        const auto rows = labels(banks, Role::wavefront_label);
        CHECK(rows.size() == e.analysis->wavefronts.size());
        int served = 0;
        for (const Wavefront& wf : e.analysis->wavefronts) served += wf.banks_used();
        const auto cells = labels(banks, Role::cell_label);
        CHECK(cells.size() == static_cast<std::size_t>(served));
        for (const Label* l : cells) {
          CAPTURE(l->text);
          CHECK(l->cell->contains(l->box));
          CHECK(l->size >= 9.0f);
          CHECK(l->text.find('w') == std::string::npos);  // lanes, never only the word
        }
        for (const Label* l : rows) CHECK(l->size >= 9.0f);

        const Figure lanes = page_figure(View::lanes, studied, size[0], size[1], st);
        check_numbered(lanes, Role::lane_label, 12.0f);
        check_numbered(lanes, Role::bank_label, 12.0f);

        // The tile numbers every active lane that touches an element, not only lanes 0-9.
        const Figure tile = page_figure(View::tile, studied, size[0], size[1], st);
        std::set<int> numbered;
        for (const Label* l : labels(tile, Role::lane_label)) numbered.insert(l->index);
        std::set<int> expected;
        for (int l = 0; l < kWarpSize; ++l) {
          if (e.analysis->lanes[l].active && e.elements[l].count > 0) expected.insert(l);
        }
        CHECK(numbered == expected);
      }
    }
  }
}

// Where lane `l`'s number sits relative to its grid's origin, or nothing.
std::optional<Box> lane_spot(const Figure& f, int l) {
  for (const Label* lb : labels(f, Role::lane_label)) {
    if (lb->index == l) {
      const Box& b = lb->box;
      return Box{b.x0 - f.grid->x, b.y0 - f.grid->y, b.x1 - f.grid->x, b.y1 - f.grid->y};
    }
  }
  return std::nullopt;
}

TEST_CASE(
    "side by side, each lane is numbered in both tiles, which differ exactly under a swizzle") {
  for (const Preset& p : presets()) {
    if (!p.scenario.tile.check()) continue;
    const Study studied = study(p.scenario);
    for (Theme theme : kThemes) {
      CAPTURE(p.name);
      FigureStyle st{&palette_for(theme)};
      const auto pair = tile_pair_figure(studied, Box{0, 0, 1280, 620}, st);
      for (int k = 0; k < 2; ++k) {
        CAPTURE(k);
        const Figure& f = pair[k];
        REQUIRE(f.grid.has_value());
        REQUIRE(f.heatmaps.size() == 1);
        CHECK(f.heatmaps[0].physical == (k == 1));
        const Grid& g = *f.grid;
        const Box grid{g.x, g.y, g.x + g.pitch_x * static_cast<float>(g.cols),
                       g.y + g.pitch_y * static_cast<float>(g.rows)};
        for (const Label* l : labels(f, Role::lane_label)) {
          CAPTURE(l->index);
          const float cx = (l->box.x0 + l->box.x1) * 0.5f, cy = (l->box.y0 + l->box.y1) * 0.5f;
          CHECK(grid.contains(Box{cx, cy, cx, cy}));
          if (l->cell) CHECK(grid.contains(*l->cell));
        }
        const auto captions = labels(f, Role::caption);
        REQUIRE_FALSE(captions.empty());
        CHECK(captions[0]->text.starts_with(k == 0 ? "logical" : "physical"));
        CHECK(captions[0]->box.y1 <= grid.y0 + 0.01f);
      }
      // The physical grid lies right of the logical one.
      CHECK(pair[0].grid->x + pair[0].grid->pitch_x * static_cast<float>(pair[0].grid->cols) <
            pair[1].grid->x);
      bool differ = pair[0].heatmaps[0].colours != pair[1].heatmaps[0].colours;
      for (int l = 0; l < kWarpSize; ++l) {
        const auto a = lane_spot(pair[0], l), b = lane_spot(pair[1], l);
        CHECK(a.has_value() == b.has_value());
        if (a && b && (std::abs(a->x0 - b->x0) > 0.01f || std::abs(a->y0 - b->y0) > 0.01f)) {
          differ = true;
        }
      }
      CHECK(differ == (p.scenario.tile.swizzle.kind != SwizzleKind::none));
    }
  }
}

TEST_CASE("zoomed text never shrinks the cell labels below the unzoomed ones") {
  const Preset* p = find_preset("fp32-naive");
  const Evaluation e = evaluate(p->scenario);
  FigureStyle normal{&palette_for(Theme::dark)};
  FigureStyle zoomed = normal;
  zoomed.font = normal.font * 1.5f;
  const Figure a = bank_figure(*e.analysis, Box{0, 0, 1280, 720}, normal);
  const Figure b = bank_figure(*e.analysis, Box{0, 0, 1280, 720}, zoomed);
  CHECK(labels(b, Role::cell_label).front()->size >= labels(a, Role::cell_label).front()->size);
  CHECK(labels(b, Role::bank_label).front()->size >= labels(a, Role::bank_label).front()->size);
}

// [SECTION] Colours and broadcasts

TEST_CASE("red means a conflict only: never on a conflict-free access, never a bank or wavefront") {
  for (Theme theme : kThemes) {
    for (Scheme scheme : kSchemes) {
      const Palette& pal = palette_for(theme, scheme);
      CAPTURE(theme_name(theme));
      CAPTURE(scheme_name(scheme));
      for (int i = 0; i < 32; ++i) {
        CAPTURE(i);
        CHECK_FALSE(is_red(pal.banks[i]));
        CHECK_FALSE(is_red(pal.wavefronts[i]));
        if (i > 0)
          CHECK(std::abs(hue_of(pal.wavefronts[i]) - hue_of(pal.wavefronts[i - 1])) > 0.1f);
      }
      CHECK_FALSE(is_red(pal.cell_served));
      CHECK_FALSE(is_red(pal.cell_broadcast));
      CHECK(pal.cell_conflict != pal.cell_served);
      for (const Preset& p : presets()) {
        const Evaluation e = evaluate(p.scenario);
        if (!e.ok()) continue;
        CAPTURE(p.name);
        const FigureStyle st{&pal};
        for (const Figure& f : {bank_figure(*e.analysis, Box{0, 0, 1280, 720}, st),
                                lane_figure(*e.analysis, Box{0, 0, 1280, 720}, st)}) {
          const bool red_rect = std::ranges::any_of(f.rects, [&](const Rect& r) {
            return r.role != Role::legend && r.colour == pal.cell_conflict;
          });
          const bool red_line = std::ranges::any_of(f.lines, [&](const Line& l) {
            return l.role != Role::legend && l.colour == pal.cell_conflict;
          });
          CHECK((red_rect || red_line) == (e.analysis->bank_conflicts() > 0));
          // The legend names every colour it uses.
          const auto legend = labels(f, Role::legend);
          CHECK(std::ranges::any_of(
              legend, [](const Label* l) { return l->text.starts_with("conflict"); }));
          CHECK(std::ranges::any_of(legend, [](const Label* l) { return l->text == "served"; }));
        }
      }
    }
  }
}

TEST_CASE("a broadcast is one shared word where the 32 lines meet, not 32 lines into the bank") {
  const Preset* p = find_preset("broadcast");
  REQUIRE(p != nullptr);
  const Evaluation e = evaluate(p->scenario);
  REQUIRE(e.ok());
  const Palette& pal = palette_for(Theme::light);
  const Figure f = lane_figure(*e.analysis, Box{0, 0, 1280, 720}, FigureStyle{&pal});
  std::vector<const Rect*> words;
  for (const Rect& r : f.overlays) {
    if (r.role == Role::shared_word) words.push_back(&r);
  }
  REQUIRE(words.size() == 1);
  const float x = (words[0]->box.x0 + words[0]->box.x1) * 0.5f;
  const float y = (words[0]->box.y0 + words[0]->box.y1) * 0.5f;
  int to_word = 0, to_bank = 0;
  for (const Line& l : f.lines) {
    if (l.role != Role::access_line) continue;
    CHECK(l.colour == pal.cell_broadcast);
    if (l.x1 == doctest::Approx(x) && l.y1 == doctest::Approx(y)) ++to_word;
    if (l.index == -1) ++to_bank;
  }
  CHECK(to_word == 32);
  CHECK(to_bank == 1);
  // The bank view's cell says which lanes share the word, not only which word.
  const Figure banks = bank_figure(*e.analysis, Box{0, 0, 1280, 720}, FigureStyle{&pal});
  const auto cells = labels(banks, Role::cell_label);
  REQUIRE(cells.size() == 1);
  CHECK((cells[0]->text == "0-31" || cells[0]->text == "x32"));
}

// [SECTION] SVG, CSV and Markdown

TEST_CASE("the SVG is well-formed XML with the 32 bank numbers as text, for every view") {
  for (const char* name : {"fp32-naive", "broadcast", "ldmatrix-swizzled", "bf16-pad1-odd"}) {
    CAPTURE(name);
    const Preset* p = find_preset(name);
    const Study studied = study(p->scenario);
    for (View v : {View::banks, View::lanes, View::tile}) {
      const std::string svg =
          to_svg(page_figure(v, studied, 1280, 720, FigureStyle{&palette_for(Theme::dark)}));
      CHECK(test::markup_problem(svg, test::Markup::xml) == "");
      CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
      if (v == View::tile) continue;
      const auto banks = svg_texts(svg, "bank_label");
      REQUIRE(banks.size() == 32);
      for (int b = 0; b < 32; ++b) CHECK(banks[b] == std::to_string(b));
    }
  }
  CHECK(xml_escape("a<b & \"c\" 'd'>\x01") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  CHECK(test::markup_problem("<a><b></a></b>", test::Markup::xml) != "");
  CHECK(test::markup_problem("<a x=1/>", test::Markup::xml) != "");
}

TEST_CASE("the CSV has one row per lane with the core's byte, words, banks and wavefronts") {
  const Preset* p = find_preset("fp64-pad1");
  const Evaluation e = evaluate(p->scenario);
  REQUIRE(e.ok());
  const std::string csv = lane_table_csv(*e.analysis, LaneSource{&e.elements, &p->scenario.tile});
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  CHECK(line == "lane,active,row,col,elements,byte,words,banks,wavefronts,shares_word");
  for (int l = 0; l < 32; ++l) {
    CAPTURE(l);
    REQUIRE(std::getline(in, line));
    const LaneRecord& r = e.analysis->lanes[l];
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    REQUIRE(cells.size() == 10);
    CHECK(cells[0] == std::to_string(l));
    CHECK(cells[2] == std::to_string(e.elements[l].first.row));
    CHECK(cells[5] == std::to_string(r.byte));
    CHECK(cells[6] == std::to_string(r.words[0]) + " " + std::to_string(r.words[1]));
    CHECK(cells[7] == std::to_string(r.banks[0]) + " " + std::to_string(r.banks[1]));
    CHECK(cells[8] == std::to_string(r.wavefronts[0]));
  }
  CHECK_FALSE(std::getline(in, line));
}

TEST_CASE("the Markdown carries the lane table and the derivation as the core words it") {
  const Preset* p = find_preset("bf16-pad1-odd");
  const Evaluation e = evaluate(p->scenario);
  const Explanation x = explain(p->scenario, e);
  const std::string md = derivation_markdown(describe(p->scenario), *e.analysis, x, e.diagnostics);
  CHECK(md.starts_with("# bf16 tile[32][33], column 3"));
  CHECK(md.find("**" + x.verdict + "**") != std::string::npos);
  CHECK(md.find("| 2 | 1 | 1 | 2-way | 32 | 64 |") != std::string::npos);
  for (const std::string& step : x.steps) CHECK(md.find(step) != std::string::npos);
  for (const std::string& c : x.caveats) CHECK(md.find("- " + c) != std::string::npos);
  const std::string table =
      lane_table_markdown(*e.analysis, LaneSource{&e.elements, &p->scenario.tile});
  CHECK(std::ranges::count(table, '\n') == 34);  // header, rule, 32 lanes
  CHECK(table.find("| 31 | 1 | 31 | 3 | 1 | 2052 | 513 | 1 |") != std::string::npos);
}

// [SECTION] Highlights and the plain tile

TEST_CASE("a lesson step's highlights are marked by every view and written in its SVG") {
  const Palette& pal = palette_for(Theme::light);
  const Preset* p = find_preset("fp32-naive");
  REQUIRE(p != nullptr);
  const Evaluation e = evaluate(p->scenario);
  REQUIRE(e.ok());
  FigureStyle st{&pal};
  st.highlights.lanes = {1, 5};
  st.highlights.banks = {0};
  st.highlights.elements = {Cell{2, 3}};
  const auto marks = [](const Figure& f) {
    std::vector<Rect> out;
    for (const Rect& r : f.rects) {
      if (r.role == Role::highlight) out.push_back(r);
    }
    return out;
  };
  // The bank view: bank 0's number on a tab and a bar under its column.
  const Figure banks = page_figure(View::banks, study(p->scenario), 1280, 720, st);
  const auto bank_marks = marks(banks);
  REQUIRE(bank_marks.size() == 2u);
  for (const Rect& r : bank_marks) {
    CHECK(r.colour == pal.spotlight);
    CHECK(r.index == 0);
  }
  CHECK(bank_marks[1].box.y0 >= banks.grid->y + banks.grid->pitch_y * 32.0f);  // under the grid
  // The lane map: bars over lanes 1 and 5, under bank 0.
  const Figure lanes = page_figure(View::lanes, study(p->scenario), 1280, 720, st);
  CHECK(marks(lanes).size() == 3u);
  // The tile: element (2, 3)'s row and column numbers on tabs; lanes 1 and 5 numbered on tabs.
  const Figure tile = page_figure(View::tile, study(p->scenario), 1280, 720, st);
  const auto tile_marks = marks(tile);
  REQUIRE(tile_marks.size() == 2u);
  CHECK(tile_marks[0].index == 2);
  CHECK(tile_marks[1].index == 3);
  int lit = 0;
  for (const Label& l : tile.labels) {
    if (l.role == Role::lane_label && l.halo == pal.spotlight) {
      ++lit;
      CHECK((l.text == "1" || l.text == "5"));
    }
  }
  CHECK(lit == 2);
  CHECK(to_svg(banks).find("class=\"highlight\"") != std::string::npos);
  // Without highlights, none.
  const FigureStyle plain{&pal};
  CHECK(marks(page_figure(View::banks, study(p->scenario), 1280, 720, plain)).empty());

  // A padded tile that cannot take a float4 per lane: its misaligned rows marked by hatched
  // bars either side, though the access itself is refused.
  const Preset* pad = find_preset("fp32-pad1-vec16-store");
  REQUIRE(pad != nullptr);
  const Study refused = study(pad->scenario);
  CHECK_FALSE(refused.evaluation.ok());
  const RowAlignment rows = row_alignment(pad->scenario.tile, 16);
  REQUIRE_FALSE(rows.misaligned.empty());
  FigureStyle rows_style{&pal};
  rows_style.highlights.rows = rows.misaligned;
  const Figure padded = page_figure(View::tile, refused, 1280, 720, rows_style);
  const auto row_marks = marks(padded);
  CHECK(row_marks.size() == 2 * rows.misaligned.size());
  for (const Rect& r : row_marks) {
    CHECK(r.colour == pal.misaligned);
    CHECK(r.fill == Fill::striped);
  }
}

// Issue 33: transpose lesson step 8 (bf16 padded by one, a packed store, refused) drew the
// tile in the 166 px lane map of the 1280x720 layout as a 2 px strip. Where the tile's rows
// would be thinner than 6 px the arithmetic takes the whole area; where they fit, the tile is
// drawn with its misaligned rows marked.
TEST_CASE("a refused access's figure draws no tile thinner than 6 px a row") {
  const Preset* p = find_preset("bf16-pad1-pair-store");
  REQUIRE(p != nullptr);
  const Study refused = study(p->scenario);
  REQUIRE(refused_rows(refused).has_value());
  const FigureStyle st{&palette_for(Theme::dark)};
  const Figure strip = misalignment_figure(refused, Box{0, 0, 550, 120}, st);
  CHECK((!strip.grid || strip.grid->pitch_y >= 6.0f));
  CHECK(std::ranges::none_of(strip.rects, [](const Rect& r) { return r.role == Role::cell; }));
  CHECK(std::ranges::any_of(strip.labels, [](const Label& l) { return l.role == Role::text; }));
  const Figure large = misalignment_figure(refused, Box{0, 0, 1280, 720}, st);
  REQUIRE(large.grid.has_value());
  CHECK(large.grid->pitch_y >= 6.0f);
}

TEST_CASE("the tile without its heat colours is the same figure, less the colour of every slot") {
  // The GUI draws the heat map from a texture of its own and asks for the box alone
  // (FigureStyle::heat_colours); everything else must be what the SVG draws.
  for (const char* name : {"fp32-naive", "fp32-xor", "bf16-256-pad2", "ldmatrix-swizzled"}) {
    CAPTURE(name);
    const Preset* p = find_preset(name);
    REQUIRE(p != nullptr);
    const Study studied = study(p->scenario);
    for (TileView view : {TileView::logical, TileView::physical}) {
      FigureStyle with(&palette_for(Theme::dark));
      with.tile_view = view;
      FigureStyle without = with;
      without.heat_colours = false;
      const Box area{0, 0, 1280, 720};
      const Figure a = tile_figure(studied, area, with);
      const Figure b = tile_figure(studied, area, without);
      REQUIRE(a.heatmaps.size() == 1);
      REQUIRE(b.heatmaps.size() == 1);
      const Heatmap &ha = a.heatmaps[0], &hb = b.heatmaps[0];
      CHECK(ha.colours.size() == static_cast<std::size_t>(ha.rows) * ha.cols);
      CHECK(hb.colours.empty());
      CHECK(hb.striped.empty());
      CHECK((hb.rows == ha.rows && hb.cols == ha.cols && hb.physical == ha.physical));
      CHECK((hb.box.x0 == ha.box.x0 && hb.box.y0 == ha.box.y0 && hb.box.x1 == ha.box.x1 &&
             hb.box.y1 == ha.box.y1));
      // The rest, compared through its SVG with the heat map taken out of both.
      Figure a_rest = a, b_rest = b;
      a_rest.heatmaps.clear();
      b_rest.heatmaps.clear();
      CHECK(to_svg(a_rest) == to_svg(b_rest));
    }
  }
}
