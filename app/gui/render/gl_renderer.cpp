#include "app/gui/render/gl_renderer.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>

#include "app/gui/render/gl_program.hpp"

namespace banklab::gui {
namespace {

// The instance layouts the vertex shaders read.
struct QuadVertex {
  float rect[4];
  std::uint32_t colour;  // ImU32: R in the lowest byte, as GL_UNSIGNED_BYTE x4 reads it
  std::uint32_t style;
};

struct SegmentVertex {
  float ends[4];
  std::uint32_t colour;
  float width;
};

// A vertex array whose three attributes advance once per instance (the four corners of a quad
// come from gl_VertexID), and the buffer that feeds them; pointers are set per batch.
void make_instance_arrays(GLuint& vao, GLuint& vbo) {
  glGenVertexArrays(1, &vao);
  glGenBuffers(1, &vbo);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  for (GLuint attribute = 0; attribute < 3; ++attribute) {
    glEnableVertexAttribArray(attribute);
    glVertexAttribDivisor(attribute, 1);
  }
}

void delete_program(GLuint& p) {
  if (p) glDeleteProgram(p);
  p = 0;
}

}  // namespace

GlRenderer::~GlRenderer() {
  // shutdown() must run while the context is current; a renderer never initialised is fine.
  assert(!ready_ && "GlRenderer::shutdown() must be called before the GL context goes away");
}

std::vector<std::string> GlRenderer::init(DrawQueue& queue) {
  std::vector<std::string> errors;
  auto build = [&](const char* vs, const char* fs, GLuint& out) {
    Expected<GLuint> p = build_program(vs, fs);
    if (p) {
      out = *p;
    } else {
      errors.push_back(p.error());
    }
  };
  build("quads.vert", "quads.frag", quad_program_);
  build("segments.vert", "segments.frag", segment_program_);
  build("heatmap.vert", "heatmap.frag", heatmap_program_);

  make_instance_arrays(quad_vao_, quad_vbo_);
  make_instance_arrays(segment_vao_, segment_vbo_);
  glGenVertexArrays(1, &empty_vao_);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  glGenTextures(1, &heat_texture_);
  glBindTexture(GL_TEXTURE_2D, heat_texture_);
  // Integer textures cannot be filtered; the shader fetches texels by index anyway.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);

  std::string gl = gl_errors();
  if (!gl.empty()) errors.push_back("setting up the GL buffers failed: " + gl);
  ready_ = true;
  queue.attach(&GlRenderer::on_batch, this);
  return errors;
}

void GlRenderer::shutdown() {
  if (!ready_) return;
  pictures_.shutdown();
  delete_program(quad_program_);
  delete_program(segment_program_);
  delete_program(heatmap_program_);
  glDeleteBuffers(1, &quad_vbo_);
  glDeleteBuffers(1, &segment_vbo_);
  glDeleteVertexArrays(1, &quad_vao_);
  glDeleteVertexArrays(1, &segment_vao_);
  glDeleteVertexArrays(1, &empty_vao_);
  glDeleteTextures(1, &heat_texture_);
  ready_ = false;
}

void GlRenderer::upload(const DrawQueue& queue, const Palette& palette, float stripe_pixels,
                        float outline) {
  stripe_ = stripe_pixels;
  outline_ = outline;
  // Vectors of instances, streamed each frame: a few thousand at most, well under 100 KB.
  std::vector<QuadVertex> quads;
  quads.reserve(queue.quads().size());
  for (const Quad& q : queue.quads()) {
    quads.push_back(
        {{q.min.x, q.min.y, q.max.x, q.max.y}, q.colour, static_cast<std::uint32_t>(q.style)});
  }
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(quads.size() * sizeof(QuadVertex)),
               quads.data(), GL_STREAM_DRAW);

