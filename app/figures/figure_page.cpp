// A whole page for export: the scenario in words and the core's verdict over one view.
#include <cmath>

#include "banklab/explain.hpp"
#include "figure.hpp"
#include "figure_common.hpp"

namespace banklab::figures {

std::optional<View> parse_view(std::string_view text) {
  if (text == "banks") return View::banks;
  if (text == "lanes") return View::lanes;
  if (text == "tile") return View::tile;
  return std::nullopt;
}

Figure page_figure(View v, const Scenario& s, const Evaluation& e, float width, float height,
                   const FigureStyle& st) {
  const Palette& p = *st.palette;
  Figure f = detail::blank_figure(width, height, p);
  const float margin = std::floor(st.font * 0.8f);
  const float inner = width - 2 * margin;
  float y = margin;
  const auto line = [&](const std::string& text, float size, Rgba colour, Role role) {
    f.labels.push_back(
        detail::at(text, fit_font(text, size, inner, size), colour, margin, y, role));
    y += std::floor(size * 1.4f);
  };
  line(describe(s), st.font * 1.25f, p.text, Role::heading);
  if (e.ok()) {
    const Explanation x = explain(s, e);
    line(x.verdict, st.font, e.analysis->bank_conflicts() > 0 ? p.cell_conflict : p.cell_served,
         Role::verdict);
  }
  const Box area{margin, y + margin * 0.5f, width - margin, height - margin};
  if (v == View::tile) {
    append(f, tile_figure(s.tile, e, area, st));
  } else if (e.ok()) {
    append(f, v == View::banks ? bank_figure(*e.analysis, area, st)
                               : lane_figure(*e.analysis, area, st));
  }
  return f;
}

}  // namespace banklab::figures
