// The Descriptor window: the tile on screen, filled by TMA, read as a wgmma / tcgen05 operand
// through a descriptor the user sets. Its controls pick the operand's major-ness and edit the
// descriptor (architecture, swizzle mode, LBO, SBO), the boxes and the k-step; the picture is the
// Descriptor Lab's figure (figures::descriptor_figure, what `banklab desc agree --svg` writes):
// shared memory one 128-byte line a row, each 16-byte chunk naming the operand chunk TMA put there,
// the k-step's chunks coloured by core matrix and the misread ones red, SBO and LBO as arrows, the
// verdict on top. Opened from the Tile window's "Descriptor..." button when the tile has a TMA
// swizzle.
#include <string>

#include "app/figures/descriptor_figure.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/views/figure_draw.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {
namespace {

// A radio button whose rectangle the window reports (the tests click it).
bool reported_radio(const char* label, bool active, std::vector<ButtonRect>& rects) {
  same_line_if_fits(label);
  const bool clicked = ImGui::RadioButton(label, active);
  rects.push_back(last_item_rect());
  return clicked;
}

// The architecture and the swizzle modes it has, one radio button each; the operand's
// major-ness (switching it reads the tile the new way, with the descriptor that does).
void mode_controls(DescriptorWindow& w, const TileLayout& tile, DescriptorGeometry& g) {
  ImGui::TextUnformatted("Operand");
  for (const OperandMajor major : {OperandMajor::k, OperandMajor::mn}) {
    const std::string label = std::string(to_string(major)) + "-major";
    if (reported_radio(label.c_str(), w.major == major, g.major) && w.major != major) {
      read_as(w, tile, major);
    }
  }
  ImGui::TextUnformatted("Read by");
  for (const MmaArch arch : {MmaArch::sm90, MmaArch::sm100}) {
    const std::string label = arch == MmaArch::sm90 ? "wgmma (sm90)" : "tcgen05 (sm100)";
    if (reported_radio(label.c_str(), w.desc.arch == arch, g.arch)) {
      w.desc.arch = arch;
      if (desc_swizzle(w.desc.swizzle).sm100_code < 0) w.desc.swizzle = DescSwizzle::b128;
      if (desc_swizzle(w.desc.swizzle).sm90_code < 0) w.desc.swizzle = DescSwizzle::b128;
    }
  }
  ImGui::TextUnformatted("Swizzle");
  for (const DescSwizzleInfo& mode : desc_swizzles()) {
    const bool exists = (w.desc.arch == MmaArch::sm90 ? mode.sm90_code : mode.sm100_code) >= 0;
    if (!exists) continue;
    if (reported_radio(std::string(mode.name).c_str(), w.desc.swizzle == mode.mode, g.swizzle)) {
      w.desc.swizzle = mode.mode;
    }
    g.swizzle_modes.push_back(mode.mode);
  }
}

// LBO and SBO in bytes, 16 a step (the field keeps bits 4-17), TMA's boxes along the tile's
// columns, and the k-step drawn.
void offset_controls(DescriptorWindow& w, const TileLayout& tile) {
  const float width = ImGui::GetFontSize() * 7.0f;
  for (auto [name, value] : {std::pair{"LBO bytes", &w.desc.lbo}, {"SBO bytes", &w.desc.sbo}}) {
    int bytes = static_cast<int>(*value);
    ImGui::SetNextItemWidth(width);
    if (ImGui::InputInt(name, &bytes, 16, 128)) {
      *value = std::clamp<std::int64_t>(bytes, 0, kDescriptorByteLimit - 16);
    }
    ImGui::SameLine();
  }
  ImGui::SetNextItemWidth(width);
  ImGui::SliderInt("boxes", &w.boxes, 1, kMaxStepBoxes);
  w.boxes = std::clamp(w.boxes, 1, kMaxStepBoxes);
  ImGui::SameLine();
  const int steps = descriptor_steps(w, tile);
  ImGui::SetNextItemWidth(width);
  ImGui::SliderInt("k-step", &w.k_step, 0, steps - 1);
  w.k_step = std::clamp(w.k_step, 0, steps - 1);
}

}  // namespace

void draw_descriptor(AppState& s, Interaction& io) {
  const TileLayout& tile = s.study.scenario.tile;
  DescriptorGeometry g;
  if (!descriptor_offered(tile)) {
    ImGui::TextWrapped(
        "The Descriptor window reads a tile TMA filled: choose a TMA swizzle (tma32, tma64, "
        "tma128) for the tile in the Controls window.");
    io.geometry.descriptor = g;
    return;
  }
  DescriptorWindow& w = s.user.descriptor;
  mode_controls(w, tile, g);
  offset_controls(w, tile);
  if (ImGui::Button("Read the tile")) read_tile_with(w, tile, w.desc.arch);
  g.read_tile = last_item_rect();
  help_marker(
      "The tile as an operand of wgmma (Hopper) or tcgen05.mma (Blackwell), TMA's boxes side by "
      "side from byte 0: K-major, its rows along MN, or MN-major, its rows along K (switching "
      "reads the tile with the descriptor that does). Each cell is a 16-byte chunk of shared "
      "memory naming the operand chunk TMA put there (first MN, first K); the chunks the "
      "k-step's instruction reads are coloured by core matrix, red where the descriptor reads "
      "the wrong bytes. Read the tile: the descriptor that reads it.");
  figures::Box area = available_box();
  const figures::Figure f =
      figures::descriptor_figure(w.desc, descriptor_operand(w, tile), descriptor_fill(w, tile),
                                 w.k_step, area, figure_style(view_style(s)));
  add_labels(io.geometry, f);
  if (f.grid) g.grid = grid_geometry(*f.grid);
  ImGui::Dummy(ImVec2(area.width(), area.height()));
  draw_figure(f, ImGui::GetWindowDrawList(), *io.draw, s.res.label_fonts);
  io.geometry.descriptor = g;
}

}  // namespace banklab::gui
