#include "app/gui/render/palette.hpp"

namespace banklab::gui {
namespace {

Palette convert(const figures::Palette& f) {
  Palette p{};
  p.background = to_imu32(f.background);
  p.text = to_imu32(f.text);
  p.text_dim = to_imu32(f.text_dim);
  p.text_ok = to_imu32(f.text_ok);
  p.title = to_imu32(f.title);
  p.grid = to_imu32(f.grid);
  p.cell_empty = to_imu32(f.cell_empty);
  p.cell_served = to_imu32(f.cell_served);
  p.cell_conflict = to_imu32(f.cell_conflict);
  p.cell_broadcast = to_imu32(f.cell_broadcast);
  p.excess_row = to_imu32(f.excess_row);
  p.ideal_line = to_imu32(f.ideal_line);
  p.phase_line = to_imu32(f.phase_line);
  p.current_row = to_imu32(f.current_row);
  p.highlight = to_imu32(f.highlight);
  p.spotlight = to_imu32(f.spotlight);
  p.spotlight_tint = to_imu32(f.spotlight_tint);
  p.misaligned = to_imu32(f.misaligned);
  p.padding = to_imu32(f.padding);
  p.lane_on = to_imu32(f.lane_on);
  p.lane_off = to_imu32(f.lane_off);
  p.on_fill = to_imu32(f.on_fill);
  p.on_bank = to_imu32(f.on_bank);
  p.halo = to_imu32(f.halo);
  p.stripe_mark = to_imu32(f.stripe_mark);
  p.error = to_imu32(f.error);
  p.warning = to_imu32(f.warning);
  p.note = to_imu32(f.note);
  for (int i = 0; i < 32; ++i) {
    p.banks[i] = to_imu32(f.banks[i]);
    p.wavefronts[i] = to_imu32(f.wavefronts[i]);
  }
  p.source = &f;
  return p;
}

}  // namespace

ImU32 to_imu32(figures::Rgba c) {
  return IM_COL32(c.r, c.g, c.b, c.a);
}

figures::Rgba to_rgba(ImU32 c) {
  const auto byte = [c](int shift) { return static_cast<std::uint8_t>((c >> shift) & 0xFF); };
  return figures::Rgba{byte(IM_COL32_R_SHIFT), byte(IM_COL32_G_SHIFT), byte(IM_COL32_B_SHIFT),
                       byte(IM_COL32_A_SHIFT)};
}

const Palette& palette(Theme t, Scheme s) {
  static const Palette kAll[2][2] = {
      {convert(figures::palette_for(Theme::dark, Scheme::standard)),
       convert(figures::palette_for(Theme::dark, Scheme::colour_blind))},
      {convert(figures::palette_for(Theme::light, Scheme::standard)),
       convert(figures::palette_for(Theme::light, Scheme::colour_blind))}};
  return kAll[t == Theme::light][s == Scheme::colour_blind];
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
  // The views draw no background of their own (see app_window.cpp): windows that float over them
  // (help, problems) use the same colour as the clear behind the views.
  style.Colors[ImGuiCol_WindowBg] = ImGui::ColorConvertU32ToFloat4(palette(t).background);
  // Text and the dim text of the panels (track titles, captions, hints) in the palette's
  // colours, which keep WCAG AA contrast on it: ImGui's light TextDisabled (#999 on near-white)
  // read at 2.7:1.
  style.Colors[ImGuiCol_Text] = ImGui::ColorConvertU32ToFloat4(palette(t).text);
  style.Colors[ImGuiCol_TextDisabled] = ImGui::ColorConvertU32ToFloat4(palette(t).text_dim);
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowBorderSize = 1.0f;
  // No anti-aliased fringe around filled shapes: ImGui rings every rounded frame, radio button
  // and bullet with sliver triangles a pixel wide, a third of a frame's triangles, and under
  // llvmpipe each triangle costs its setup and binning whatever its size. Without them the GL
  // backend's submission of a 1080p frame drops from 13.4 to 9.9 million instructions
  // (docs/benchmarks-gui.md); the corners are 3 px, and text and lines stay anti-aliased.
  style.AntiAliasedFill = false;
  style.ScaleAllSizes(scale);
}

Rgb to_rgb(ImU32 c) {
  return Rgb{static_cast<int>((c >> IM_COL32_R_SHIFT) & 0xFF),
             static_cast<int>((c >> IM_COL32_G_SHIFT) & 0xFF),
             static_cast<int>((c >> IM_COL32_B_SHIFT) & 0xFF)};
}

}  // namespace banklab::gui
