#pragma once
// The Descriptor window's logic, without ImGui: the tile on screen, when TMA fills it, taken as a
// K-major or MN-major wgmma / tcgen05 operand (`boxes` boxes from `dest`, one at byte 0 unless
// the user or a lesson step says otherwise), the descriptor the user sets to read it, and the
// k-step drawn: the core's StepDescriptor (core/teach/lesson_descriptor.hpp), which a lesson
// step sets whole. descriptor_panel.cpp draws it with the Descriptor Lab's figure
// (app/figures/descriptor_figure.hpp), the same picture `banklab desc agree --svg` writes.
#include "core/model/descriptor_agreement.hpp"
#include "core/teach/lesson_descriptor.hpp"

namespace banklab::gui {

using DescriptorWindow = StepDescriptor;

// Whether the Tile window offers the Descriptor window: a tile TMA fills (a TMA swizzle mode).
bool descriptor_offered(const TileLayout& tile);
// The tile as the producer's fill and as the operand, as the window reads it.
OperandFill descriptor_fill(const DescriptorWindow& w, const TileLayout& tile);
OperandShape descriptor_operand(const DescriptorWindow& w, const TileLayout& tile);
// The descriptor that reads the tile at the window's destination (suggest_descriptor()) on
// `arch`, from k-step 0; the canonical 128B one when no canonical layout describes the tile.
void read_tile_with(DescriptorWindow& w, const TileLayout& tile, MmaArch arch);
// Reads the tile as the other major-ness (its rows along K for MN-major), with the descriptor
// that reads it that way.
void read_as(DescriptorWindow& w, const TileLayout& tile, OperandMajor major);
// The k-steps the fill holds (at least 1): K's bytes / 32.
int descriptor_steps(const DescriptorWindow& w, const TileLayout& tile);

}  // namespace banklab::gui
