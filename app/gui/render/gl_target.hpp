#pragma once
// An offscreen framebuffer of an exact pixel size, for --screenshot: the picture does not
// depend on the X screen's size or on a window manager resizing the window, and a 4K
// screenshot works under a 1080p Xvfb.
#include <string>
#include <vector>

#include "app/gui/render/gl.hpp"
#include "core/base/expected.hpp"

namespace banklab::gui {

class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;
  ~OffscreenTarget();

  // Needs a current context; done, or what failed (framebuffer status, GL error).
  Expected<void> create(int width, int height);
  void destroy();
  void bind() const;
  // RGBA rows from the top, as a PNG stores them (GL's rows start at the bottom).
  std::vector<unsigned char> read_rgba() const;

  int width() const { return width_; }
  int height() const { return height_; }

 private:
  GLuint fbo_ = 0, colour_ = 0;
  int width_ = 0, height_ = 0;
};

// The pixels (top-down rows of RGBA) encoded as a PNG, in memory: the GL layer writes no file
// (platform/offscreen.hpp's write_png() does, through frontend/file_io).
Expected<std::string> encode_png(int width, int height, const std::vector<unsigned char>& rgba);

}  // namespace banklab::gui
