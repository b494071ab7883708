#pragma once
// ImGui windows that hold still, drawn from a picture of themselves.
//
// Under llvmpipe, what ImGui's OpenGL backend costs the CPU is mostly the driver setting up and
// binning triangles: about a thousand instructions each, and text is two triangles a glyph (the
// Arithmetic window's explanation alone is some 2,800). Most frames redraw windows whose draw
// lists are exactly those of the frame before (the pointer moved over another window, a
// benchmark, a settling frame). Such a window (its draw list and its child windows' lists, in
// ImGui's order) is drawn once into a texture of its own, and from then on as one textured
// quad, until one of its lists changes.
//
// The picture holds every pixel of the window's rectangle (the pixels its lists can touch) as
// the screen shows it after the window: the frame's background, then the earlier windows that
// touch the rectangle, then the window, drawn with the frame's own viewport, projection and
// scissor rectangles into a texture the framebuffer's size. The quad copies the rectangle back
// without blending: the same bytes as drawing the window itself. The earlier windows in the
// rectangle must hold still too (and draw from the font atlas), or the window is drawn as it is.
//
// A window is pictured only when every one of its draw commands samples ImGui's font atlas
// (no callback: the DrawQueue's GL batches draw from buffers that change without the list
// changing; no other texture) and the framebuffer scale is a whole number (the picture's pixels
// then fall on the screen's). A window that changes every frame costs a copy of its lists and
// is drawn as before: it is pictured after the first frame it holds still.
//
// Per frame, with the GL context current and the frame's framebuffer bound:
//   pictures.update(draw);   // before the frame's clear: switching framebuffers makes
//                            // llvmpipe draw what it has queued
//   glClear(...);
//   pictures.draw(draw);     // ImGui_ImplOpenGL3_RenderDrawData, pictured windows as quads
#include <imgui.h>

#include <memory>
#include <vector>

#include "app/gui/render/gl.hpp"

namespace banklab::gui {

class WindowPictures {
 public:
  WindowPictures();
  WindowPictures(const WindowPictures&) = delete;
  WindowPictures& operator=(const WindowPictures&) = delete;
  ~WindowPictures();

  // Compares each window's lists with the last frame's and draws the pictures that are due;
  // `clear` is the colour the frame is cleared to.
  void update(const ImDrawData& draw, ImVec4 clear);
  // Draws the frame as ImGui_ImplOpenGL3_RenderDrawData(draw) would, into the bound framebuffer.
  void draw(const ImDrawData& draw);
  // Deletes the textures; needs the context current. Also done by update() for windows gone.
  void shutdown();

  // How many windows the last draw() took from their pictures (the frame benchmark says it).
  int pictured() const { return pictured_; }

 private:
  struct Window;
  std::vector<std::unique_ptr<Window>> windows_;
  std::vector<Window*> frame_;   // this frame's windows, in ImGui's order
  ImVector<ImDrawList*> lists_;  // the frame draw() hands to ImGui's backend
  int pictured_ = 0;
};

}  // namespace banklab::gui
