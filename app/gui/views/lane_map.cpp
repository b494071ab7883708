// The lane-to-bank map: the 32 lanes along the top, the 32 banks along the bottom, and a line
// from each lane to every bank it touches, coloured as the bank view colours its word (red only
// for a conflict); lanes that share a word meet at that word. Parallel lines are a
// conflict-free access; lines converging on one bank are the conflict. Click a lane to switch
// it off or on. The picture is banklab_figures' lane_figure().
#include <algorithm>
#include <cmath>

#include "app/gui/views/figure_draw.hpp"
#include "app/gui/views/views.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {
namespace {

void lane_tooltip(std::uint32_t lane_mask, const Analysis& a, int lane) {
  const LaneRecord& r = a.lanes[lane];
  ImGui::BeginTooltip();
  ImGui::Text("lane %d%s", lane, (lane_mask >> lane & 1u) ? "" : " (switched off)");
  if (!r.active) {
    ImGui::TextUnformatted("no access: this lane costs nothing");
  } else {
    ImGui::Text("byte %lld", static_cast<long long>(r.byte));
    for (int i = 0; i < r.word_count; ++i) {
      ImGui::Text("word %lld -> bank %d, wavefront %d", static_cast<long long>(r.words[i]),
                  r.banks[i], r.wavefronts[i]);
    }
    if (r.shares_word) ImGui::TextUnformatted("shares a word with another lane of its phase");
  }
  ImGui::TextDisabled("click: switch lane %d %s", lane, (lane_mask >> lane & 1u) ? "off" : "on");
  ImGui::EndTooltip();
}

void bank_tooltip(const Analysis& a, int bank) {
  std::uint32_t lanes = 0;
  int words = 0;
  for (const Wavefront& wf : a.wavefronts) {
    if (wf.banks[bank].used()) {
      lanes |= wf.banks[bank].lanes;
      ++words;
    }
  }
  ImGui::BeginTooltip();
  ImGui::Text("bank %d", bank);
  if (words == 0) {
    ImGui::TextUnformatted("not touched by this access");
  } else {
    ImGui::Text("serves %d word%s to lanes %s", words, words > 1 ? "s" : "",
                lane_ranges(lanes).c_str());
  }
  ImGui::EndTooltip();
}

}  // namespace

void draw_lanes(const Study& d, const ViewStyle& v, Interaction& io) {
  io.geometry.lanes.drawn = false;
  const Evaluation& e = d.evaluation;
  const Palette& p = *v.palette;
  if (draw_refused(d, v, io)) return;
  if (draw_errors_instead(p, e.diagnostics, "the lane map")) return;
  const Analysis& a = *e.analysis;
  const figures::Box area = available_box();
  if (area.width() < 64 || area.height() < 4 * ImGui::GetFontSize()) return;

  // The layout is banklab_figures' (the same as `banklab export --what lanes`). In a phone's
  // column: 32 lane boxes of 17 px (lane numbers of 11 px), scrolled to.
  const ReadableBox readable = begin_readable_box(
      "##lanes-readable", v, area, ImVec2(32.0f * 17.0f + 2.0f * ImGui::GetFontSize(), 0.0f));
  const figures::Box box = readable.box;
  const figures::Figure f = figures::lane_figure(a, box, figure_style(v));
  LaneMapGeometry& g = io.geometry.lanes;
  for (const figures::Rect& r : f.rects) {
    if (r.role != figures::Role::lane_box && r.role != figures::Role::bank_box) continue;
    const bool lane = r.role == figures::Role::lane_box;
    (lane ? g.lane_min : g.bank_min)[r.index] = ImVec2(r.box.x0, r.box.y0);
    (lane ? g.lane_max : g.bank_max)[r.index] = ImVec2(r.box.x1, r.box.y1);
  }
  g.drawn = true;
  add_labels(io.geometry, f);

  ImGui::InvisibleButton("##lane-map", ImVec2(box.width(), box.height()));
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  draw_figure(f, ImGui::GetWindowDrawList(), *io.draw, v.label_fonts);
  end_readable_box(readable);
  if (!hovered) return;
  const ImVec2 m = ImGui::GetIO().MousePos;
  // A box and the gap after it, whichever way the map runs (lanes across the top, or down the
  // side in a narrow window).
  const float step_x = g.lane_min[1].x - g.lane_min[0].x,
              step_y = g.lane_min[1].y - g.lane_min[0].y;
  for (int i = 0; i < kWarpSize; ++i) {
    const auto over = [&](ImVec2 mn, ImVec2 mx) {
      return m.x >= mn.x && m.x < std::max(mx.x, mn.x + step_x) && m.y >= mn.y &&
             m.y < std::max(mx.y, mn.y + step_y);
    };
    if (over(g.lane_min[i], g.lane_max[i])) {
      io.hovering_lane = i;
      lane_tooltip(d.scenario.lane_mask, a, i);
      if (clicked) io.clicked_lane = i;
    } else if (over(g.bank_min[i], g.bank_max[i])) {
      bank_tooltip(a, i);
    }
  }
}

}  // namespace banklab::gui
