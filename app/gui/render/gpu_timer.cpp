#include "app/gui/render/gpu_timer.hpp"

#include <cassert>

namespace banklab::gui {

GpuTimer::~GpuTimer() {
  assert(queries_[0] == 0 && "GpuTimer::finish() must run while the context is current");
}

void GpuTimer::init() {
  glGenQueries(kRing, queries_);
}

void GpuTimer::collect(int slot) {
  if (!pending_[slot]) return;
  GLuint64 ns = 0;
  glGetQueryObjectui64v(queries_[slot], GL_QUERY_RESULT, &ns);
  ms_.push_back(static_cast<double>(ns) * 1e-6);
  pending_[slot] = false;
}

void GpuTimer::begin() {
  collect(next_);
  glBeginQuery(GL_TIME_ELAPSED, queries_[next_]);
}

void GpuTimer::end() {
  glEndQuery(GL_TIME_ELAPSED);
  pending_[next_] = true;
  next_ = (next_ + 1) % kRing;
}

std::vector<double> GpuTimer::finish() {
  for (int i = 0; i < kRing; ++i) collect((next_ + i) % kRing);
  glDeleteQueries(kRing, queries_);
  for (GLuint& q : queries_) q = 0;
  return ms_;
}

}  // namespace banklab::gui
