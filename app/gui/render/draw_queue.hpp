#pragma once
// Dense drawing handed from the views to the project's own GL programs. The views fill the
// queue while ImGui builds its draw lists; for every batch they also put a callback into the
// ImGui draw list, so the renderer draws the batch at exactly that point of ImGui's command
// stream (under the widgets drawn after it, inside the window's clip rectangle). With no
// renderer attached (the headless tests) the queue still records everything and adds no
// callback, so the views' output can be checked without GL.
#include <imgui.h>

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

namespace banklab::gui {

enum class QuadStyle : std::uint32_t {
  solid = 0,
  striped = 1,  // diagonal stripes: broadcasts in the bank view, padding in the tile view
  outline = 2,  // a frame 2 px wide: the current row, highlighted elements
};

struct Quad {
  ImVec2 min, max;
  ImU32 colour = 0;
  QuadStyle style = QuadStyle::solid;
};

// A line from a to b drawn as a quad of the given width (core GL has no wide lines).
struct Segment {
  ImVec2 a, b;
  float width = 1.0f;
  ImU32 colour = 0;
};

// One byte per tile slot (row-major, rows x cols): the bank in bits 0-4, kHeatPadding set for a
// padding slot; the logical picture, then the physical one (2 x rows x cols bytes). Rebuilt
// only when the tile changes; revision tells the renderer to re-upload.
struct HeatmapImage {
  static constexpr std::uint8_t kHeatPadding = 0x40;
  int rows = 0;
  int cols = 0;
  std::vector<std::uint8_t> cells;
  std::uint64_t revision = 0;

  std::span<const std::uint8_t> picture(bool physical) const {
    if (cells.empty()) return {};
    const std::size_t n = static_cast<std::size_t>(rows) * cols;
    return std::span<const std::uint8_t>(cells).subspan(physical ? n : 0, n);
  }
};

enum class BatchKind : std::uint8_t { quads, segments, heatmap };

class DrawQueue;

struct Batch {
  const DrawQueue* queue = nullptr;
  BatchKind kind = BatchKind::quads;
  int first = 0;    // into quads() or segments(); heatmap: 1 for the physical picture
  int count = 0;    // heatmap: the rows drawn, from the first (a projector's figure may stop early)
  ImVec2 min, max;  // heatmap: where the tile goes
};

class DrawQueue {
 public:
  // Called by the renderer once its GL programs exist; from then on batches reach it.
  void attach(ImDrawCallback callback, void* renderer) {
    callback_ = callback;
    renderer_ = renderer;
  }
  void* renderer() const { return renderer_; }

  void begin_frame();
  void add_quads(ImDrawList* dl, std::span<const Quad> quads);
  void add_segments(ImDrawList* dl, std::span<const Segment> segments);
  // The tile's first `rows` rows (of HeatmapImage's) in min..max.
  void add_heatmap(ImDrawList* dl, ImVec2 min, ImVec2 max, bool physical, int rows);

  const std::vector<Quad>& quads() const { return quads_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const std::deque<Batch>& batches() const { return batches_; }

  HeatmapImage heatmap;

 private:
  void emit(ImDrawList* dl, const Batch& b);
  template <class T>
  void append(ImDrawList* dl, BatchKind kind, std::vector<T>& store, std::span<const T> items) {
    if (items.empty()) return;
    Batch b{this, kind, static_cast<int>(store.size()), static_cast<int>(items.size()), {}, {}};
    store.insert(store.end(), items.begin(), items.end());
    emit(dl, b);
  }

  ImDrawCallback callback_ = nullptr;
  void* renderer_ = nullptr;
  std::vector<Quad> quads_;
  std::vector<Segment> segments_;
  std::deque<Batch> batches_;  // a deque: the draw list keeps pointers to its elements
};

}  // namespace banklab::gui
