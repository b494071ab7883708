// The Descriptor Lab's picture without a display: at projector sizes every chunk label sits
// inside its cell, the chunks one k-step reads are coloured by core matrix and exactly the
// misread ones are red, the rows show the swizzle's chunk order, SBO and LBO are drawn, and the
// SVG is well-formed. For an MN-major operand the first core matrix's outline and the arrows'
// ends are checked against the core's element -> byte map (descriptor_byte()), and no two
// labels overlap except where an arrow's words cover a chunk's label whole.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "app/figures/descriptor_figure.hpp"
#include "app/figures/svg.hpp"
#include "core/base/format.hpp"
#include "tests/figures/markup.hpp"

using namespace banklab;
using namespace banklab::figures;

namespace {

const OperandShape kKBf16{OperandMajor::k, DType::bf16};
const OperandFill kTma128{TileLayout{DType::bf16, 64, 64, 0, SwizzleSpec{SwizzleKind::tma128}}, 1,
                          0};

int count(const Figure& f, Role role) {
  int n = 0;
  for (const Label& l : f.labels) n += l.role == role ? 1 : 0;
  return n;
}

TEST_CASE("agreeing descriptor: no red, 16 core matrices coloured, rows show q ^ (r mod 8)") {
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 0, 16, 1024, 0, false};
  for (const Theme theme : {Theme::dark, Theme::light}) {
    for (const auto& size : {Box{0, 0, 1280, 720}, Box{0, 0, 1920, 1080}}) {
      const Palette& p = palette_for(theme);
      const Figure f = descriptor_figure(d, kKBf16, kTma128, 1, size, FigureStyle{&p});
      // As many 128-byte lines as fit readably (all 64 at 1080p), each holding one row.
      REQUIRE(f.grid);
      const int lines = f.grid->rows;
      CHECK(lines >= (size.y1 > 1000 ? 64 : 48));
      int read = 0;
      for (const Rect& r : f.rects) {
        if (r.role != Role::cell) continue;  // the legend's swatches show every colour
        CHECK(r.colour != p.cell_conflict);
        read += r.colour != p.cell_empty ? 1 : 0;
      }
      CHECK(read == lines * 2);  // each row's two 16-byte chunks of one k-step
      for (const Label& l : f.labels) {
        if (l.role != Role::cell_label) continue;
        REQUIRE(l.cell);
        CHECK(l.cell->contains(l.box));
        CHECK(l.size >= 9.0f);
      }
      CHECK(count(f, Role::cell_label) == lines * 8);
      // Line 1 holds row 1 with its chunks XORed by 1: 1 0 3 2 5 4 7 6.
      bool found = false;
      for (const Label& l : f.labels)
        found |= l.role == Role::axis_label && l.text == "1 0 3 2 5 4 7 6";
      CHECK(found);
      CHECK(f.lines.size() == 2);  // SBO and (unused) LBO
      CHECK(test::markup_problem(to_svg(f), test::Markup::xml) == "");
    }
  }
}

TEST_CASE("the wrong swizzle: the misread chunks are red, and only they") {
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b64, 0, 16, 512, 0, false};
  const Palette& p = palette_for(Theme::light);
  const Figure f = descriptor_figure(d, kKBf16, kTma128, 0, Box{0, 0, 1280, 720}, FigureStyle{&p});
  int red = 0;
  for (const Rect& r : f.rects) red += r.role == Role::cell && r.colour == p.cell_conflict ? 1 : 0;
  // The 64B descriptor reads 64-byte rows: row r's two chunks sit in line r / 2; all but row 0's
  // are misread. Of the lines drawn, each holds two rows' four chunks.
  REQUIRE(f.grid);
  CHECK(red == std::min(f.grid->rows * 4, 128) - 2);
  bool verdict = false;
  for (const Label& l : f.labels)
    verdict |= l.role == Role::verdict && l.text.starts_with("MISMATCH");
  CHECK(verdict);
}

TEST_CASE("an undefined read is drawn as its rules") {
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128_atom32, 0, 16, 1024, 0, false};
  const Palette& p = palette_for(Theme::dark);
  const Figure f = descriptor_figure(d, kKBf16, kTma128, 0, Box{0, 0, 1280, 720}, FigureStyle{&p});
  CHECK(f.rects.empty());
  CHECK(count(f, Role::text) >= 1);
}

