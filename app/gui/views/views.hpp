#pragma once
// The views that draw one scenario: the bank view, the lane map, the tile and the arithmetic.
// Each receives what it draws (a Study, from study()), how to draw it (ViewStyle) and where
// to report what happened (Interaction), and draws into the current ImGui window or child at
// the cursor, filling the space left. None of them sees AppState, so a second scenario is drawn
// the same way:
//
//   Study other = study(scenario_b);
//   ViewStyle style = view_style(s);  // fonts, theme, lane highlight of the main scenario
//   style.served = kAllServed;        // no step-through for this one
//   Interaction io{&s.frame.draw};
//   if (ImGui::BeginChild("##b-banks", ImVec2(w, h))) draw_banks(other, style, io);
//   ImGui::EndChild();
//
// ImGui IDs: inside one window, wrap each scenario's views in ImGui::PushID(i)/PopID() or in
// its own child, as above.
#include <imgui.h>

#include <climits>
#include <span>

#include "app/figures/figure.hpp"
#include "app/gui/render/draw_queue.hpp"
#include "app/gui/render/palette.hpp"
#include "app/gui/views/geometry.hpp"
#include "core/report/study.hpp"
#include "core/teach/lesson.hpp"

namespace banklab::gui {

inline constexpr int kAllServed = INT_MAX;

struct ViewStyle {
  const Palette* palette = nullptr;      // never null when drawing
  ImFont* small_font = nullptr;          // labels in narrow cells; nullptr: the current font
  ImFont* mono_font = nullptr;           // formulas and tables; nullptr: the current font
  std::span<ImFont* const> label_fonts;  // the figures' labels, ascending (FontSet::labels)
  int hovered_lane = -1;                 // outlined wherever it is served
  int served = kAllServed;               // step-through: wavefronts served so far
  bool playing = false;                  // step-through running (the current row is outlined)
  figures::TileView tile_view = figures::TileView::logical;  // the tile's picture(s)
  const Highlights* highlights = nullptr;  // a lesson step's lanes, banks, rows and elements
  // A phone's one column (default_layout()): a view whose numbers would not read in its window
  // scrolls to a size where they do (begin_readable_box()).
  bool one_column = false;
};

// What the views report back. The caller decides what to do with it: the main window stores
// the geometry for --geometry and turns clicks into scenario edits; a comparison may ignore it.
struct Interaction {
  explicit Interaction(DrawQueue* queue) : draw(queue) {}
  DrawQueue* draw;         // GL quads, segments and the tile heat map; never null
  FrameGeometry geometry;  // where each view drawn put its cells
  int hovering_lane = -1;  // the lane under the mouse this frame
  int clicked_lane = -1;   // lane map: a lane box clicked (switch it off / on)
};

void draw_banks(const Study& d, const ViewStyle& v, Interaction& io);  // bank_view.cpp
void draw_lanes(const Study& d, const ViewStyle& v, Interaction& io);  // lane_map.cpp
// The tile heat map comes from io.draw->heatmap, which is built for the main scenario
// (AppState::frame): a second tile needs its own HeatmapImage first.
void draw_tile(const Study& d, const ViewStyle& v, Interaction& io);        // tile_view.cpp
void draw_arithmetic(const Study& d, const ViewStyle& v, Interaction& io);  // arithmetic_view.cpp

}  // namespace banklab::gui