  std::vector<SegmentVertex> segments;
  segments.reserve(queue.segments().size());
  for (const Segment& s : queue.segments()) {
    segments.push_back({{s.a.x, s.a.y, s.b.x, s.b.y}, s.colour, s.width});
  }
  glBindBuffer(GL_ARRAY_BUFFER, segment_vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(segments.size() * sizeof(SegmentVertex)),
               segments.data(), GL_STREAM_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  const HeatmapImage& img = queue.heatmap;
  if (img.revision != heat_revision_ && !img.cells.empty()) {
    glBindTexture(GL_TEXTURE_2D, heat_texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8UI, img.cols, 2 * img.rows, 0, GL_RED_INTEGER,
                 GL_UNSIGNED_BYTE, img.cells.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindTexture(GL_TEXTURE_2D, 0);
    heat_cols_ = img.cols;
    heat_rows_ = img.rows;
  }
  heat_revision_ = img.revision;

  if (heatmap_program_) {
    float colours[32 * 3];
    for (int b = 0; b < 32; ++b) {
      ImVec4 c = ImGui::ColorConvertU32ToFloat4(palette.banks[b]);
      colours[3 * b] = c.x;
      colours[3 * b + 1] = c.y;
      colours[3 * b + 2] = c.z;
    }
    ImVec4 pad = ImGui::ColorConvertU32ToFloat4(palette.padding);
    ImVec4 grid = ImGui::ColorConvertU32ToFloat4(palette.background);
    glUseProgram(heatmap_program_);
    glUniform3fv(glGetUniformLocation(heatmap_program_, "u_bank_colour"), 32, colours);
    glUniform3f(glGetUniformLocation(heatmap_program_, "u_padding_colour"), pad.x, pad.y, pad.z);
    glUniform3f(glGetUniformLocation(heatmap_program_, "u_grid_colour"), grid.x, grid.y, grid.z);
    glUniform1i(glGetUniformLocation(heatmap_program_, "u_cells"), 0);
    glUseProgram(0);
  }
}

void GlRenderer::on_batch(const ImDrawList*, const ImDrawCmd* cmd) {
  const auto* batch = static_cast<const Batch*>(cmd->UserCallbackData);
  static_cast<GlRenderer*>(batch->queue->renderer())->draw(*batch, *cmd);
}

void GlRenderer::set_display_uniforms(GLuint program) const {
  glUniform2f(glGetUniformLocation(program, "u_display_pos"), display_pos_.x, display_pos_.y);
  glUniform2f(glGetUniformLocation(program, "u_display_size"), display_size_.x, display_size_.y);
}

void GlRenderer::draw(const Batch& batch, const ImDrawCmd& cmd) {
  const ImDrawData* dd = ImGui::GetDrawData();
  display_pos_ = dd->DisplayPos;
  display_size_ = dd->DisplaySize;
  scale_ = dd->FramebufferScale.x;
  // The same scissor ImGui's backend would set for this command: the window's clip rectangle.
  float fb_height = dd->DisplaySize.y * dd->FramebufferScale.y;
  ImVec2 clip_min((cmd.ClipRect.x - display_pos_.x) * dd->FramebufferScale.x,
                  (cmd.ClipRect.y - display_pos_.y) * dd->FramebufferScale.y);
  ImVec2 clip_max((cmd.ClipRect.z - display_pos_.x) * dd->FramebufferScale.x,
                  (cmd.ClipRect.w - display_pos_.y) * dd->FramebufferScale.y);
  if (clip_max.x <= clip_min.x || clip_max.y <= clip_min.y) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>(clip_min.x), static_cast<GLint>(fb_height - clip_max.y),
            static_cast<GLsizei>(clip_max.x - clip_min.x),
            static_cast<GLsizei>(clip_max.y - clip_min.y));

  switch (batch.kind) {
    case BatchKind::quads: {
      if (!quad_program_) return;
      glUseProgram(quad_program_);
      set_display_uniforms(quad_program_);
      glUniform1f(glGetUniformLocation(quad_program_, "u_stripe"), stripe_);
      glUniform1f(glGetUniformLocation(quad_program_, "u_outline"), outline_);
      glBindVertexArray(quad_vao_);
      glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
      // GL 3.3 has no base instance: point the attributes at this batch's first instance.
      auto base = static_cast<std::size_t>(batch.first) * sizeof(QuadVertex);
      glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(QuadVertex),
                            reinterpret_cast<const void*>(base + offsetof(QuadVertex, rect)));
      glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(QuadVertex),
                            reinterpret_cast<const void*>(base + offsetof(QuadVertex, colour)));
      glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, sizeof(QuadVertex),
                             reinterpret_cast<const void*>(base + offsetof(QuadVertex, style)));
      glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, batch.count);
      break;
    }
    case BatchKind::segments: {
      if (!segment_program_) return;
      glUseProgram(segment_program_);
      set_display_uniforms(segment_program_);
      glBindVertexArray(segment_vao_);
      glBindBuffer(GL_ARRAY_BUFFER, segment_vbo_);
      auto base = static_cast<std::size_t>(batch.first) * sizeof(SegmentVertex);
      glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(SegmentVertex),
                            reinterpret_cast<const void*>(base + offsetof(SegmentVertex, ends)));
      glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(SegmentVertex),
                            reinterpret_cast<const void*>(base + offsetof(SegmentVertex, colour)));
      glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, sizeof(SegmentVertex),
                            reinterpret_cast<const void*>(base + offsetof(SegmentVertex, width)));
      glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, batch.count);
      break;
    }
    case BatchKind::heatmap: {
      if (!heatmap_program_ || heat_cols_ == 0) return;
      glUseProgram(heatmap_program_);
      set_display_uniforms(heatmap_program_);
      glUniform4f(glGetUniformLocation(heatmap_program_, "u_rect"), batch.min.x, batch.min.y,
                  batch.max.x, batch.max.y);
      // The rows the figure drew (its first ones), each as tall as the box holds.
      const int rows = std::clamp(batch.count, 1, heat_rows_);
      glUniform2i(glGetUniformLocation(heatmap_program_, "u_dims"), heat_cols_, rows);
      glUniform1i(glGetUniformLocation(heatmap_program_, "u_first_row"), batch.first * heat_rows_);
      glUniform2f(glGetUniformLocation(heatmap_program_, "u_cell_pixels"),
                  (batch.max.x - batch.min.x) * scale_ / static_cast<float>(heat_cols_),
                  (batch.max.y - batch.min.y) * scale_ / static_cast<float>(rows));
      glUniform1f(glGetUniformLocation(heatmap_program_, "u_stripe"), stripe_);
      glActiveTexture(GL_TEXTURE0);
      glBindTexture(GL_TEXTURE_2D, heat_texture_);
      glBindVertexArray(empty_vao_);
      glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
      break;
    }
  }
}

}  // namespace banklab::gui
