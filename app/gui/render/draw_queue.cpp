#include "app/gui/render/draw_queue.hpp"

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
  append(dl, BatchKind::quads, quads_, quads);
}

void DrawQueue::add_segments(ImDrawList* dl, std::span<const Segment> segments) {
  append(dl, BatchKind::segments, segments_, segments);
}

void DrawQueue::add_heatmap(ImDrawList* dl, ImVec2 min, ImVec2 max, bool physical, int rows) {
  if (heatmap.cells.empty()) return;
  emit(dl, Batch{this, BatchKind::heatmap, physical ? 1 : 0, rows, min, max});
}

}  // namespace banklab::gui
