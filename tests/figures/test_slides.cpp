// What a class sees, checked without a display: every step of every track as a slide at
// 1280x720 and 1920x1080 (and a phone's 390x844 and 360x780) in both themes (its title and every
// line of its text inside the slide, no figure over them), the lesson highlights beside the numbers
// and never over one, the tile's numbers readable, a refused access drawn, the lane map running
// down a narrow pane, every text colour's contrast computed from the palette, and the HTML deck
// (one section per step, no address outside the file).
//
// [SECTION] Lessons, slides and boxes
// [SECTION] Every step is a slide
// [SECTION] Highlights and spotlights
// [SECTION] The tile, a refused access and the lane map
// [SECTION] Colours, the deck and wrapped text
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "app/figures/deck.hpp"
#include "app/figures/figure.hpp"
#include "app/figures/slide.hpp"
#include "app/figures/svg.hpp"
#include "core/model/presets.hpp"
#include "core/teach/lesson.hpp"
#include "tests/figures/markup.hpp"

using namespace banklab;
using namespace banklab::figures;

namespace {

constexpr Theme kThemes[] = {Theme::dark, Theme::light};
// A projector, a large one, a phone held upright (projector.hpp's hand-held minimums) and the
// HTML deck's phone slide (deck.cpp).
constexpr float kSlideSizes[][2] = {{1280, 720}, {1920, 1080}, {390, 844}, {360, 780}};

// [SECTION] Lessons, slides and boxes

const std::vector<Lesson>& lessons() {
  static const std::vector<Lesson> all = [] {
    Expected<LessonCatalogue> loaded = load_lessons();
    REQUIRE(loaded);
    REQUIRE(loaded->problems.empty());
    return loaded->lessons;
  }();
  return all;
}

// Step i of the lesson as the app shows it (lesson_slide() in the app does the same from its
// state).
Slide slide_of(const Lesson& l, std::size_t i) {
  const FilledStep f = fill_step(l.steps[i]);
  Slide s;
  s.track = l.title;
  s.step = static_cast<int>(i) + 1;
  s.steps = static_cast<int>(l.steps.size());
  s.title = f.title;
  s.text = f.text;
  s.study = f.study;
  for (const std::string& name : f.show) s.parts.push_back(*parse_slide_part(name));
  for (const auto& [name, compared] : f.compare) s.compare.push_back(Compared{name, compared});
  return s;
}

// The style of an exported slide of that height (the app's export_style()).
FigureStyle slide_style(Theme t, float height, const Highlights& h) {
  FigureStyle st{&palette_for(t)};
  st.font = std::floor(std::max(16.0f, height / 54.0f));
  st.min_font = 9.0f;
  st.highlights = h;
  return st;
}

bool overlap(const Box& a, const Box& b) {
  return a.x0 < b.x1 - 0.5f && b.x0 < a.x1 - 0.5f && a.y0 < b.y1 - 0.5f && b.y0 < a.y1 - 0.5f;
}

Box line_box(const Line& l) {
  return Box{std::min(l.x0, l.x1) - l.width * 0.5f, std::min(l.y0, l.y1) - l.width * 0.5f,
             std::max(l.x0, l.x1) + l.width * 0.5f, std::max(l.y0, l.y1) + l.width * 0.5f};
}

bool has_digit(const std::string& s) {
  return std::ranges::any_of(s, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Two text boxes overlap when they share more than a pixel and a half (the blank room above a
// digit: figure_tile.cpp's rule).
bool text_overlap(const Box& a, const Box& b) {
  return a.x0 < b.x1 - 1.5f && b.x0 < a.x1 - 1.5f && a.y0 < b.y1 - 1.5f && b.y0 < a.y1 - 1.5f;
}

// projector.hpp's minimums, from the layout the slide computed: every label's pixel height and
// rectangle. The figures' numbers and words at the digit minimum or more, the text, header and
// footer at the body minimum, the title and the verdict at the title minimum; no two labels
// overlapping, none outside the slide or on the footer.
void check_projector_sizes(const Figure& f, const SlideLayout& L) {
  const TypeMinimums& m = L.minimums;
  if (L.width < kHandheldWidth) {
    CHECK(m.digits == 11.0f);
    CHECK(m.body == 14.0f);
    CHECK(m.title == 20.0f);
  } else {
    CHECK(m.digits == std::floor(16.0f * L.height / 720.0f));
  }
  CHECK(L.text_font >= m.body);
  CHECK(L.header_font >= m.body);
  CHECK(L.title_font >= m.title);
  CHECK(L.verdict_font >= L.title_font);
  const Box page{0, 0, L.width, L.height};
  bool verdict = false;
  for (std::size_t i = 0; i < f.labels.size(); ++i) {
    const Label& l = f.labels[i];
    CAPTURE(l.text);
    CAPTURE(role_name(l.role));
    CHECK(l.box.height() == doctest::Approx(l.size));
    CHECK(page.contains(l.box, 0.5f));
    const bool header = L.header.contains(l.box, 0.5f);
    const bool footer = L.footer.height() > 0 && L.footer.contains(l.box, 0.5f);
    if (L.footer.height() > 0 && !footer) CHECK(l.box.y1 <= L.footer.y0 + 0.5f);
    if (l.role == Role::verdict) {
      verdict = true;
      CHECK(l.size >= m.title);
    } else if ((l.role == Role::text && L.text.contains(l.box, 0.5f)) || header || footer) {
      CHECK(l.size >= m.body);
    } else {
      CHECK(l.size >= m.digits);
    }
    for (std::size_t j = i + 1; j < f.labels.size(); ++j) {
      CAPTURE(f.labels[j].text);
      CHECK_FALSE(text_overlap(l.box, f.labels[j].box));
    }
  }
  CHECK(verdict);
}

// Every highlight of the figure beside the numbers: outside every box of a label with a digit,
// or (a tab) wholly under one label whose colour reads on it.
void check_beside_numbers(const Figure& f) {
  std::vector<Rect> marks;
  for (const auto* list : {&f.rects, &f.overlays}) {
    for (const Rect& r : *list) {
      if (r.role == Role::highlight) marks.push_back(r);
    }
  }
  for (const Rect& m : marks) {
    for (const Label& l : f.labels) {
      if (!has_digit(l.text) || !overlap(m.box, l.box)) continue;
      CAPTURE(l.text);
      CAPTURE(role_name(l.role));
      const bool tab = m.fill == Fill::solid && m.box.contains(l.box, 0.5f);
      CHECK(tab);
      if (tab) CHECK(contrast_ratio(l.colour, m.colour) >= 4.5f);
    }
  }
}

}  // namespace

// [SECTION] Every step is a slide

TEST_CASE("every step of every track is a slide: its text inside it, no figure over the text") {
  for (const Lesson& lesson : lessons()) {
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const Slide s = slide_of(lesson, i);
      const FilledStep filled = fill_step(lesson.steps[i]);
      for (Theme theme : kThemes) {
        for (const auto& size : kSlideSizes) {
          CAPTURE(lesson.name);
          CAPTURE(i + 1);
          CAPTURE(theme_name(theme));
          CAPTURE(size[1]);
          const float w = size[0], h = size[1];
          const FigureStyle st = slide_style(theme, h, filled.highlights);
          const SlideLayout L = slide_layout(s, w, h, st);
          const Figure f = slide_figure(s, L, st);
          const Box page{0, 0, w, h};
          CHECK(page.contains(L.header));
          CHECK(page.contains(L.text));
          // Every line of the text the slide shows is drawn, at the layout's font, inside the
          // text's box; the rest is in the notes, nothing lost.
          const auto lines =
              wrap_text(L.shown, static_cast<int>(L.text.width() / text_width("0", L.text_font)));
          const auto drawn = std::ranges::count_if(f.labels, [&](const Label& l) {
            return l.role == Role::text && L.text.contains(l.box, 0.5f);
          });
          CHECK(drawn ==
                std::ranges::count_if(lines, [](const TextLine& t) { return !t.text.empty(); }));
          check_projector_sizes(f, L);
          // The header (track, step, title, scenario) inside the slide, the title in it.
          bool titled = false;
          for (const Label& l : f.labels) {
            if (l.role == Role::heading && L.header.contains(l.box, 0.5f)) titled = true;
          }
          CHECK(titled);
          // The figures: inside the slide, clear of the header, the text and each other.
          for (std::size_t k = 0; k < L.part_boxes.size(); ++k) {
            CHECK(page.contains(L.part_boxes[k], 0.5f));
            CHECK_FALSE(overlap(L.part_boxes[k], L.text));
            CHECK_FALSE(overlap(L.part_boxes[k], L.header));
            for (std::size_t j = k + 1; j < L.part_boxes.size(); ++j) {
              CHECK_FALSE(overlap(L.part_boxes[k], L.part_boxes[j]));
            }
          }
          // Nothing but the text and its code panels on the text; nothing of a figure's on the
          // header.
          for (const Label& l : f.labels) {
            CAPTURE(l.text);
            CHECK(page.contains(l.box, 0.5f));
            if (overlap(l.box, L.text))
              CHECK((l.role == Role::text && L.text.contains(l.box, 0.5f)));
            if (overlap(l.box, L.header)) CHECK(L.header.contains(l.box, 0.5f));
          }
          for (const Rect& r : f.rects) {
            if (overlap(r.box, L.text)) CHECK(r.role == Role::panel);
            CHECK_FALSE(overlap(r.box, L.header));
          }
          for (const Rect& r : f.overlays) CHECK_FALSE(overlap(r.box, L.text));
          for (const Heatmap& m : f.heatmaps) CHECK_FALSE(overlap(m.box, L.text));
          for (const Line& l : f.lines) CHECK_FALSE(overlap(line_box(l), L.text));
          check_beside_numbers(f);
        }
      }
    }
  }
}

// [SECTION] Highlights and spotlights

TEST_CASE("a lesson step's highlights are marks beside its numbers, in every view and theme") {
  for (const Lesson& lesson : lessons()) {
    for (const LessonStep& step : lesson.steps) {
      const FilledStep filled = fill_step(step);
      if (filled.highlights.empty()) continue;
      for (Theme theme : kThemes) {
        CAPTURE(lesson.name);
        CAPTURE(step.title);
        CAPTURE(theme_name(theme));
        FigureStyle st{&palette_for(theme)};
        st.highlights = filled.highlights;
        for (View v : {View::banks, View::lanes, View::tile}) {
          const Figure f = page_figure(v, filled.study, 1280, 720, st);
          check_beside_numbers(f);
          const auto marks = std::ranges::count_if(
              f.rects, [](const Rect& r) { return r.role == Role::highlight; });
          // The bank view marks listed banks (its lanes are the spotlight), the lane map listed
          // lanes and banks, the tile listed rows.
          const Highlights& h = filled.highlights;
          if (v == View::banks && filled.study.evaluation.ok())
            CHECK((marks > 0) == !h.banks.empty());
          if (v == View::lanes && filled.study.evaluation.ok())
            CHECK((marks > 0) == (!h.lanes.empty() || !h.banks.empty()));
          if (!filled.highlights.rows.empty()) CHECK(marks > 0);
        }
      }
    }
  }
}

TEST_CASE("a step's spotlight keeps its lanes' cells in colour and fades the others") {
  const Palette& pal = palette_for(Theme::light);
  const Preset* p = find_preset("fp32-naive");
  const Evaluation e = evaluate(p->scenario);
  FigureStyle st{&pal};
  st.highlights.lanes = {1, 5};
  const Figure f = bank_figure(*e.analysis, Box{0, 0, 1280, 720}, st);
  int lit = 0, faded = 0;
  for (const Rect& r : f.rects) {
    if (r.role != Role::cell || r.colour == pal.cell_empty) continue;
    const int w = r.index / 32;
    (r.colour.a == 255 ? lit : faded) += 1;
    CHECK((r.colour.a == 255) == (w == 1 || w == 5));  // lane L is served in wavefront L
  }
  CHECK(lit == 2);
  CHECK(faded == 30);
  // A faded cell's lane number stays readable: dark ink on the pale fill.
  for (const Label& l : f.labels) {
    if (l.role != Role::cell_label || l.text == "1" || l.text == "5") continue;
    CHECK(l.colour == pal.on_bank);
  }
}

// [SECTION] The tile, a refused access and the lane map

TEST_CASE("the tile's lane and bank numbers are 11 px or more and never run together") {
  for (const Preset& p : presets()) {
    const Study studied = study(p.scenario);
    const Evaluation& e = studied.evaluation;
    // Up to 64 rows: a 256-row tile drawn whole at 1280x720 has rows under 2 px, where 32 lane
    // numbers cannot stand apart (they keep their size and spill).
    if (!e.ok() || p.scenario.tile.rows > 64) continue;
    for (Theme theme : kThemes) {
      CAPTURE(p.name);
      FigureStyle st{&palette_for(theme)};
      st.font = 15.0f;  // the app's font at 1280x720
      st.tile_caption = false;
      // The Tile window of the default layout at 1280x720 (beside the bank view).
      const Figure f = tile_figure(studied, Box{0, 0, 360, 500}, st);
      std::vector<Box> numbers;
      for (const Label& l : f.labels) {
        if (l.role != Role::lane_label && l.role != Role::slot_bank) continue;
        CHECK(l.size >= 11.0f);
        if (l.role == Role::lane_label) numbers.push_back(l.box);
      }
      // One number per element a lane starts at (lanes of a broadcast share "0-31").
      std::vector<std::pair<int, int>> starts;
      for (int l = 0; l < kWarpSize; ++l) {
        const Cell c = e.elements[l].first;
        if (e.analysis->lanes[l].active && e.elements[l].count > 0 &&
            std::ranges::find(starts, std::pair{c.row, c.col}) == starts.end()) {
          starts.emplace_back(c.row, c.col);
        }
      }
      CHECK(numbers.size() == starts.size());
      // Apart: boxes may touch by a pixel and a half (blank room above a digit).
      for (std::size_t i = 0; i < numbers.size(); ++i) {
        for (std::size_t j = i + 1; j < numbers.size(); ++j) {
          CAPTURE(i);
          CAPTURE(j);
          const Box& a = numbers[i];
          const Box& b = numbers[j];
          CHECK_FALSE((a.x0 < b.x1 - 1.5f && b.x0 < a.x1 - 1.5f && a.y0 < b.y1 - 1.5f &&
                       b.y0 < a.y1 - 1.5f));
        }
      }
    }
  }
}

TEST_CASE("a column's lane numbers stay on their rows, side by side in the Tile window") {
  // fp32-xor reads column 5: in the logical picture the 32 lanes are one under another. In the
  // Tile window's half at 1280x720 the rows are shorter than an 11 px number; the numbers moved
  // above or below drifted a row further with each lane (lane 29 on row 30).
  const Preset* p = find_preset("fp32-xor");
  const Study studied = study(p->scenario);
  const Evaluation& e = studied.evaluation;
  FigureStyle st{&palette_for(Theme::dark)};
  st.font = 15.0f;
  st.tile_caption = false;
  const auto pair = tile_pair_figure(studied, Box{0, 0, 330, 420}, st);
  const Figure& logical = pair[0];
  REQUIRE(logical.grid.has_value());
  const Grid& g = *logical.grid;
  REQUIRE(g.pitch_y < 11.0f);  // the case: rows shorter than the numbers
  int numbered = 0;
  for (const Label& l : logical.labels) {
    if (l.role != Role::lane_label) continue;
    ++numbered;
    CAPTURE(l.text);
    const int row = e.elements[l.index].first.row;
    const float centre = (l.box.y0 + l.box.y1) * 0.5f;
    CHECK(centre >= g.y + g.pitch_y * static_cast<float>(row) - 0.5f);
    CHECK(centre <= g.y + g.pitch_y * static_cast<float>(row + 1) + 0.5f);
  }
  CHECK(numbered == 32);
}

TEST_CASE("a refused access is drawn: the tile, its misaligned rows marked, the arithmetic") {
  const Preset* p = find_preset("fp32-pad1-vec16-store");
  REQUIRE(p != nullptr);
  const Study refused = study(p->scenario);
  REQUIRE_FALSE(refused.evaluation.ok());
  const auto rows = refused_rows(refused);
  REQUIRE(rows);
  CHECK(rows->misaligned.size() == 24u);  // 132-byte rows: 3 in 4 start off 16 bytes
  for (Theme theme : kThemes) {
    const Palette& pal = palette_for(theme);
    for (View v : {View::banks, View::lanes, View::tile}) {
      const Figure f = page_figure(v, refused, 1280, 720, FigureStyle{&pal});
      REQUIRE(f.heatmaps.size() == 1u);
      std::vector<int> marked;
      for (const Rect& r : f.rects) {
        if (r.role != Role::highlight) continue;
        CHECK(r.colour == pal.misaligned);
        CHECK(r.colour != pal.cell_conflict);
        marked.push_back(r.index);
      }
      CHECK(marked.size() == 2 * rows->misaligned.size());  // a bar either side of each row
      const auto said = [&](const std::string& text) {
        return std::ranges::any_of(
            f.labels, [&](const Label& l) { return l.text.find(text) != std::string::npos; });
      };
      CHECK(said("row starts off a 16-byte boundary"));  // the legend
      CHECK(said("132 mod 16 = 4"));                     // the arithmetic
    }
  }
  // A scenario the core can analyse is not refused.
  CHECK_FALSE(refused_rows(study(find_preset("fp32-pad1")->scenario)));
}

TEST_CASE("in a narrow pane the lane map runs down it, its numbers 11 px or more") {
  const Preset* p = find_preset("fp32-naive");
  const Evaluation e = evaluate(p->scenario);
  FigureStyle st{&palette_for(Theme::dark)};
  st.font = 16.0f;
  // A pane of a three-way comparison at 1280x720.
  const Figure f = lane_figure(*e.analysis, Box{0, 0, 420, 560}, st);
  std::vector<const Label*> lanes;
  for (const Label& l : f.labels) {
    if (l.role == Role::lane_label || l.role == Role::bank_label) {
      CHECK(l.size >= 11.0f);
      REQUIRE(l.cell.has_value());
      CHECK(l.cell->contains(l.box));
    }
    if (l.role == Role::lane_label) lanes.push_back(&l);
  }
  REQUIRE(lanes.size() == 32u);
  CHECK(lanes[1]->box.y0 > lanes[0]->box.y1 - 0.5f);  // one below the other
  // Wide, it runs across as before.
  const Figure wide = lane_figure(*e.analysis, Box{0, 0, 1200, 400}, st);
  std::vector<const Label*> across;
  for (const Label& l : wide.labels) {
    if (l.role == Role::lane_label) across.push_back(&l);
  }
  REQUIRE(across.size() == 32u);
  CHECK(across[1]->box.x0 > across[0]->box.x1 - 0.5f);
}

// [SECTION] Colours, the deck and wrapped text

TEST_CASE("every colour that carries text reads on what it is drawn on (WCAG AA)") {
  for (Theme theme : kThemes) {
    for (Scheme scheme : {Scheme::standard, Scheme::colour_blind}) {
      for (const TextPair& pair : text_pairs(palette_for(theme, scheme))) {
        CAPTURE(theme_name(theme));
        CAPTURE(scheme_name(scheme));
        CAPTURE(pair.what);
        CHECK(contrast_ratio(pair.text, pair.background) >= 4.5f);
      }
    }
  }
  // The formula itself: black on white is 21:1, a colour on itself 1:1.
  CHECK(contrast_ratio(Rgba{0, 0, 0}, Rgba{255, 255, 255}) == doctest::Approx(21.0));
  CHECK(contrast_ratio(Rgba{120, 30, 200}, Rgba{120, 30, 200}) == doctest::Approx(1.0));
  // #999 on #FAFAF7, ImGui's light theme's dim text, was 2.7:1.
  CHECK(contrast_ratio(Rgba{153, 153, 153}, Rgba{250, 250, 247}) < 3.0f);
}

TEST_CASE("the HTML deck holds one section per step and names no address outside itself") {
  for (const Lesson& lesson : lessons()) {
    CAPTURE(lesson.name);
    std::vector<Slide> slides;
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) slides.push_back(slide_of(lesson, i));
    for (Theme theme : kThemes) {
      const std::string html =
          html_deck(lesson.title, slides, 1280, 720, slide_style(theme, 720, {}));
      CHECK(test::markup_problem(html, test::Markup::html) == "");
      std::size_t sections = 0;
      for (auto at = html.find("<section "); at != std::string::npos;
           at = html.find("<section ", at + 1)) {
        ++sections;
      }
      CHECK(sections == lesson.steps.size());
      for (const char* outside : {"http:", "https:", "src=", "href=", "@import", "//fonts"}) {
        CAPTURE(outside);
        CHECK(html.find(outside) == std::string::npos);
      }
      // Every url() is one of the page's own patterns, and each pattern id is defined once.
      for (auto at = html.find("url("); at != std::string::npos; at = html.find("url(", at + 1)) {
        CHECK(html.compare(at, 5, "url(#") == 0);
      }
      CHECK(html.find("id=\"s1-stripes\"") != std::string::npos);
      CHECK(html.find("id=\"s1-stripes\"", html.find("id=\"s1-stripes\"") + 1) ==
            std::string::npos);
      // Each step's title and the keys that step through it.
      for (const Slide& s : slides) CHECK(html.find(xml_escape(s.title)) != std::string::npos);
      CHECK(html.find("ArrowRight") != std::string::npos);
      CHECK(html.find("PageDown") != std::string::npos);
    }
  }
}

TEST_CASE("code lines too long for the slide break after a space, comma, dot or bracket") {
  const std::vector<TextLine> lines = wrap_text(
      "Before it:\n    unsigned addr = __cvta_generic_to_shared(&tile[threadIdx.x % 8][0]);\n", 24);
  REQUIRE(lines.size() >= 4);
  CHECK_FALSE(lines[0].code);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    CHECK(lines[i].code);
    CHECK(lines[i].text.size() <= 24u);
    if (i > 1) CHECK(lines[i].text.starts_with("    "));
  }
  // Nothing lost: the pieces hold the line's characters, in order (the breaks drop spaces).
  std::string joined;
  for (std::size_t i = 1; i < lines.size(); ++i) joined += lines[i].text;
  std::erase(joined, ' ');
  CHECK(joined == "unsignedaddr=__cvta_generic_to_shared(&tile[threadIdx.x%8][0]);");
  for (const TextLine& l : lines) CHECK_FALSE(l.text.ends_with(' '));
}