// The lesson's MN-major step: a bf16 tile[32][64] TMA wrote with 128B, two boxes side by side,
// so that the operand is two swizzle atoms wide along MN and LBO counts.
const OperandShape kMnBf16{OperandMajor::mn, DType::bf16};
const OperandFill kMnTwoBoxes{TileLayout{DType::bf16, 32, 64, 0, SwizzleSpec{SwizzleKind::tma128}},
                              2, 0};
const MatrixDescriptor kMn128{MmaArch::sm90, DescSwizzle::b128, 0, 4096, 1024, 0, false};

bool overlap(const Box& a, const Box& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// The chunk (16 bytes, counted from the fill's destination) the descriptor reads element
// (mn, k) of k-step s from: the core's map, with the start the agreement gives the step.
std::int64_t read_chunk(const MatrixDescriptor& d, const OperandShape& op, const OperandFill& fill,
                        int s, int mn, int k) {
  MatrixDescriptor step = d;
  step.start = check_agreement(d, op, fill).steps[static_cast<std::size_t>(s)].start;
  return (descriptor_byte(step, op, mn, k) - fill.dest) / 16;
}

Box cell_box(const Grid& g, std::int64_t chunk) {
  const float x0 = g.x + static_cast<float>(chunk % 8) * g.pitch_x;
  const float y0 = g.y + static_cast<float>(chunk / 8) * g.pitch_y;
  return Box{x0, y0, x0 + g.pitch_x, y0 + g.pitch_y};
}

bool inside(const Box& b, float x, float y) {
  return x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1;
}

// The arrows: access lines (the legend's samples are legend lines).
std::vector<Line> arrow_lines(const Figure& f) {
  std::vector<Line> out;
  for (const Line& l : f.lines)
    if (l.role == Role::access_line) out.push_back(l);
  return out;
}

// The arrows' words: legend labels with an arrow's index (the legend's own have none).
std::vector<Label> arrow_labels(const Figure& f) {
  std::vector<Label> out;
  for (const Label& l : f.labels)
    if (l.role == Role::legend && l.index >= 0) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("MN-major: the first core matrix and SBO / LBO where the core's map puts them") {
  const DescSwizzleInfo& sw = desc_swizzle(kMn128.swizzle);
  const int atom_mn = sw.width_bytes / kMnBf16.elem_bytes();  // the next atom along MN: LBO
  for (const Theme theme : {Theme::dark, Theme::light}) {
    for (const Box size : {Box{0, 0, 1280, 720}, Box{0, 0, 1920, 1080}}) {
      for (int s = 0; s < 2; ++s) {
        CAPTURE(s);
        CAPTURE(size.x1);
        const Palette& p = palette_for(theme);
        const FigureStyle st{&p};
        const Figure f = descriptor_figure(kMn128, kMnBf16, kMnTwoBoxes, s, size, st);
        REQUIRE(f.grid);
        const Grid& g = *f.grid;
        // 2 boxes x 32 rows of K, each one 128-byte line: all at 1080p, 52 at 720p.
        CHECK(g.rows >= (size.y1 > 1000 ? 64 : 48));
        // The first core matrix: 8 rows of K x 16 bytes of MN, each row a chunk the map places.
        const CoreMatrix core = core_matrix_of(kMnBf16, 0, 0);
        CHECK(core.k_count == 8);
        std::set<std::int64_t> expected;
        for (int k = 0; k < core.k_count; ++k)
          expected.insert(read_chunk(kMn128, kMnBf16, kMnTwoBoxes, s, 0, k));
        CHECK(expected.size() == 8);
        std::set<std::int64_t> outlined;
        for (const Rect& r : f.overlays) {
          if (r.role != Role::tile_outline) continue;
          const auto chunk =
              static_cast<std::int64_t>(std::lround((r.box.y0 - g.y) / g.pitch_y) * 8 +
                                        std::lround((r.box.x0 - g.x) / g.pitch_x));
          outlined.insert(chunk);
        }
        CHECK(outlined == expected);
        // Under 128B the core matrix's 8 rows sit on the diagonal: row k in chunk k of line k.
        for (const std::int64_t c : expected) CHECK(c % 8 == (c / 8) % 8);
        // SBO from the first chunk to the next group of rows of K; LBO to the next atom along MN.
        const std::vector<Line> lines = arrow_lines(f);
        REQUIRE(lines.size() == 2);
        const Box from = cell_box(g, read_chunk(kMn128, kMnBf16, kMnTwoBoxes, s, 0, 0));
        const Box sbo = cell_box(g, read_chunk(kMn128, kMnBf16, kMnTwoBoxes, s, 0, sw.atom_rows));
        const Box lbo = cell_box(g, read_chunk(kMn128, kMnBf16, kMnTwoBoxes, s, atom_mn, 0));
        for (const Line& l : lines) CHECK(inside(from, l.x0, l.y0));
        CHECK(inside(sbo, lines[0].x1, lines[0].y1));
        CHECK(inside(lbo, lines[1].x1, lines[1].y1));
        CHECK(lbo.y0 - from.y0 ==
              doctest::Approx(g.pitch_y * static_cast<float>(kMn128.lbo / 128)));
        CHECK(sbo.y0 - from.y0 ==
              doctest::Approx(g.pitch_y * static_cast<float>(kMn128.sbo / 128)));
        // Both run down the same column of memory, yet stay two lines.
        CHECK(std::abs(lines[0].x0 - lines[1].x0) >= 0.2f * g.pitch_x);
        const std::vector<Label> arrows = arrow_labels(f);
        REQUIRE(arrows.size() == 2);
        CHECK(arrows[0].text == "SBO 1024 B");
        CHECK(arrows[1].text == "LBO 4096 B");
        // No two labels overlap, but where an arrow's words cover a chunk's label whole; all
        // stay in the picture, none under the minimum type.
        for (std::size_t i = 0; i < f.labels.size(); ++i) {
          const Label& a = f.labels[i];
          CHECK(a.size >= st.min_font);
          CHECK(size.contains(a.box));
          for (std::size_t j = i + 1; j < f.labels.size(); ++j) {
            const Label& b = f.labels[j];
            if (!overlap(a.box, b.box)) continue;
            const bool a_arrow = a.role == Role::legend && a.index >= 0;
            const bool b_arrow = b.role == Role::legend && b.index >= 0;
            CAPTURE(a.text);
            CAPTURE(b.text);
            if (a_arrow != b_arrow && (a_arrow ? b : a).role == Role::cell_label)
              CHECK((a_arrow ? a : b).box.contains((a_arrow ? b : a).box));
            else
              FAIL_CHECK("labels overlap");
          }
        }
        int red = 0;
        for (const Rect& r : f.rects) red += r.role == Role::cell && r.colour == p.cell_conflict;
        CHECK(red == 0);
        CHECK(test::markup_problem(to_svg(f), test::Markup::xml) == "");
      }
    }
  }
}

TEST_CASE("MN-major one atom wide: LBO has nowhere to go, and the legend says so") {
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 0, 8192, 1024, 0, false};
  const Palette& p = palette_for(Theme::light);
  const Figure f = descriptor_figure(d, kMnBf16, kTma128, 0, Box{0, 0, 1280, 720}, FigureStyle{&p});
  CHECK(arrow_lines(f).size() == 1);  // SBO only
  REQUIRE(arrow_labels(f).size() == 1);
  CHECK(arrow_labels(f)[0].text == "SBO 1024 B");
  bool note = false;
  for (const Label& l : f.labels) {
    note |= l.role == Role::legend &&
            l.text == "LBO 8192 B unused: the operand is one 128-byte swizzle atom wide along MN";
  }
  CHECK(note);
}

TEST_CASE("an arrow past the lines drawn runs to the grid's bottom and says where it ends") {
  // Two 64-row boxes: LBO (8192 B) lands on line 64 + the step's, below the lines 720 shows.
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 0, 8192, 1024, 0, false};
  const OperandFill fill{kTma128.box, 2, 0};
  const Palette& p = palette_for(Theme::dark);
  const Figure f = descriptor_figure(d, kMnBf16, fill, 1, Box{0, 0, 1280, 720}, FigureStyle{&p});
  REQUIRE(f.grid);
  const Grid& g = *f.grid;
  REQUIRE(g.rows < 64);
  const std::vector<Line> lines = arrow_lines(f);
  REQUIRE(lines.size() == 2);
  const std::int64_t lbo_chunk = read_chunk(d, kMnBf16, fill, 1, 64, 0);
  CHECK(lbo_chunk / 8 >= g.rows);
  CHECK(lines[1].y1 == doctest::Approx(g.y + g.pitch_y * static_cast<float>(g.rows)));
  const std::vector<Label> arrows = arrow_labels(f);
  REQUIRE(arrows.size() == 2);
  CHECK(arrows[1].text == format("LBO 8192 B: to +0x%05llx, below",
                                 static_cast<unsigned long long>(lbo_chunk / 8 * 128)));
  CHECK_FALSE(overlap(arrows[0].box, arrows[1].box));
}
