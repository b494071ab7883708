#include "draw_queue.hpp"

namespace banklab::gui {

void DrawQueue::begin_frame() {
  quads_.clear();
  segments_.clear();
  batches_.clear();
}

void DrawQueue::emit(ImDrawList* dl, const Batch& b) {
  batches_.push_back(b);
  if (!callback_) return;
  dl->AddCallback(callback_, &batches_.back());
  // ImGui's backend does not restore its own GL state after a user callback unless asked.
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void DrawQueue::add_quads(ImDrawList* dl, std::span<const Quad> quads) {
  if (quads.empty()) return;
  Batch b{this, BatchKind::quads, static_cast<int>(quads_.size()),
          static_cast<int>(quads.size()), {}, {}};
  quads_.insert(quads_.end(), quads.begin(), quads.end());
  emit(dl, b);
}

void DrawQueue::add_segments(ImDrawList* dl, std::span<const Segment> segments) {
  if (segments.empty()) return;
  Batch b{this, BatchKind::segments, static_cast<int>(segments_.size()),
          static_cast<int>(segments.size()), {}, {}};
  segments_.insert(segments_.end(), segments.begin(), segments.end());
  emit(dl, b);
}

void DrawQueue::add_heatmap(ImDrawList* dl, ImVec2 min, ImVec2 max) {
  if (heatmap.cells.empty()) return;
  emit(dl, Batch{this, BatchKind::heatmap, 0, 0, min, max});
}

}  // namespace banklab::gui