TEST_CASE("a code line's rest hangs four spaces below its own indent, at most a quarter deep") {
  // Inside a loop (indent 2), the rest of a long statement hangs at 6: deeper than the body's
  // next line, so the wrapped statement reads as one.
  const std::vector<TextLine> loop =
      wrap_text("      for (int j = threadIdx.y; j < 32; j += blockDim.y) {\n        x = 1;\n", 32);
  REQUIRE(loop.size() == 3);
  CHECK(loop[0].text == "  for (int j = threadIdx.y; j <");
  CHECK(loop[1].text == "      32; j += blockDim.y) {");
  CHECK(loop[2].text == "    x = 1;");
  // A parameter aligned under the line above (25 spaces) keeps a quarter of the width (8 of 32).
  const std::vector<TextLine> aligned =
      wrap_text("                             float* __restrict__ out, int rows) {\n", 32);
  REQUIRE(aligned.size() == 2);
  CHECK(aligned[0].text == "        float* __restrict__ out,");
  CHECK(aligned[1].text == "            int rows) {");
}

TEST_CASE("a word longer than the slide's line breaks after an underscore, a dot or a slash") {
  // The measure lesson names Nsight Compute's metrics, longer than a 1280x720 slide's line.
  const std::string metric = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
  const std::vector<TextLine> lines = wrap_text("It reads " + metric + ", summed.", 24);
  REQUIRE(lines.size() >= 4);
  std::string joined;
  for (const TextLine& l : lines) {
    CAPTURE(l.text);
    CHECK_FALSE(l.code);
    CHECK(l.text.size() <= 24u);
    joined += l.text + (l.text.ends_with('_') || l.text.ends_with('.') ? "" : " ");
  }
  CHECK(joined == "It reads " + metric + ", summed.");
  // The first cut is the last underscore that fits: "l1tex__data_pipe_lsu_" (21 characters).
  CHECK(lines[1].text == "l1tex__data_pipe_lsu_");
}
