// The frame: shortcuts and time first (they may change the state), then refresh() so the core
// runs only if the scenario changed, then the menu bar and one window per view.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>

#include "banklab/presets.hpp"
#include "ui.hpp"
#include "ui_common.hpp"
#include "ui_gpu.hpp"

namespace banklab::gui {
namespace {

constexpr Shortcut kShortcuts[] = {
    {GLFW_KEY_SPACE, "Space", Action::play_pause, "play / pause the wavefronts"},
    {GLFW_KEY_RIGHT, "Right", Action::step_forward, "serve one more wavefront"},
    {GLFW_KEY_LEFT, "Left", Action::step_back, "one wavefront back"},
    {GLFW_KEY_UP, "Up", Action::index_up, "next column (row, chunk)"},
    {GLFW_KEY_DOWN, "Down", Action::index_down, "previous column (row, chunk)"},
    {GLFW_KEY_N, "N", Action::next_preset, "next preset"},
    {GLFW_KEY_P, "P", Action::previous_preset, "previous preset"},
    {GLFW_KEY_F1, "F1", Action::help, "this help"},
    {GLFW_KEY_EQUAL, "+", Action::zoom_in, "larger text"},
    {GLFW_KEY_MINUS, "-", Action::zoom_out, "smaller text"},
    {GLFW_KEY_T, "T", Action::theme, "dark / light theme"},
};

// Each view in its own window, placed by default_layout() on the first run or after
// View > Reset layout; afterwards where the user put it (imgui.ini remembers).
template <class Draw>
void view_window(AppState& s, const char* title, bool* open, ImVec2 pos, ImVec2 size,
                 ImGuiWindowFlags flags, Draw draw, bool floating = false) {
  if (!*open) return;
  ImGuiCond cond = s.reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(pos, cond);
  ImGui::SetNextWindowSize(size, cond);
  // No window background: the views tile the screen over the clear colour, which is the same
  // colour. Under llvmpipe each background is a textured, blended full-window fill, and
  // dropping them cuts the CPU cost of a 1080p frame by about a third. A floating window (the
  // GPU window) lies over other views, so it keeps its background.
  flags |= ImGuiWindowFlags_NoCollapse;
  if (!floating) flags |= ImGuiWindowFlags_NoBackground;
  if (ImGui::Begin(title, open, flags)) draw(s);
  ImGui::End();
}

float menu_bar(AppState& s) {
  float height = 0.0f;
  if (!ImGui::BeginMainMenuBar()) return height;
  height = ImGui::GetWindowSize().y;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Quit")) s.quit_requested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Lesson")) {
    std::span<const Preset> all = presets();
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (ImGui::MenuItem(std::string(all[i].name).c_str(), nullptr,
                          static_cast<int>(i) == s.preset)) {
        load_preset(s, static_cast<int>(i));
      }
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    ImGui::MenuItem("Lesson", nullptr, &s.views.presets);
    ImGui::MenuItem("Controls", nullptr, &s.views.controls);
    ImGui::MenuItem("Bank view", nullptr, &s.views.banks);
    ImGui::MenuItem("Lane map", nullptr, &s.views.lanes);
    ImGui::MenuItem("Tile", nullptr, &s.views.tile);
    ImGui::MenuItem("Arithmetic", nullptr, &s.views.arithmetic);
    ImGui::MenuItem("GPU: run and measure", nullptr, &s.views.gpu);
    ImGui::Separator();
    if (ImGui::MenuItem("Dark theme", nullptr, s.settings.theme == Theme::dark)) {
      s.settings.theme = Theme::dark;
    }
    if (ImGui::MenuItem("Light theme (projector)", nullptr, s.settings.theme == Theme::light)) {
      s.settings.theme = Theme::light;
    }
    if (ImGui::MenuItem("Zoom in", "+")) change_zoom(s, kZoomStep);
    if (ImGui::MenuItem("Zoom out", "-")) change_zoom(s, -kZoomStep);
    if (ImGui::MenuItem("Zoom 100%")) s.settings.zoom = 1.0f;
    ImGui::Separator();
    if (ImGui::MenuItem("Reset layout")) s.reset_layout = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Shortcuts and colours", "F1", &s.views.help);
    ImGui::EndMenu();
  }
  if (s.preset >= 0) {
    const Preset& p = presets()[s.preset];
    ImGui::TextDisabled("  %s%s: %s", std::string(p.name).c_str(),
                        preset_modified(s) ? " (changed)" : "", std::string(p.title).c_str());
  }
  ImGui::EndMainMenuBar();
  return height;
}

void renderer_problems(AppState& s) {
  if (s.renderer_errors.empty()) return;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36.0f, 0.0f), ImGuiCond_Appearing);
  ImGui::Begin("Renderer problems");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours(s).error));
  ImGui::TextWrapped("These GLSL programs did not build, so their views stay empty:");
  ImGui::PopStyleColor();
  for (const std::string& e : s.renderer_errors) ImGui::TextWrapped("%s", e.c_str());
  ImGui::End();
}

}  // namespace

