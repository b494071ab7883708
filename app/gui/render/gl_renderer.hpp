#pragma once
// Draws the DrawQueue's batches with the project's GLSL programs (shaders/): instanced quads
// for the bank grid and lane boxes, widened segments for the lane-to-bank lines, and a
// fragment-shader heat map of the tile fed from an integer texture.
//
// Per frame:  views fill the queue -> ImGui::Render() -> upload() -> pictures().update() ->
// clear -> pictures().draw(): ImGui's backend renders, calling on_batch() where each batch sits
// in its draw list, and draws the windows that held still from their pictures
// (window_pictures.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/render/draw_queue.hpp"
#include "app/gui/render/gl.hpp"
#include "app/gui/render/palette.hpp"
#include "app/gui/render/window_pictures.hpp"

namespace banklab::gui {

class GlRenderer {
 public:
  GlRenderer() = default;
  GlRenderer(const GlRenderer&) = delete;
  GlRenderer& operator=(const GlRenderer&) = delete;
  ~GlRenderer();

  // Needs a current GL 3.3 context. Returns one message per program that failed, each with
  // the driver's log; the programs that built are used, the views of the others stay empty.
  std::vector<std::string> init(DrawQueue& queue);
  void shutdown();

  // Copies this frame's instances (and the heat map, when its revision changed) to the GPU.
  // stripe_pixels: period of the striped style; outline: width of the outline style.
  void upload(const DrawQueue& queue, const Palette& palette, float stripe_pixels, float outline);

  WindowPictures& pictures() { return pictures_; }

 private:
  static void on_batch(const ImDrawList* list, const ImDrawCmd* cmd);
  void draw(const Batch& batch, const ImDrawCmd& cmd);
  void set_display_uniforms(GLuint program) const;

  GLuint quad_program_ = 0, segment_program_ = 0, heatmap_program_ = 0;
  GLuint quad_vao_ = 0, quad_vbo_ = 0;
  GLuint segment_vao_ = 0, segment_vbo_ = 0;
  GLuint empty_vao_ = 0;  // core GL needs a bound VAO even for attribute-less draws
  GLuint heat_texture_ = 0;
  std::uint64_t heat_revision_ = ~std::uint64_t{0};
  int heat_cols_ = 0, heat_rows_ = 0;
  float stripe_ = 8.0f;
  float outline_ = 2.0f;
  ImVec2 display_pos_, display_size_;
  float scale_ = 1.0f;  // framebuffer pixels per display unit
  WindowPictures pictures_;
  bool ready_ = false;
};

}  // namespace banklab::gui
