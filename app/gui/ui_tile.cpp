// The tile view: the R x C tile with its padding, every element coloured by the bank its first
// word lands in (a heat map drawn by shaders/heatmap.frag from a texture), and the elements of
// the current access outlined with their lane numbers. With a swizzle, "logical" shows elements
// where the program indexes them, "physical" where the swizzle really stores them.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "banklab/hardware.hpp"
#include "figure_draw.hpp"
#include "ui_common.hpp"
#include "views.hpp"

namespace banklab::gui {
namespace {

void slot_tooltip(const TileLayout& t, bool physical, int r, int p) {
  ImGui::BeginTooltip();
  if (physical ? t.is_gap_slot(r, p) : p >= t.cols) {
    std::int64_t byte = t.logical_byte(r, p);
    const bool gap = t.pitch_bytes() > t.row_bytes();
    ImGui::Text("%s slot (%d, %d): byte %lld, bank %d", gap ? "gap" : "padding", r, p,
                static_cast<long long>(byte), bank_of_byte(byte));
    if (gap) {
      ImGui::Text("holds no element: %lld-byte box rows sit at the %lld-byte TMA span",
                  static_cast<long long>(t.row_bytes()), static_cast<long long>(t.pitch_bytes()));
    } else {
      ImGui::TextUnformatted("holds no element; it only shifts the next row's banks");
    }
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
  if (!d.tile_error.empty()) {
    draw_errors_instead(p, {Diagnostic{Severity::error, "tile", d.tile_error, -1}}, "the tile");
    return;
  }
  bool physical = v.tile_physical;
  if (d.scenario.pattern == AccessPattern::custom) {
    ImGui::TextDisabled("custom offsets: the access is not tied to this tile");
  }
  const Evaluation& e = d.evaluation;
  const figures::Box area = available_box();
  if (area.width() < 32 || area.height() < 32) return;
  // The layout is banklab_figures' (the same as `banklab export --what tile`): every lane
  // numbered, outlines thin on small tiles.
  const figures::Figure f = figures::tile_figure(t, e, area, figure_style(v));
  TileGeometry g;
  g.cols = t.cols;
  g.grid = grid_geometry(*f.grid);
  io.geometry.tile = g;
  add_labels(io.geometry, f);
  const GridGeometry& grid = g.grid;

  ImGui::InvisibleButton("##tile", ImVec2(area.width(), area.height()));
  bool hovered = ImGui::IsItemHovered();
  draw_figure(f, ImGui::GetWindowDrawList(), *io.draw, v.label_fonts);

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