std::span<const Shortcut> shortcuts() {
  return kShortcuts;
}

void apply_action(AppState& s, Action a) {
  switch (a) {
    case Action::play_pause: toggle_play(s); break;
    case Action::step_forward: step_by(s, 1); break;
    case Action::step_back: step_by(s, -1); break;
    case Action::index_up: move_index(s, 1); break;
    case Action::index_down: move_index(s, -1); break;
    case Action::next_preset: cycle_preset(s, 1); break;
    case Action::previous_preset: cycle_preset(s, -1); break;
    case Action::help: s.views.help = !s.views.help; break;
    case Action::zoom_in: change_zoom(s, kZoomStep); break;
    case Action::zoom_out: change_zoom(s, -kZoomStep); break;
    case Action::theme:
      s.settings.theme = s.settings.theme == Theme::dark ? Theme::light : Theme::dark;
      break;
  }
}

void handle_shortcuts(AppState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  // Typing offsets or a tile size must not step the animation.
  if (io.WantTextInput || io.KeyCtrl || io.KeyAlt || io.KeySuper) return;
  for (const Shortcut& k : kShortcuts) {
    if (ImGui::IsKeyPressed(k.key)) apply_action(s, k.action);
  }
}

PanelLayout default_layout(ImVec2 display, float menu_height, float scale) {
  PanelLayout l;
  float top = menu_height;
  float h = std::max(display.y - top, 1.0f);
  float left = std::clamp(display.x * 0.2f, 270.0f * scale, 420.0f * scale);
  left = std::min(left, display.x * 0.4f);
  float right = display.x - left;
  float upper = std::floor(h * 0.6f);
  float presets_h = std::floor(h * 0.36f);
  l.presets_pos = ImVec2(0, top);
  l.presets_size = ImVec2(left, presets_h);
  l.controls_pos = ImVec2(0, top + presets_h);
  l.controls_size = ImVec2(left, h - presets_h);
  float banks_w = std::floor(right * 0.64f);
  l.banks_pos = ImVec2(left, top);
  l.banks_size = ImVec2(banks_w, upper);
  l.arithmetic_pos = ImVec2(left + banks_w, top);
  l.arithmetic_size = ImVec2(right - banks_w, upper);
  float lanes_w = std::floor(right * 0.5f);
  l.lanes_pos = ImVec2(left, top + upper);
  l.lanes_size = ImVec2(lanes_w, h - upper);
  l.tile_pos = ImVec2(left + lanes_w, top + upper);
  l.tile_size = ImVec2(right - lanes_w, h - upper);
  l.gpu_pos = ImVec2(left + std::floor(right * 0.3f), top);
  l.gpu_size = ImVec2(right - std::floor(right * 0.3f), std::floor(h * 0.85f));
  return l;
}

void draw_app(AppState& s) {
  ImGuiIO& io = ImGui::GetIO();
  s.draw.begin_frame();
  s.geometry = FrameGeometry{};  // a view that is closed this frame leaves no stale cells
  s.hovering_lane = -1;
  handle_shortcuts(s);
  advance_time(s, io.DeltaTime);
  refresh(s);

  float menu_height = menu_bar(s);
  float scale = ui_scale();
  PanelLayout l = default_layout(io.DisplaySize, menu_height, scale);
  view_window(s, "Lesson", &s.views.presets, l.presets_pos, l.presets_size, 0, draw_presets);
  view_window(s, "Controls", &s.views.controls, l.controls_pos, l.controls_size, 0,
              draw_controls);
  view_window(s, "Bank view: 32 banks x one row per wavefront", &s.views.banks, l.banks_pos,
              l.banks_size, ImGuiWindowFlags_NoScrollbar, draw_banks);
  view_window(s, "Arithmetic", &s.views.arithmetic, l.arithmetic_pos, l.arithmetic_size, 0,
              draw_arithmetic);
  view_window(s, "Lane map: lane -> bank", &s.views.lanes, l.lanes_pos, l.lanes_size,
              ImGuiWindowFlags_NoScrollbar, draw_lanes);
  view_window(s, "Tile: element colour = bank", &s.views.tile, l.tile_pos, l.tile_size,
              ImGuiWindowFlags_NoScrollbar, draw_tile);
  view_window(s, "GPU: run and measure", &s.views.gpu, l.gpu_pos, l.gpu_size, 0,
              [](AppState& st) { draw_gpu(st.gpu, st.scenario, colours(st)); }, true);
  if (s.views.help) draw_help(s);
  renderer_problems(s);

  s.hovered_lane = s.hovering_lane;
  s.reset_layout = false;
}

}  // namespace banklab::gui
