#pragma once
// Draws a banklab_figures Figure (figure.hpp: the bank view, lane map and tile as rectangles,
// lines and labels) with ImGui and the project's GL programs, so that the screen shows exactly
// what `banklab export` writes as SVG. Rectangles and lines go to the draw queue (instanced
// quads and segments), the heat map to its GL program, labels to the ImGui draw list in the
// largest of the label fonts that fits each one.
#include <imgui.h>

#include <span>
#include <string>

#include "app/figures/figure.hpp"
#include "app/gui/render/draw_queue.hpp"
#include "app/gui/views/geometry.hpp"
#include "app/gui/views/views.hpp"

namespace banklab::gui {

// The figure style of a view: the palette, the font size, the step-through and the highlight.
figures::FigureStyle figure_style(const ViewStyle& v);
// The rectangle left in the current window from the cursor on.
figures::Box available_box();

// A view in a phone's one column (ViewStyle::one_column) whose numbers would be smaller than
// kLeastReadable in its window: laid out at `least` instead, in a child window that scrolls to
// it (a `least` height of 0: the child's height, less its scroll bar). Elsewhere, and where the
// window holds `least`, the view's own box. end_readable_box()
// closes what begin_readable_box() opened.
inline constexpr float kLeastReadable = 11.0f;  // the views' numbers at 1280x720 (docs/gui.md)
struct ReadableBox {
  figures::Box box;
  bool scrolls = false;
};
ReadableBox begin_readable_box(const char* id, const ViewStyle& v, figures::Box area, ImVec2 least);
void end_readable_box(const ReadableBox& b);

// `fonts`: ascending sizes (FontSet::labels); empty: the current font for every label.
void draw_figure(const figures::Figure& f, ImDrawList* dl, DrawQueue& queue,
                 std::span<ImFont* const> fonts);

// The font a label is drawn in: the largest of `fonts` (ascending) that fits its box (else the
// smallest).
ImFont* label_font(std::span<ImFont* const> fonts, const figures::Label& l);

// An access the core refuses because a pad shifts rows off its alignment, drawn as the tile with
// those rows marked beside the arithmetic (figures::misalignment_figure) in the space left:
// what the bank view and the lane map show instead of the error. False (nothing drawn) for any
// other scenario.
bool draw_refused(const Study& d, const ViewStyle& v, Interaction& io);

// Every label of the figure, for --geometry: role, index, text, its box and the cell it names.
void add_labels(FrameGeometry& g, const figures::Figure& f);

}  // namespace banklab::gui
