#pragma once
// An ImGui context with no backend: enough for the views to lay out and emit draw lists.
#include <imgui.h>

#include <initializer_list>

#include "app/gui/panels/panels.hpp"
#include "app/gui/platform/key_queue.hpp"
#include "app/gui/render/fonts.hpp"
#include "app/gui/state/app_state.hpp"

namespace banklab::gui {

struct HeadlessImGui {
  HeadlessImGui() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1920, 1080);
    io.DeltaTime = 1.0f / 60.0f;
    fonts = load_fonts(*io.Fonts, 1.0f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }
  // The app's own fonts, as startup gives them (update_appearance()): the source, the code and
  // the figures' labels in DejaVu Sans Mono instead of the UI font.
  void app_fonts(AppState& s) const {
    s.res.mono_font = fonts.mono;
    s.res.small_font = fonts.small;
    s.res.label_fonts = fonts.labels;
  }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;

  void frame(AppState& s) {
    keys.apply(ImGui::GetIO());  // as the platforms do before each frame (key_queue.hpp)
    ImGui::NewFrame();
    draw_app(s);
    ImGui::Render();
  }
  // A click as the mouse makes one: onto the point (hovering first), down for a frame, up the next.
  void click(AppState& s, ImVec2 at) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    frame(s);
    io.MouseDown[0] = true;
    frame(s);
    io.MouseDown[0] = false;
    frame(s);
  }
  // A key pressed for one frame and released on the next, as a keyboard or a clicker sends it.
  void press(AppState& s, int key) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[key] = true;
    frame(s);
    io.KeysDown[key] = false;
    frame(s);
  }
  // Taps as the platform's key callback queues them: each key pressed and released before the
  // next frame, as a clicker or `xdotool key` sends it; then frames until the queue is empty.
  // Returns the frames it took.
  int taps(AppState& s, std::initializer_list<int> tapped) {
    for (int key : tapped) {
      keys.push(key, true);
      keys.push(key, false);
    }
    int frames = 0;
    do {
      frame(s);
      ++frames;
    } while (!keys.empty());
    return frames;
  }

  KeyQueue keys;
  FontSet fonts;
};

}  // namespace banklab::gui
