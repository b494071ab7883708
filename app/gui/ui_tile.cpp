// The tile view: the R x C tile with its padding, every element coloured by the bank its first
// word lands in (a heat map drawn by shaders/heatmap.frag from a texture), and the elements of
// the current access outlined with their lane numbers. With a swizzle, "logical" shows elements
// where the program indexes them, "physical" where the swizzle really stores them.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "banklab/hardware.hpp"
#include "ui_common.hpp"
#include "views.hpp"

namespace banklab::gui {
namespace {

void slot_tooltip(const TileLayout& t, bool physical, int r, int p) {
  ImGui::BeginTooltip();
  if (p >= t.cols) {
    std::int64_t byte = t.logical_byte(r, p);
    ImGui::Text("padding slot (%d, %d): byte %lld, bank %d", r, p, static_cast<long long>(byte),
                bank_of_byte(byte));
    ImGui::TextUnformatted("holds no element; it only shifts the next row's banks");
  } else if (physical) {
    std::int64_t byte = t.logical_byte(r, p);
    ImGui::Text("slot (%d, %d) of the stored tile", r, p);
    ImGui::Text("byte %lld -> word %lld -> bank %d", static_cast<long long>(byte),
                static_cast<long long>(word_of_byte(byte)), bank_of_byte(byte));
  } else {
    std::int64_t byte = t(r, p);
    Cell at = t.physical_cell(r, p);
    ImGui::Text("element (%d, %d)", r, p);
    ImGui::Text("byte %lld -> word %lld -> bank %d", static_cast<long long>(byte),
                static_cast<long long>(word_of_byte(byte)), t.bank(r, p));
    if (at.row != r || at.col != p) {
      ImGui::Text("stored at slot (%d, %d) by the swizzle", at.row, at.col);
    }
  }
  ImGui::EndTooltip();
}

}  // namespace

void draw_tile(const Derived& d, const ViewStyle& v, Interaction& io) {
  io.geometry.tile.reset();
  const TileLayout& t = d.scenario.tile;
  const Palette& p = *v.palette;
  float font = ImGui::GetFontSize();
  if (!d.tile_error.empty()) {
    draw_errors_instead(p, {Diagnostic{Severity::error, "tile", d.tile_error, -1}}, "the tile");
    return;
  }
  bool physical = v.tile_physical;
  if (d.scenario.pattern == AccessPattern::custom) {
    ImGui::TextDisabled("custom offsets: the access is not tied to this tile");
  }
  const Evaluation& e = d.evaluation;
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.x < 32 || avail.y < 32) return;
  int slots = t.cols + t.pad;
  TileGeometry g;
  g.cols = t.cols;
  g.grid = fit_grid(origin, avail, t.rows, slots, ImVec2(font * 2.2f, font * 2.2f), 0.0f, true);
  io.geometry.tile = g;
  const GridGeometry& grid = g.grid;

  ImGui::InvisibleButton("##tile", ImVec2(avail.x, grid.max().y - origin.y));
  bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  io.draw->add_heatmap(dl, grid.origin, grid.max());

  if (e.ok()) {
    const Analysis& a = *e.analysis;
    std::vector<Quad> marks;
    struct Label {
      ImVec2 min, max;
      int lane;
    };
    std::vector<Label> labels;
    // Outlines at least 3 px across, so a single element of a 256-row tile still shows.
    auto widen = [](float lo, float hi) {
      float grow = std::max(0.0f, 3.0f - (hi - lo)) * 0.5f;
      return std::pair{lo - grow, hi + grow};
    };
    for (int l = 0; l < kWarpSize; ++l) {
      const LaneElements& el = e.elements[l];
      if (!a.lanes[l].active || el.count == 0) continue;
      bool lit = a.lanes[l].last_wavefront < v.served;
      ImU32 c = lit ? p.highlight : with_alpha(p.highlight, 0.35f);
      if (l == v.hovered_lane) c = p.ideal_line;
      for (int j = 0; j < el.count; ++j) {
        std::int64_t pos = std::int64_t{el.first.row} * t.cols + el.first.col + j;
        Cell cell{static_cast<int>(pos / t.cols), static_cast<int>(pos % t.cols)};
        if (physical) cell = t.physical_cell(cell.row, cell.col);
        auto [x0, x1] = widen(grid.cell_min(cell.row, cell.col).x,
                              grid.cell_min(cell.row, cell.col).x + grid.pitch.x);
        auto [y0, y1] = widen(grid.cell_min(cell.row, cell.col).y,
                              grid.cell_min(cell.row, cell.col).y + grid.pitch.y);
        marks.push_back({ImVec2(x0, y0), ImVec2(x1, y1), c, QuadStyle::outline});
        if (j == 0) labels.push_back({ImVec2(x0, y0), ImVec2(x1, y1), l});
      }
    }
    io.draw->add_quads(dl, marks);
    char buf[8];
    for (const Label& lb : labels) {
      std::snprintf(buf, sizeof buf, "%d", lb.lane);
      // Dark text with a light halo reads on every bank colour.
      ImVec2 sz = ImGui::CalcTextSize(buf);
      if (sz.x + 4.0f > lb.max.x - lb.min.x || sz.y > lb.max.y - lb.min.y) continue;
      ImVec2 at(lb.min.x + (lb.max.x - lb.min.x - sz.x) * 0.5f,
                lb.min.y + (lb.max.y - lb.min.y - sz.y) * 0.5f);
      dl->AddRectFilled(ImVec2(at.x - 1, at.y), ImVec2(at.x + sz.x + 1, at.y + sz.y),
                        p.halo, 2.0f);
      dl->AddText(at, p.on_bank, buf);
    }
  }

  if (hovered) {
    if (auto hit = grid.hit(ImGui::GetIO().MousePos)) {
      slot_tooltip(t, physical, hit->row, hit->col);
      // The lane that touches the element under the mouse lights up in every view.
      for (int l = 0; l < kWarpSize && e.ok() && !physical; ++l) {
        const LaneElements& el = e.elements[l];
        if (!e.analysis->lanes[l].active || el.count == 0) continue;
        std::int64_t first = std::int64_t{el.first.row} * t.cols + el.first.col;
        std::int64_t here = std::int64_t{hit->row} * t.cols + hit->col;
        if (hit->col < t.cols && here >= first && here < first + el.count) io.hovering_lane = l;
      }
    }
  }
}

}  // namespace banklab::gui
