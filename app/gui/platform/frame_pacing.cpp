#include "app/gui/platform/frame_pacing.hpp"

#include <algorithm>
#include <cstring>
#include <span>

namespace banklab::gui {

void FramePacer::request(FrameReason why) {
  requests_.fetch_or(bit(why), std::memory_order_relaxed);
}

std::optional<double> FramePacer::wait_seconds(double now) const {
  if (requests_.load(std::memory_order_relaxed) != 0 || settle_ > 0 || budget_ > 0) return 0.0;
  if (timer_) return std::max(0.0, *timer_ - now);
  return std::nullopt;
}

bool FramePacer::frame_due(double now) {
  const unsigned asked = requests_.exchange(0, std::memory_order_relaxed);
  const bool timer = timer_ && now >= *timer_;
  if (timer) timer_.reset();  // the frame built now sets the next one
  if (asked != 0 || timer) {
    settle_ = kSettleFrames;
    budget_ = kMaxSettleFrames;
  }
  if (asked & (bit(FrameReason::resize) | bit(FrameReason::expose))) repaint_ = true;
  return settle_ > 0 || budget_ > 0;
}

bool FramePacer::frame_built(std::uint64_t signature) {
  ++built_;
  const bool same_as_last = last_ == signature;
  last_ = signature;
  settle_ = std::max(0, settle_ - 1);
  budget_ = std::max(0, budget_ - 1);
  // Settled: the minimum is built and the picture stopped changing.
  if (settle_ == 0 && same_as_last) budget_ = 0;
  const bool present = repaint_ || shown_ != signature;
  if (present) {
    shown_ = signature;
    repaint_ = false;
    ++presented_;
  }
  return present;
}

namespace {

// 64-bit FNV-1a over whole words, then the tail bytes: a few hundred kilobytes of vertices take
// well under a millisecond, and two different frames share a hash with odds of 1 in 2^64.
class Hasher {
 public:
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, p + i, 8);
      mix(word);
    }
    for (; i < size; ++i) mix(p[i]);
    mix(size);
  }
  template <class T>
  void values(std::span<const T> items) {
    bytes(items.data(), items.size_bytes());
  }
  void value(std::uint64_t v) { mix(v); }
  std::uint64_t get() const { return h_; }

 private:
  void mix(std::uint64_t v) { h_ = (h_ ^ v) * 0x100000001b3ull; }
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

std::uint64_t bits(float f) {
  std::uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The instances are hashed as bytes: no padding may hide in them.
static_assert(sizeof(Quad) == 2 * sizeof(ImVec2) + sizeof(ImU32) + sizeof(QuadStyle));
static_assert(sizeof(Segment) == 2 * sizeof(ImVec2) + sizeof(float) + sizeof(ImU32));
static_assert(sizeof(ImDrawVert) == 2 * sizeof(ImVec2) + sizeof(ImU32));

}  // namespace

std::uint64_t frame_signature(const ImDrawData& draw, const DrawQueue& queue) {
  Hasher h;
  h.value(bits(draw.DisplayPos.x) << 32 | bits(draw.DisplayPos.y));
  h.value(bits(draw.DisplaySize.x) << 32 | bits(draw.DisplaySize.y));
  h.value(bits(draw.FramebufferScale.x) << 32 | bits(draw.FramebufferScale.y));
  for (int i = 0; i < draw.CmdListsCount; ++i) {
    const ImDrawList& list = *draw.CmdLists[i];
    h.values(std::span<const ImDrawVert>(list.VtxBuffer.Data, list.VtxBuffer.Size));
    h.values(std::span<const ImDrawIdx>(list.IdxBuffer.Data, list.IdxBuffer.Size));
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      h.value(bits(cmd.ClipRect.x) << 32 | bits(cmd.ClipRect.y));
      h.value(bits(cmd.ClipRect.z) << 32 | bits(cmd.ClipRect.w));
      h.value(reinterpret_cast<std::uintptr_t>(cmd.TextureId));
      h.value(std::uint64_t{cmd.VtxOffset} << 32 | cmd.IdxOffset);
      h.value(cmd.ElemCount);
      // A callback draws one of the queue's batches: its contents are hashed below, and the
      // batch's place in them here.
      h.value(cmd.UserCallback != nullptr);
      if (cmd.UserCallback != nullptr && cmd.UserCallbackData != nullptr) {
        const auto& b = *static_cast<const Batch*>(cmd.UserCallbackData);
        h.value(static_cast<std::uint64_t>(b.kind));
        h.value(static_cast<std::uint64_t>(b.first) << 32 | static_cast<std::uint32_t>(b.count));
        h.value(bits(b.min.x) << 32 | bits(b.min.y));
        h.value(bits(b.max.x) << 32 | bits(b.max.y));
      }
    }
  }
  h.values(std::span<const Quad>(queue.quads()));
  h.values(std::span<const Segment>(queue.segments()));
  h.value(queue.heatmap.revision);
  return h.get();
}

}  // namespace banklab::gui
