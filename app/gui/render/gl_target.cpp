#include "app/gui/render/gl_target.hpp"

#include <stb_image_write.h>

#include <cassert>
#include <cstdio>
#include <string>

namespace banklab::gui {

OffscreenTarget::~OffscreenTarget() {
  assert(fbo_ == 0 && "OffscreenTarget::destroy() must run while the context is current");
}

Expected<void> OffscreenTarget::create(int width, int height) {
  width_ = width;
  height_ = height;
  glGenFramebuffers(1, &fbo_);
  glGenRenderbuffers(1, &colour_);
  glBindRenderbuffer(GL_RENDERBUFFER, colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
  GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  std::string errors = gl_errors();
  if (status != GL_FRAMEBUFFER_COMPLETE || !errors.empty()) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "offscreen framebuffer %dx%d incomplete (status 0x%X) %s", width,
                  height, status, errors.c_str());
    destroy();
    return Error{buf};
  }
  return {};
}

void OffscreenTarget::destroy() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (colour_) glDeleteRenderbuffers(1, &colour_);
  fbo_ = colour_ = 0;
}

void OffscreenTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
}

std::vector<unsigned char> OffscreenTarget::read_rgba() const {
  std::vector<unsigned char> pixels(static_cast<std::size_t>(width_) * height_ * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  // Flip to top-down rows.
  std::size_t row = static_cast<std::size_t>(width_) * 4;
  for (int y = 0; y < height_ / 2; ++y) {
    std::swap_ranges(pixels.begin() + static_cast<std::ptrdiff_t>(y * row),
                     pixels.begin() + static_cast<std::ptrdiff_t>((y + 1) * row),
                     pixels.begin() + static_cast<std::ptrdiff_t>((height_ - 1 - y) * row));
  }
  return pixels;
}

Expected<std::string> encode_png(int width, int height, const std::vector<unsigned char>& rgba) {
  // Encoded in memory, for the caller to write and check to the close: stbi_write_png() does
  // not check fclose(), so a full disk passed for success.
  std::string png;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4)) {
    return Error{"cannot encode the PNG"};
  }
  return png;
}

}  // namespace banklab::gui
