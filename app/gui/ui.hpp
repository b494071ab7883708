#pragma once
// The views, one file each, every one a draw_xxx(AppState&) that reads the state and writes
// only what the user changed. draw_app() calls them in order; a new view is one line there and
// one item in the View menu.
#include <imgui.h>

#include <span>

#include "app_state.hpp"

namespace banklab::gui {

void draw_app(AppState& s);  // ui_main.cpp: refresh, shortcuts, menu bar, layout, all views

void draw_presets(AppState& s);     // ui_presets.cpp
void draw_controls(AppState& s);    // ui_controls.cpp
void draw_step_bar(AppState& s);    // ui_step.cpp (inside the bank view)
void draw_banks(AppState& s);       // ui_banks.cpp
void draw_lanes(AppState& s);       // ui_lanes.cpp
void draw_tile(AppState& s);        // ui_tile.cpp
void draw_arithmetic(AppState& s);  // ui_arith.cpp
void draw_help(AppState& s);        // ui_help.cpp

// Keyboard shortcuts: one table feeds the handler and the help window.
enum class Action {
  play_pause,
  step_forward,
  step_back,
  index_up,
  index_down,
  next_preset,
  previous_preset,
  help,
  zoom_in,
  zoom_out,
  theme,
};

struct Shortcut {
  int key;               // GLFW key code, as ImGui 1.86's GLFW backend fills io.KeysDown
  const char* key_name;  // what the help window shows
  Action action;
  const char* what;
};

std::span<const Shortcut> shortcuts();
void apply_action(AppState& s, Action a);
// Runs the actions whose keys were pressed this frame, unless a text field has the keyboard.
void handle_shortcuts(AppState& s);

// Default window rectangles for a display of this size (ui_main.cpp).
struct PanelLayout {
  ImVec2 presets_pos, presets_size;
  ImVec2 controls_pos, controls_size;
  ImVec2 banks_pos, banks_size;
  ImVec2 arithmetic_pos, arithmetic_size;
  ImVec2 lanes_pos, lanes_size;
  ImVec2 tile_pos, tile_size;
  ImVec2 gpu_pos, gpu_size;  // floats over the bank view and the arithmetic when opened
};
PanelLayout default_layout(ImVec2 display, float menu_height, float scale);

}  // namespace banklab::gui
