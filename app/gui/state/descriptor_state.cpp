// The Descriptor window's logic (descriptor_state.hpp).
#include "app/gui/state/descriptor_state.hpp"

#include <algorithm>

namespace banklab::gui {

bool descriptor_offered(const TileLayout& tile) {
  return tile.swizzle.is_tma();
}

OperandFill descriptor_fill(const TileLayout& tile) {
  return step_fill(StepDescriptor{}, tile);
}

OperandShape descriptor_operand(const TileLayout& tile) {
  return step_operand(tile);
}

void read_tile_with(DescriptorWindow& w, const TileLayout& tile, MmaArch arch) {
  const std::optional<MatrixDescriptor> fits =
      suggest_descriptor(arch, step_operand(tile), step_fill(w, tile));
  w.desc = fits ? *fits : MatrixDescriptor{arch, DescSwizzle::b128, w.dest, 16, 1024, 0, false};
  w.k_step = 0;
}

int descriptor_steps(const TileLayout& tile) {
  return std::max(1, static_cast<int>(std::int64_t{tile.cols} * tile.elem_bytes() / kMmaStepBytes));
}

}  // namespace banklab::gui
