#pragma once
// An ImGui context with no backend: enough for the views to lay out and emit draw lists.
#include <imgui.h>

#include "app/gui/panels/panels.hpp"
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
    load_fonts(*io.Fonts, 1.0f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;

  void frame(AppState& s) {
    ImGui::NewFrame();
    draw_app(s);
    ImGui::Render();
  }
  // A key pressed for one frame and released on the next, as a keyboard or a clicker sends it.
  void press(AppState& s, int key) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[key] = true;
    frame(s);
    io.KeysDown[key] = false;
    frame(s);
  }
};

}  // namespace banklab::gui
