#pragma once
// The desktop's GPU time per frame, for --bench-frames. Timer queries are core OpenGL 3.3 but
// not OpenGL ES 3.0, so the browser edition (app/web) times frames on the CPU instead and does
// not build this file.
#include <vector>

#include "app/gui/render/gl.hpp"

namespace banklab::gui {

// GPU time per frame from GL_TIME_ELAPSED queries, kept in a small ring so that reading a
// result never waits for a frame still in flight.
class GpuTimer {
 public:
  GpuTimer() = default;
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;
  ~GpuTimer();

  void init();
  void begin();
  void end();
  // Waits for the outstanding queries and returns every frame's GPU time in milliseconds.
  std::vector<double> finish();

 private:
  void collect(int slot);
  static constexpr int kRing = 4;
  GLuint queries_[kRing] = {};
  bool pending_[kRing] = {};
  int next_ = 0;
  std::vector<double> ms_;
};

}  // namespace banklab::gui
