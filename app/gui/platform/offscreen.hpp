#pragma once
// The app's frames drawn to GL, and drawn offscreen at a size of their own: what --screenshot
// and --export-dir save, and what File > Export PNG renders (a PNG of the view at the size the
// user chose, whatever the window's size). Needs a current GL 3.3 context, ImGui's OpenGL 3
// backend and the renderer initialised (main.cpp's init_drawing()).
#include <string>
#include <vector>

#include "app/gui/render/gl_renderer.hpp"
#include "app/gui/render/gl_target.hpp"
#include "app/gui/state/app_state.hpp"
#include "core/base/expected.hpp"

namespace banklab::gui {

// After ImGui::Render(): the frame's GL batches to the GPU, then the frame drawn into the bound
// framebuffer of width x height pixels over the theme's background (the windows that held
// still since the last frame from their pictures: window_pictures.hpp).
void upload_frame(AppState& s, GlRenderer& r);
void present_frame(const AppState& s, GlRenderer& r, int width, int height);

// One frame of draw_app() laid out for the target's size and drawn into it. A frame is a
// function of the state alone: a fixed 60 Hz clock, no pointer.
void offscreen_frame(AppState& s, GlRenderer& r, const OffscreenTarget& target);

// Pixels (top-down RGBA rows) as a PNG file, written atomically and checked to the close
// (frontend/file_io); done, or why it could not be.
Expected<void> write_png(const std::string& path, int width, int height,
                         const std::vector<unsigned char>& rgba);
// The target's pixels as a PNG, written atomically; done, or why it could not be.
Expected<void> save_png(const OffscreenTarget& target, const std::string& path);

// File > Export PNG: draws s.png_export's view alone (draw_export_page()) offscreen at its
// size, writes it, and puts what happened in the File menu's status. Does nothing when no
// export was asked for; afterwards none is pending and the window's framebuffer is bound.
void export_png(AppState& s, GlRenderer& r);

}  // namespace banklab::gui
