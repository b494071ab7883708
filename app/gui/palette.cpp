#include "palette.hpp"

namespace banklab::gui {
namespace {

ImU32 rgb(int r, int g, int b, int a = 255) {
  return IM_COL32(r, g, b, a);
}

ImU32 hsv(float h, float s, float v) {
  float r = 0, g = 0, b = 0;
  ImGui::ColorConvertHSVtoRGB(h, s, v, r, g, b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

// Hue once round the wheel over the 32 banks; odd banks a step darker so neighbours separate.
std::array<ImU32, 32> bank_colours(float saturation, float value_even, float value_odd) {
  std::array<ImU32, 32> out{};
  for (int b = 0; b < 32; ++b) {
    out[b] = hsv(static_cast<float>(b) / 32.0f, saturation, b % 2 ? value_odd : value_even);
  }
  return out;
}

// Wavefront w gets hue w times the golden ratio (mod 1): consecutive wavefronts land far apart
// on the wheel, and no two of the first 32 coincide.
std::array<ImU32, 32> wavefront_colours(float saturation, float value) {
  std::array<ImU32, 32> out{};
  constexpr float kGolden = 0.618034f;
  for (int w = 0; w < 32; ++w) {
    float h = static_cast<float>(w) * kGolden;
    out[w] = hsv(h - static_cast<float>(static_cast<int>(h)), saturation, value);
  }
  return out;
}

Palette make_dark() {
  Palette p{};
  p.background = rgb(33, 36, 43);
  p.text = rgb(230, 232, 238);
  p.text_dim = rgb(150, 155, 168);
  p.grid = rgb(58, 62, 74);
  p.cell_empty = rgb(40, 43, 52);
  p.cell_served = rgb(46, 160, 110);
  p.cell_conflict = rgb(226, 86, 70);
  p.cell_broadcast = rgb(70, 130, 220);
  p.excess_row = rgb(120, 40, 40, 70);
  p.ideal_line = rgb(250, 200, 60);
  p.phase_line = rgb(170, 140, 230);
  p.current_row = rgb(255, 255, 255);
  p.highlight = rgb(255, 255, 255);
  p.padding = rgb(70, 70, 78);
  p.lane_on = rgb(46, 160, 110);
  p.lane_off = rgb(70, 72, 82);
  p.on_fill = rgb(255, 255, 255);
  p.on_bank = rgb(20, 20, 20);
  p.halo = rgb(255, 255, 255, 170);
  p.stripe_mark = rgb(0, 0, 0, 115);
  p.error = rgb(255, 110, 100);
  p.warning = rgb(250, 200, 60);
  p.note = rgb(140, 190, 255);
  p.banks = bank_colours(0.55f, 0.90f, 0.68f);
  p.wavefronts = wavefront_colours(0.70f, 0.95f);
  return p;
}

// Light theme for projectors: dark text on near-white, stronger fills (projectors wash out
// pale colours).
Palette make_light() {
  Palette p{};
  p.background = rgb(250, 250, 247);
  p.text = rgb(20, 22, 28);
  p.text_dim = rgb(95, 100, 112);
  p.grid = rgb(196, 200, 208);
  p.cell_empty = rgb(234, 236, 240);
  p.cell_served = rgb(22, 140, 90);
  p.cell_conflict = rgb(210, 50, 40);
  p.cell_broadcast = rgb(40, 100, 200);
  p.excess_row = rgb(220, 60, 50, 40);
  p.ideal_line = rgb(200, 130, 0);
  p.phase_line = rgb(120, 80, 200);
  p.current_row = rgb(0, 0, 0);
  p.highlight = rgb(0, 0, 0);
  p.padding = rgb(170, 170, 175);
  p.lane_on = rgb(22, 140, 90);
  p.lane_off = rgb(200, 202, 210);
  p.on_fill = rgb(255, 255, 255);
  p.on_bank = rgb(20, 20, 20);
  p.halo = rgb(255, 255, 255, 170);
  p.stripe_mark = rgb(0, 0, 0, 115);
  p.error = rgb(200, 30, 30);
  p.warning = rgb(170, 100, 0);
  p.note = rgb(30, 90, 190);
  p.banks = bank_colours(0.60f, 0.95f, 0.75f);
  p.wavefronts = wavefront_colours(0.85f, 0.80f);
  return p;
}

}  // namespace

std::string_view theme_name(Theme t) {
  return t == Theme::light ? "light" : "dark";
}

const Palette& palette(Theme t) {
  static const Palette kDark = make_dark();
  static const Palette kLight = make_light();
  return t == Theme::light ? kLight : kDark;
}

void apply_style(ImGuiStyle& style, Theme t, float scale) {
  style = ImGuiStyle();
  if (t == Theme::light) {
    ImGui::StyleColorsLight(&style);
    // ImGui's light frames are white on near-white: give inputs and radio buttons an edge.
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.86f, 0.87f, 0.90f, 1.0f);
    style.FrameBorderSize = 1.0f;
  } else {
    ImGui::StyleColorsDark(&style);
  }
  // The views draw no background of their own (see ui_main.cpp): windows that float over them
  // (help, problems) use the same colour as the clear behind the views.
  style.Colors[ImGuiCol_WindowBg] = ImGui::ColorConvertU32ToFloat4(palette(t).background);
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowBorderSize = 1.0f;
  style.ScaleAllSizes(scale);
}

Rgb to_rgb(ImU32 c) {
  return Rgb{static_cast<int>((c >> IM_COL32_R_SHIFT) & 0xFF),
             static_cast<int>((c >> IM_COL32_G_SHIFT) & 0xFF),
             static_cast<int>((c >> IM_COL32_B_SHIFT) & 0xFF)};
}

}  // namespace banklab::gui
