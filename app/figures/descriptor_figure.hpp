#pragma once
// The Descriptor Lab's picture: shared memory as the producer filled it, one row per 128-byte
// line and one cell per 16-byte chunk, each cell naming the operand chunk it holds (so every
// row shows its swizzle's chunk permutation), the chunks one k-step's descriptor reads coloured
// by core matrix, misread chunks red, the first core matrix outlined, and SBO and LBO drawn as
// arrows from it. Everything comes from core/model/descriptor_agreement.hpp.
#include "app/figures/figure.hpp"
#include "core/model/descriptor_agreement.hpp"

namespace banklab::figures {

// The lines drawn at most (fewer where the area holds fewer readable rows); a larger fill shows
// its first lines and says so.
inline constexpr int kMaxDescriptorLines = 64;
// The lines of one 1024-byte swizzle repeat, the widest mode's whole pattern: a slide gives the
// picture at least these before its text takes the room (slide.cpp).
inline constexpr int kDescriptorRepeatLines = 8;

// k_step is clamped to the fill's steps. A fill or descriptor the agreement cannot compare is
// drawn as its rules in words.
Figure descriptor_figure(const MatrixDescriptor& d, const OperandShape& op, const OperandFill& fill,
                         int k_step, Box area, const FigureStyle& st);

}  // namespace banklab::figures
