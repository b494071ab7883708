// The Descriptor Lab's picture without a display: at projector sizes every chunk label sits
// inside its cell, the chunks one k-step reads are coloured by core matrix and exactly the
// misread ones are red, the rows show the swizzle's chunk order, SBO and LBO are drawn, and the
// SVG is well-formed.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "app/figures/descriptor_figure.hpp"
#include "app/figures/svg.hpp"
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

}  // namespace
