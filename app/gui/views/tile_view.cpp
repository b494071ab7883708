// The tile view: the R x C tile with its padding, every element coloured by the bank its first
// word lands in (a heat map drawn by shaders/heatmap.frag from a texture), and the elements of
// the current access outlined with their lane numbers. With a swizzle, "logical" shows elements
// where the program indexes them, "physical" where the swizzle really stores them, "side by
// side" both at once.
#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>
#include <optional>
#include <vector>

#include "app/gui/views/figure_draw.hpp"
#include "app/gui/views/views.hpp"
#include "app/gui/views/widgets.hpp"
#include "core/model/hardware.hpp"

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

// The lane whose access touches the slot under the mouse (in the physical picture, the element
// stored there); -1: none.
int lane_at(const Study& s, bool physical, GridHit hit) {
  const TileLayout& t = s.scenario.tile;
  const Evaluation& e = s.evaluation;
  if (!e.ok() || (physical ? t.is_gap_slot(hit.row, hit.col) : hit.col >= t.cols)) return -1;
  const std::optional<Cell> element =
      physical ? t.element_at(t.logical_byte(hit.row, hit.col)) : Cell{hit.row, hit.col};
  if (!element) return -1;
  const std::int64_t here = std::int64_t{element->row} * t.cols + element->col;
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneElements& el = e.elements[l];
    if (!e.analysis->lanes[l].active || el.count == 0) continue;
    const std::int64_t first = std::int64_t{el.first.row} * t.cols + el.first.col;
    if (here >= first && here < first + el.count) return l;
  }
  return -1;
}

}  // namespace

void draw_tile(const Study& d, const ViewStyle& v, Interaction& io) {
  io.geometry.tile.reset();
  io.geometry.physical_tile.reset();
  const TileLayout& t = d.scenario.tile;
  const Palette& p = *v.palette;
  if (!d.tile_valid) {
    draw_errors_instead(p, {Diagnostic{Severity::error, "tile", d.tile_valid.error(), -1}},
                        "the tile");
    return;
  }
  const Evaluation& e = d.evaluation;
  // Raw offsets are tied to no tile; typed code's are (its array is the tile).
  if (d.scenario.pattern == AccessPattern::raw &&
      std::none_of(std::begin(e.elements), std::end(e.elements),
                   [](const LaneElements& l) { return l.count > 0; })) {
    ImGui::TextDisabled("raw offsets: the access is not tied to this tile");
  }
  const figures::Box area = available_box();
  if (area.width() < 32 || area.height() < 32) return;
  // The layout is banklab_figures' (the same as `banklab export --what tile`): every lane
  // numbered, outlines thin on small tiles; side by side, the logical picture left.
  const figures::FigureStyle st = figures::mark_refused_rows(figure_style(v), d);
  std::vector<figures::Figure> pictures;
  if (v.tile_view == figures::TileView::both) {
    std::array<figures::Figure, 2> pair = figures::tile_pair_figure(d, area, st);
    pictures.assign(std::make_move_iterator(pair.begin()), std::make_move_iterator(pair.end()));
  } else {
    pictures.push_back(figures::tile_figure(d, area, st));
  }

  ImGui::InvisibleButton("##tile", ImVec2(area.width(), area.height()));
  const bool hovered = ImGui::IsItemHovered();
  for (const figures::Figure& f : pictures) {
    const bool physical = f.heatmaps.front().physical;
    const TileGeometry g{grid_geometry(*f.grid), t.cols};
    (pictures.size() == 2 && physical ? io.geometry.physical_tile : io.geometry.tile) = g;
    add_labels(io.geometry, f);
    draw_figure(f, ImGui::GetWindowDrawList(), *io.draw, v.label_fonts);
    if (!hovered) continue;
    if (const auto hit = g.grid.hit(ImGui::GetIO().MousePos)) {
      slot_tooltip(t, physical, hit->row, hit->col);
      // The lane that touches the element under the mouse lights up in every view (and in both
      // pictures side by side).
      if (const int lane = lane_at(d, physical, *hit); lane >= 0) io.hovering_lane = lane;
    }
  }
}

}  // namespace banklab::gui
