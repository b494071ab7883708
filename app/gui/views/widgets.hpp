#pragma once
// Small helpers the views share: the palette of the current theme, help markers, the
// diagnostic box drawn in place of a view, and lane-set text.
#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/render/fonts.hpp"
#include "app/gui/render/palette.hpp"
#include "app/gui/views/geometry.hpp"
#include "core/base/diagnostic.hpp"
#include "core/base/format.hpp"

namespace banklab::gui {

// DPI x zoom, as the fonts were built for it: line widths and margins follow it.
inline float ui_scale() {
  return ImGui::GetFontSize() / kBaseFontPixels;
}

// A "(?)" that shows text on hover.
void help_marker(const char* text);

// Keeps the next radio button labelled `label` on the current line if it fits there, else lets
// it start a new line: the controls panel is narrow at 1280x720, and a row of choices wider
// than the panel was clipped (the raw offsets choice out of sight).
void same_line_if_fits(const char* label);
// The same for the next button labelled `label`.
void same_line_if_button_fits(const char* label);
// The rectangle of the item just drawn, as the windows report their buttons to the tests.
ButtonRect last_item_rect();
// Text in the disabled colour, wrapped at the window's edge rather than cut by it.
void text_disabled_wrapped(const std::string& text);

// The core's errors, drawn where the view would be, so a wrong picture is never shown.
// Returns true when there was an error (and the view must not draw).
bool draw_errors_instead(const Palette& p, const std::vector<Diagnostic>& diagnostics,
                         const char* what);

// lane_ranges(mask), "0-7, 16-23": core/base/format.hpp.

// Text centred in a rectangle, only if it fits; returns whether it was drawn. font: nullptr
// for the current one; always drawn at its own size (the font texture is not filtered).
bool text_in_box(ImDrawList* dl, ImVec2 min, ImVec2 max, ImU32 colour, const char* text,
                 const ImFont* font = nullptr);
// The current font, else small (if not nullptr), whichever fits first.
bool label_in_box(const ImFont* small, ImDrawList* dl, ImVec2 min, ImVec2 max, ImU32 colour,
                  const char* text);

// Multiplies a colour's alpha (dimming rows not yet served while stepping).
ImU32 with_alpha(ImU32 c, float factor);

}  // namespace banklab::gui
