#pragma once
// The app's one palette: every colour a view uses has a name here, in a dark and a light
// (projector) theme and a standard or colour-blind-safe scheme. The colours themselves are
// banklab_figures' (app/figures/figure_palette.hpp), shared with `banklab export`'s SVG; this
// header gives them as ImGui's packed colours. Views never write colour literals.
#include <imgui.h>

#include <array>
#include <cstdint>
#include <string_view>

#include "app/figures/figure_palette.hpp"

namespace banklab::gui {

using figures::parse_scheme;
using figures::parse_theme;
using figures::Scheme;
using figures::scheme_name;
using figures::Theme;
using figures::theme_name;

// The figures' colours as ImU32, field for field (figures::Palette says what each means).
struct Palette {
  ImU32 background, text, text_dim, text_ok, title, grid;
  ImU32 cell_empty, cell_served, cell_conflict, cell_broadcast;
  ImU32 excess_row, ideal_line, phase_line, current_row, highlight;
  ImU32 spotlight, spotlight_tint, misaligned, padding;
  ImU32 lane_on, lane_off, on_fill, on_bank, halo, stripe_mark;
  ImU32 error, warning, note;
  std::array<ImU32, 32> banks;       // bank b: hue from orange to violet, never the conflict red
  std::array<ImU32, 32> wavefronts;  // wavefront w mod 32: non-red hues, neighbours far apart
  const figures::Palette* source;    // the same colours as RGBA, for the figures' layouts
};

const Palette& palette(Theme t, Scheme s = Scheme::standard);

ImU32 to_imu32(figures::Rgba c);
figures::Rgba to_rgba(ImU32 c);

// Applies the theme and the scale (DPI x zoom) to a fresh ImGui style.
void apply_style(ImGuiStyle& style, Theme t, float scale);

// Red, green, blue in 0..255 of a packed ImU32 (for the pixel checks of the tests).
struct Rgb {
  int r, g, b;
};
Rgb to_rgb(ImU32 c);

}  // namespace banklab::gui
