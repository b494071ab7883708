// The stage: presentation mode (one view of the scenario on screen filling the window in large
// type, the verdict always on top) and comparisons (2-4 scenarios side by side, each headed by
// its name, its wavefronts and its verdict). Both are banklab_figures pages (the SVG export's),
// drawn at a font that grows with the window, so the back of a lecture room can read them.
#include <algorithm>
#include <cmath>

#include "app/gui/panels/panels.hpp"
#include "app/gui/views/figure_draw.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {
namespace {

figures::View figure_view(StageView v) {
  return v == StageView::lanes  ? figures::View::lanes
         : v == StageView::tile ? figures::View::tile
                                : figures::View::banks;
}

// Derives the compared scenarios when they changed (the core runs once per change).
void refresh_compared(AppState& s) {
  const std::vector<CompareItem>& items = s.user.stage.compare;
  bool same = s.compared.size() == items.size();
  for (std::size_t i = 0; same && i < items.size(); ++i) {
    same = s.compared[i].scenario == items[i].scenario;
  }
  if (same) return;
  s.compared.clear();
  for (const CompareItem& item : items) s.compared.push_back(derive(item.scenario));
}

// The keys, in a line along the bottom.
constexpr const char* kHint =
    "F5 / Esc leave   Space play   Left/Right step   N/P preset   V view   T theme";

}  // namespace

figures::FigureStyle stage_style(const AppState& s, float height) {
  figures::FigureStyle st = figure_style(view_style(s));
  // Large type: a 36th of the height, never below the UI's own size.
  st.font = std::floor(std::max(ImGui::GetFontSize(), height / 36.0f));
  st.min_font = std::max(9.0f, std::floor(st.font * 0.5f));
  st.tile_caption = true;
  return st;
}

figures::Figure stage_figure(AppState& s, figures::Box area, figures::FigureStyle st) {
  figures::Figure f;
  f.width = area.x1;
  f.height = area.y1;
  f.background = st.palette->background;
  const std::vector<CompareItem>& items = s.user.stage.compare;
  if (items.empty()) {
    const Derived& d = s.derived;
    figures::append(f,
                    figures::page_figure(figure_view(s.user.stage.view), d.scenario, d.evaluation,
                                         area.width(), area.height(), st),
                    area.x0, area.y0);
    return f;
  }
  refresh_compared(s);
  // No step-through, no tile (its heat map is the scenario on screen's) and no lesson step's
  // highlights (they belong to the scenario on screen) in a comparison.
  st.served = kAllServed;
  st.hovered_lane = -1;
  st.highlights = {};
  const figures::View view =
      s.user.stage.view == StageView::lanes ? figures::View::lanes : figures::View::banks;
  const float w = std::floor(area.width() / static_cast<float>(items.size()));
  // Narrow columns take smaller type, so that 32 bank numbers still fit across each; the
  // sentences over them keep the large type and wrap.
  st.page_font = st.font;
  st.font = std::min(st.font, std::floor(w / 40.0f));
  st.min_font = std::min(st.min_font, st.font);
  const float name_h = std::floor(st.font * 1.5f);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const float x = area.x0 + w * static_cast<float>(i);
    const std::string& name = items[i].name;
    const float size = figures::fit_font(name, st.font * 1.2f, w - st.font, name_h);
    f.labels.push_back(figures::Label{
        figures::Box{x + st.font * 0.5f, area.y0,
                     x + st.font * 0.5f + figures::text_width(name, size), area.y0 + size},
        size, st.palette->text, name, figures::Role::heading, static_cast<int>(i), std::nullopt,
        figures::kNoColour});
    const Derived& d = s.compared[i];
    figures::append(
        f, figures::page_figure(view, d.scenario, d.evaluation, w, area.height() - name_h, st), x,
        area.y0 + name_h);
  }
  return f;
}

void draw_stage(AppState& s, Interaction& io, float top) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(0, top));
  ImGui::SetNextWindowSize(ImVec2(display.x, display.y - top));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (!ImGui::Begin("##stage", nullptr, flags)) {
    ImGui::End();
    return;
  }
  figures::Box area = available_box();
  area.y1 -= ImGui::GetTextLineHeightWithSpacing();  // the keys' line
  const figures::Figure f = stage_figure(s, area, stage_style(s, display.y - top));
  add_labels(io.geometry, f);
  ImGui::InvisibleButton("##stage-area", ImVec2(area.width(), area.height()));
  draw_figure(f, ImGui::GetWindowDrawList(), *io.draw, s.res.label_fonts);
  ImGui::TextDisabled("%s", kHint);
  ImGui::End();
}

void cycle_stage_view(AppState& s) {
  StageView& v = s.user.stage.view;
  v = v == StageView::banks                                   ? StageView::lanes
      : v == StageView::lanes && s.user.stage.compare.empty() ? StageView::tile
                                                              : StageView::banks;
}

}  // namespace banklab::gui
