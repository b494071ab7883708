// A whole page for export: the scenario in words and the core's verdict over one view.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "app/figures/figure.hpp"
#include "app/figures/figure_common.hpp"
#include "core/teach/lesson.hpp"

namespace banklab::figures {

std::optional<View> parse_view(std::string_view text) {
  if (text == "banks") return View::banks;
  if (text == "lanes") return View::lanes;
  if (text == "tile") return View::tile;
  return std::nullopt;
}

std::string verdict_line(const Study& s) {
  if (const auto r = refused_rows(s)) {
    return "refused: " + std::to_string(r->misaligned.size()) + " of " +
           std::to_string(s.scenario.tile.rows) + " rows start off a " + std::to_string(r->width) +
           "-byte boundary";
  }
  return s.explanation.verdict;
}

Figure page_figure(View v, const Study& s, float width, float height, const FigureStyle& st) {
  const Evaluation& e = s.evaluation;
  const Palette& p = *st.palette;
  Figure f = detail::blank_figure(width, height, p);
  const float margin = std::floor(st.font * 0.8f);
  // The scenario and verdict over the view, or (st.heading_beside) in a column left of it.
  const float inner = st.heading_beside ? std::floor(width * 0.32f) : width - 2 * margin;
  float y = margin;
  // A text wrapped at the page's width, not shrunk onto one line: in a three-way compare at
  // 1280x720 a verdict shrunk to fit its column was unreadable (and still ran into the next).
  const auto paragraph = [&](const std::string& text, float size, Rgba colour, Role role) {
    const int columns = std::max(1, static_cast<int>(inner / text_width("0", size)));
    std::istringstream lines(reflow(text, columns));
    for (std::string l; std::getline(lines, l);) {
      f.labels.push_back(detail::at(l, fit_font(l, size, inner, size), colour, margin, y, role));
      y += std::floor(size * 1.4f);
    }
  };
  const float text_font = st.page_font > 0 ? st.page_font : st.font;
  paragraph(describe(s.scenario), text_font * 1.25f, p.text, Role::heading);
  const std::optional<RowAlignment> refused = refused_rows(s);
  if (e.ok() || refused) {
    const bool conflict = e.ok() && e.analysis->bank_conflicts() > 0;
    paragraph(verdict_line(s), std::max(text_font, st.verdict_font),
              conflict || !e.ok() ? p.error : p.text_ok, Role::verdict);
  }
  y = std::max(y, margin + st.page_heading);
  const Box area = st.heading_beside
                       ? Box{2 * margin + inner, margin, width - margin, height - margin}
                       : Box{margin, y + margin * 0.5f, width - margin, height - margin};
  if (refused) {  // every view of a refused access: the rows it cannot start in
    append(f, misalignment_figure(s, area, st));
  } else if (v == View::tile && st.tile_view == TileView::both) {
    for (const Figure& half : tile_pair_figure(s, area, st)) append(f, half);
  } else if (v == View::tile) {
    append(f, tile_figure(s, area, st));
  } else if (e.ok()) {
    append(f, v == View::banks ? bank_figure(*e.analysis, area, st)
                               : lane_figure(*e.analysis, area, st));
  }
  return f;
}

}  // namespace banklab::figures
