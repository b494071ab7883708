#include "app/gui/platform/offscreen.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "app/frontend/file_io.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/render/fonts.hpp"

namespace banklab::gui {

void upload_frame(AppState& s, GlRenderer& r) {
  const float scale = ImGui::GetFontSize() / kBaseFontPixels;
  r.upload(s.frame.draw, palette(s.user.settings.theme), std::max(6.0f, 8.0f * scale),
           2.0f * scale);
}

void present_frame(const AppState& s, GlRenderer& r, int width, int height) {
  const ImDrawData& draw = *ImGui::GetDrawData();
  ImVec4 bg = ImGui::ColorConvertU32ToFloat4(palette(s.user.settings.theme).background);
  bg.w = 1.0f;
  r.pictures().update(draw, bg);  // before the clear: it may draw into the windows' pictures
  glViewport(0, 0, width, height);
  glClearColor(bg.x, bg.y, bg.z, bg.w);
  glClear(GL_COLOR_BUFFER_BIT);
  r.pictures().draw(draw);
}

void offscreen_frame(AppState& s, GlRenderer& r, const OffscreenTarget& target) {
  ImGuiIO& io = ImGui::GetIO();
  ImGui_ImplOpenGL3_NewFrame();
  io.DisplaySize = ImVec2(static_cast<float>(target.width()), static_cast<float>(target.height()));
  io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
  // A fixed 60 Hz clock (a loaded machine's long frames must not advance an animation further)
  // and no pointer (the X server's focus and pointer are shared with whatever else runs).
  io.DeltaTime = 1.0f / 60.0f;
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  for (bool& down : io.MouseDown) down = false;
  ImGui::NewFrame();
  draw_app(s);
  ImGui::Render();
  upload_frame(s, r);
  target.bind();
  present_frame(s, r, target.width(), target.height());
}

Expected<void> write_png(const std::string& path, int width, int height,
                         const std::vector<unsigned char>& rgba) {
  const Expected<std::string> png = encode_png(width, height, rgba);
  if (!png) return Error{png.error() + " for " + path};
  return frontend::replace_file(path, *png);
}

Expected<void> save_png(const OffscreenTarget& target, const std::string& path) {
  return write_png(path, target.width(), target.height(), target.read_rgba());
}

void export_png(AppState& s, GlRenderer& r) {
  if (!s.png_export) return;
  const PngExport job = *s.png_export;
  s.png_export.reset();
  OffscreenTarget target;
  Expected<void> done = target.create(job.width, job.height);
  if (done) {
    // The page is one figure with no ImGui window to size, so one frame draws it whole. The
    // window's frames go on with the window's size and pointer.
    ImGuiIO& io = ImGui::GetIO();
    const ImVec2 display = io.DisplaySize, scale = io.DisplayFramebufferScale, mouse = io.MousePos;
    s.exporting = job.view;
    offscreen_frame(s, r, target);
    s.exporting.reset();
    io.DisplaySize = display;
    io.DisplayFramebufferScale = scale;
    io.MousePos = mouse;
    done = save_png(target, job.path);
    target.destroy();
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  FileMenu& f = s.user.files;
  f.failed = !done;
  char size[64];
  std::snprintf(size, sizeof size, " (%dx%d)", job.width, job.height);
  f.status = f.failed ? done.error() : "wrote " + job.path + size;
}

}  // namespace banklab::gui
