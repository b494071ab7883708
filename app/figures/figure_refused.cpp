// A refused access drawn rather than reported: a padded tile whose rows slip off the alignment
// of a wide access (fp32-pad1-vec16-store: 132-byte rows, 16-byte stores) cannot take it in
// most rows. The figure is the tile with those rows marked, beside the arithmetic that finds
// them (core's derivation), so the reason is on the picture.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "app/figures/figure.hpp"
#include "app/figures/figure_common.hpp"

namespace banklab::figures {
namespace {

// The thinnest tile row a refused access's figure draws: the misaligned rows' marks beside it
// must be told apart.
constexpr float kLeastTileRow = 6.0f;

}  // namespace

std::optional<RowAlignment> refused_rows(const Study& study) {
  const Scenario& s = study.scenario;
  if (study.evaluation.ok() || s.pattern == AccessPattern::raw || !study.tile_valid)
    return std::nullopt;
  const int width = s.effective_width();
  if (width <= s.tile.elem_bytes()) return std::nullopt;
  RowAlignment r = row_alignment(s.tile, width);
  if (r.step == 0 || r.misaligned.empty()) return std::nullopt;
  return r;
}

FigureStyle mark_refused_rows(FigureStyle st, const Study& s) {
  if (const auto r = refused_rows(s)) {
    st.highlights.rows = r->misaligned;
    st.row_width = r->width;
  }
  return st;
}

Figure misalignment_figure(const Study& s, Box area, const FigureStyle& style) {
  const FigureStyle st = mark_refused_rows(style, s);
  const Palette& p = *st.palette;
  Figure f = detail::blank_figure(area.x1, area.y1, p);
  const Explanation& x = s.explanation;
  // Wide areas: the tile on the left, the arithmetic on the right; else the tile over it.
  const bool beside = area.width() > area.height() * 1.3f;
  const float gap = std::floor(st.font);
  Box tile = area, text = area;
  if (beside) {
    tile.x1 = std::floor(area.x0 + area.width() * 0.55f);
    text.x0 = tile.x1 + gap;
  } else {
    tile.y1 = std::floor(area.y0 + area.height() * 0.6f);
    text.y0 = tile.y1 + gap;
  }
  // A tile whose rows would be thinner than kLeastTileRow is not drawn (a short window drew it
  // as a 2 px strip under its title): the arithmetic takes the whole area, and the Tile window
  // and the bank view show the tile.
  const Figure drawn_tile = tile_figure(s, tile, st);
  const bool draw_tile = !drawn_tile.grid || drawn_tile.grid->pitch_y >= kLeastTileRow;
  if (!draw_tile) text = area;
  // The derivation in the largest font, at most the style's, whose wrapped lines fit.
  const float text_font = st.page_font > 0 ? st.page_font : st.font;
  // Never below the style's smallest type: there, the lines that do not fit end in "...".
  const float least = std::min(st.min_font, text_font);
  std::vector<std::string> lines;
  float size = text_font;
  const auto wrap = [&](float at) {
    lines.clear();
    const int columns = std::max(8, static_cast<int>(text.width() / text_width("0", at)));
    for (const std::string& step : x.steps) {
      std::istringstream wrapped(reflow(step, columns - 2));
      bool first = true;
      for (std::string l; std::getline(wrapped, l); first = false)
        lines.push_back((first ? "- " : "  ") + l);
    }
    return static_cast<float>(lines.size()) * std::floor(at * 1.35f) <= text.height();
  };
  while (!wrap(size) && size - 0.5f >= least) size -= 0.5f;
  const auto fitting = static_cast<std::size_t>(
      std::max(1.0f, std::floor(text.height() / std::floor(size * 1.35f))));
  if (lines.size() > fitting) {
    lines.resize(fitting);
    lines.back() = "  ...";
  }
  float y = text.y0;
  for (const std::string& l : lines) {
    f.labels.push_back(detail::at(l, size, p.text, text.x0, y, Role::text));
    y += std::floor(size * 1.35f);
  }
  if (draw_tile) append(f, drawn_tile);
  return f;
}

}  // namespace banklab::figures
