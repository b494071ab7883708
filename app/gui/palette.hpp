#pragma once
// The app's one palette: every colour a view uses has a name here, in a dark and a light
// (projector) variant. Views never write colour literals.
#include <imgui.h>

#include <array>
#include <cstdint>
#include <string_view>

namespace banklab::gui {

enum class Theme : std::uint8_t { dark, light };

std::string_view theme_name(Theme t);  // "dark", "light"

struct Palette {
  ImU32 background;      // behind the views (the GL clear colour)
  ImU32 text;
  ImU32 text_dim;
  ImU32 grid;            // cell borders, separators
  ImU32 cell_empty;      // a bank that serves nothing in this wavefront
  ImU32 cell_served;     // one word, no other word of its bank in the phase
  ImU32 cell_conflict;   // the bank serves several distinct words in this phase, one per row
  ImU32 cell_broadcast;  // several lanes share the word (drawn striped)
  ImU32 excess_row;      // rows beyond the ideal: the conflict's cost
  ImU32 ideal_line;
  ImU32 phase_line;
  ImU32 current_row;     // the wavefront being served while stepping
  ImU32 highlight;       // elements of the current access in the tile view
  ImU32 padding;         // padding cells of the tile
  ImU32 lane_on;
  ImU32 lane_off;
  ImU32 on_fill;       // text on the saturated cell, lane and stripe fills (both themes)
  ImU32 on_bank;       // text on the pale bank colours
  ImU32 halo;          // behind lane numbers on the tile heat map
  ImU32 stripe_mark;   // the legend's stripes
  ImU32 error;
  ImU32 warning;
  ImU32 note;

  // 32 bank colours: hue runs once round the wheel, odd banks darker, so that neighbours differ
  // and a column read of a conflict-free tile shows as a rainbow.
  std::array<ImU32, 32> banks;
  // Up to 32 wavefront colours for the lane map, ordered so that consecutive wavefronts differ.
  std::array<ImU32, 32> wavefronts;
};

const Palette& palette(Theme t);

// Applies the theme and the scale (DPI x zoom) to a fresh ImGui style.
void apply_style(ImGuiStyle& style, Theme t, float scale);

// Red, green, blue in 0..255 of a packed ImU32 (for the pixel checks of the tests).
struct Rgb {
  int r, g, b;
};
Rgb to_rgb(ImU32 c);

}  // namespace banklab::gui
