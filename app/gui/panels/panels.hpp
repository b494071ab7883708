#pragma once
// The app's windows. Two kinds of function draw into them:
//   - panels, draw_xxx(AppState&): edit what the user chose (presets, controls, step bar,
//     help) or wrap a view for the scenario on screen;
//   - views (views.hpp): draw one scenario from its Study, usable for any scenario.
// draw_app() draws the menu bar and every panel listed in kPanels (app_window.cpp); a new window is
// one row there plus a flag in Views (app_state.hpp). docs/gui.md, "Adding a panel".
#include <imgui.h>

#include <span>

#include "app/figures/figure.hpp"
#include "app/gui/render/palette.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/views/views.hpp"

namespace banklab::gui {

void draw_app(AppState& s);  // app_window.cpp: refresh, shortcuts, menu bar, layout, all panels

void draw_presets(AppState& s, Interaction& io);   // presets_panel.cpp
void draw_controls(AppState& s, Interaction& io);  // controls_panel.cpp
void draw_step_bar(AppState& s);                   // step_bar.cpp (inside the bank view)
void draw_help(AppState& s);                       // help_panel.cpp
void draw_solve(AppState& s, Interaction& io);     // solve_panel.cpp
// Presentation mode or a comparison, filling the window below `top` (stage_panel.cpp).
void draw_stage(AppState& s, Interaction& io, float top);
void cycle_stage_view(AppState& s);  // banks -> lanes -> tile (not in a comparison) -> banks
// Whether the stage shows a lesson step as a slide (presentation mode, the slide view), and
// whether it shows that step's speaker notes instead.
bool showing_slide(const AppState& s);
bool showing_notes(const AppState& s);
// N on a slide: its speaker notes' next page; after the last, the slide again.
void next_notes_page(AppState& s);
// The lesson step on screen as a slide (figures/slide.hpp): its track, number, title and text,
// the scenario on screen, the parts and comparisons the step names. Precondition: in_lesson(s).
figures::Slide lesson_slide(const AppState& s);
// What the stage shows, laid out in `area` (also what File > Export writes as SVG;
// stage_panel.cpp).
figures::FigureStyle stage_style(const AppState& s, float height);
figures::Figure stage_figure(AppState& s, figures::Box area, figures::FigureStyle st);
// The File menu's items (export, save, open), the file chooser they open and what it confirms,
// and the last result, for the menu bar (file_menu.cpp).
void file_menu(AppState& s);
void draw_file_dialog(AppState& s);
void file_status(const AppState& s);
// The view (or the comparison) as File > Export writes it: laid out for width x height, in the
// theme and palette on screen, every wavefront served. draw_export_page() draws it over the
// whole frame: what export_png() renders.
figures::Figure export_figure(AppState& s, StageView view, float width, float height);
// The style of an exported page of that height: the theme and palette on screen, type that
// grows with the page, every wavefront served, no hover.
figures::FigureStyle export_style(const AppState& s, float height);
void draw_export_page(AppState& s, StageView view);
void draw_drill(AppState& s, Interaction& io);  // drill_panel.cpp
void draw_code(AppState& s, Interaction& io);   // code_panel.cpp
// What the Code window says of a scanned kernel's access on screen: where it is, its line as
// the file has it (never code written back from the lanes' offsets), and what it accesses.
struct ScannedCode {
  std::string where, code, access;
};
ScannedCode scanned_code_text(const AppState& s, const ScanLine& l);  // code_panel.cpp
void draw_kernel(AppState& s, Interaction& io);                       // kernel_panel.cpp
void draw_descriptor(AppState& s, Interaction& io);                   // descriptor_panel.cpp

inline const Palette& colours(const AppState& s) {
  return palette(s.user.settings.theme, s.user.settings.scheme);
}

// How the views draw the scenario on screen: its theme, fonts, lane highlight and step
// (app_window.cpp, as apply_interaction).
ViewStyle view_style(const AppState& s);
// Takes a view's report for the scenario on screen: its geometry (views that were not drawn
// leave theirs empty), the lane under the mouse, a clicked lane.
void apply_interaction(AppState& s, Interaction& io);

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
  present,      // presentation mode on / off
  next_view,    // presentation: banks, lanes, tile
  leave_stage,  // back to the windows from presentation or a comparison
  drill,
  next_step,  // in a lesson
  previous_step,
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

// Default window rectangles for a display of this size (app_window.cpp). A new panel adds its
// rectangle here.
struct PanelLayout {
  ImVec2 presets_pos, presets_size;
  ImVec2 controls_pos, controls_size;
  ImVec2 banks_pos, banks_size;
  ImVec2 arithmetic_pos, arithmetic_size;
  ImVec2 lanes_pos, lanes_size;
  ImVec2 tile_pos, tile_size;
  ImVec2 code_pos, code_size;
  ImVec2 kernel_pos, kernel_size;  // the left column, widened for the source (floats over it)
  ImVec2 gpu_pos, gpu_size;        // floats over the bank view and the arithmetic when opened
  ImVec2 solve_pos, solve_size;    // floats over the bank view, the lane map and the tile
  ImVec2 descriptor_pos, descriptor_size;  // floats over the views, as Solve does
  ImVec2 drill_pos, drill_size;            // floats over everything below the menu bar
};
// A window narrower than this (a phone, 390 px) is laid out in one column (one_column_layout()).
inline constexpr float kOneColumnWidth = 600.0f;
// `lesson`: a guided lesson is open, and the Lesson panel gets the room for its text;
// `kernel_width`: the Kernel window is open and wants that width for its source
// (kernel_window_width()), 0 when it is closed.
PanelLayout default_layout(ImVec2 display, float menu_height, float scale, bool lesson = false,
                           float kernel_width = 0.0f);
// The Kernel window's width whose source pane shows `chars` characters of a line a row, in the
// current style and the mono font (kernel_panel.cpp).
float kernel_window_width(const AppState& s, int chars);
// The characters of a source line the Kernel window wants a row to show, so that a line of CUDA
// reads whole to its access (transpose.cu's column read is 69 characters with its indent). A
// screen 1280 px wide gives it 71 (default_layout() keeps 640 px for the bank view); the issue's
// floor is 60.
inline constexpr int kKernelSourceChars = 72;

}  // namespace banklab::gui
