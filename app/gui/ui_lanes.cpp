// The lane-to-bank map: the 32 lanes along the top, the 32 banks along the bottom, and a line
// from each lane to every bank it touches, coloured by the wavefront that serves it. Parallel
// lines are a conflict-free access; lines converging on one bank are the conflict. Click a
// lane to switch it off or on.
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <vector>

#include "ui_common.hpp"
#include "views.hpp"

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

void draw_lanes(const Derived& d, const ViewStyle& v, Interaction& io) {
  io.geometry.lanes.drawn = false;
  const Evaluation& e = d.evaluation;
  const Palette& p = *v.palette;
  if (draw_errors_instead(p, e.diagnostics, "the lane map")) return;
  const Analysis& a = *e.analysis;
  float font = ImGui::GetFontSize();
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.x < 64 || avail.y < 4 * font) return;

  // Geometry first: two rows of 32 boxes, the top one for lanes and the bottom one for banks.
  LaneMapGeometry& g = io.geometry.lanes;
  float pitch = std::floor(avail.x / kWarpSize);
  float gap = std::max(1.0f, std::floor(pitch * 0.12f));
  float box_h = std::min(font * 1.5f, avail.y * 0.2f);
  float left = origin.x + std::floor((avail.x - pitch * kWarpSize) * 0.5f);
  float caption = ImGui::GetTextLineHeight();
  float top = origin.y + caption;
  float bottom = origin.y + avail.y - box_h - caption;
  for (int i = 0; i < kWarpSize; ++i) {
    float x = left + pitch * static_cast<float>(i);
    g.lane_min[i] = ImVec2(x, top);
    g.lane_max[i] = ImVec2(x + pitch - gap, top + box_h);
    g.bank_min[i] = ImVec2(x, bottom);
    g.bank_max[i] = ImVec2(x + pitch - gap, bottom + box_h);
  }
  g.drawn = true;

  ImGui::InvisibleButton("##lane-map", avail);
  bool hovered = ImGui::IsItemHovered();
  bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  int served = v.served;

  std::vector<Segment> lines;
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneRecord& r = a.lanes[l];
    if (!r.active) continue;
    ImVec2 from((g.lane_min[l].x + g.lane_max[l].x) * 0.5f, g.lane_max[l].y);
    for (int i = 0; i < r.word_count; ++i) {
      int b = r.banks[i];
      ImVec2 to((g.bank_min[b].x + g.bank_max[b].x) * 0.5f, g.bank_min[b].y);
      ImU32 c = p.wavefronts[r.wavefronts[i] % 32];
      if (r.wavefronts[i] >= served) c = with_alpha(c, 0.18f);
      float width = (l == v.hovered_lane ? 4.0f : 2.0f) * ui_scale();
      lines.push_back({from, to, width, c});
    }
  }
  io.draw->add_segments(dl, lines);

  std::vector<Quad> boxes;
  std::uint32_t touched = 0;
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneRecord& r = a.lanes[l];
    for (int i = 0; i < r.word_count; ++i) touched |= 1u << r.banks[i];
    ImU32 c = p.lane_off;
    if (r.active) c = r.last_wavefront < served ? p.lane_on : with_alpha(p.lane_on, 0.3f);
    boxes.push_back({g.lane_min[l], g.lane_max[l], c, QuadStyle::solid});
    if (l == v.hovered_lane) {
      boxes.push_back({ImVec2(g.lane_min[l].x - 2, g.lane_min[l].y - 2),
                       ImVec2(g.lane_max[l].x + 2, g.lane_max[l].y + 2), p.highlight,
                       QuadStyle::outline});
    }
  }
  for (int b = 0; b < kBankCount; ++b) {
    ImU32 c = (touched >> b & 1u) ? p.banks[b] : with_alpha(p.banks[b], 0.25f);
    boxes.push_back({g.bank_min[b], g.bank_max[b], c, QuadStyle::solid});
  }
  io.draw->add_quads(dl, boxes);

  // Two-digit numbers in narrow boxes (a laptop screen) take the small font; where even that
  // does not fit, every fourth box is numbered, centred on it and spilling onto its neighbours.
  char buf[16];
  const ImFont* small = v.small_font ? v.small_font : ImGui::GetFont();
  for (int i = 0; i < kWarpSize; ++i) {
    std::snprintf(buf, sizeof buf, "%d", i);
    for (auto [mn, mx, colour] : {std::tuple{g.lane_min[i], g.lane_max[i], p.on_fill},
                                  std::tuple{g.bank_min[i], g.bank_max[i], p.on_bank}}) {
      if (label_in_box(v.small_font, dl, mn, mx, colour, buf) || i % 4) continue;
      ImVec2 sz = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0.0f, buf);
      dl->AddText(small, small->FontSize,
                  ImVec2(std::floor((mn.x + mx.x - sz.x) * 0.5f),
                         std::floor((mn.y + mx.y - sz.y) * 0.5f)),
                  colour, buf);
    }
  }
  dl->AddText(ImVec2(left, origin.y), p.text_dim, "lanes (click to switch off / on)");
  dl->AddText(ImVec2(left, bottom + box_h + 1.0f), p.text_dim,
              "banks; lines coloured by wavefront");

  if (hovered) {
    ImVec2 m = ImGui::GetIO().MousePos;
    for (int i = 0; i < kWarpSize; ++i) {
      bool on_lane = m.x >= g.lane_min[i].x && m.x < g.lane_min[i].x + pitch &&
                     m.y >= g.lane_min[i].y && m.y <= g.lane_max[i].y;
      bool on_bank = m.x >= g.bank_min[i].x && m.x < g.bank_min[i].x + pitch &&
                     m.y >= g.bank_min[i].y && m.y <= g.bank_max[i].y;
      if (on_lane) {
        io.hovering_lane = i;
        lane_tooltip(d.scenario.lane_mask, a, i);
        if (clicked) io.clicked_lane = i;
      } else if (on_bank) {
        bank_tooltip(a, i);
      }
    }
  }
}

}  // namespace banklab::gui
