// The Descriptor window's logic (descriptor_state.hpp).
#include "app/gui/state/descriptor_state.hpp"

#include <algorithm>

namespace banklab::gui {

bool descriptor_offered(const TileLayout& tile) {
  return tile.swizzle.is_tma();
}

OperandFill descriptor_fill(const DescriptorWindow& w, const TileLayout& tile) {
  return step_fill(w, tile);
}

OperandShape descriptor_operand(const DescriptorWindow& w, const TileLayout& tile) {
  return step_operand(w, tile);
}

void read_tile_with(DescriptorWindow& w, const TileLayout& tile, MmaArch arch) {
  const std::optional<MatrixDescriptor> fits =
      suggest_descriptor(arch, step_operand(w, tile), step_fill(w, tile));
  w.desc = fits ? *fits : MatrixDescriptor{arch, DescSwizzle::b128, w.dest, 16, 1024, 0, false};
  w.k_step = 0;
}

void read_as(DescriptorWindow& w, const TileLayout& tile, OperandMajor major) {
  w.major = major;
  read_tile_with(w, tile, w.desc.arch);
}

int descriptor_steps(const DescriptorWindow& w, const TileLayout& tile) {
  const OperandExtent x = operand_extent(step_fill(w, tile), w.major);
  return std::max(1, static_cast<int>(std::int64_t{x.k} * tile.elem_bytes() / kMmaStepBytes));
}

}  // namespace banklab::gui
