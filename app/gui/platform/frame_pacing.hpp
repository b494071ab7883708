#pragma once
// When banklab-gui draws. An app at rest draws nothing: a frame is built only when something
// asks for one (an input, a resize or an expose, a worker's result, or a timer the user
// started: Play's next wavefront), and a frame built is presented only when its picture differs
// from the one on screen. The desktop loop (main.cpp) and a browser's requestAnimationFrame
// callback ask the same object the same questions:
//
//   desktop loop                                   browser, once per animation frame
//   wait = pacer.wait_seconds(now)                 (the browser calls back; no waiting)
//   glfwWaitEventsTimeout(wait, or 0.5 s if none)
//     (callbacks: pacer.request(FrameReason::...)) (callbacks: pacer.request(...))
//   if (!pacer.frame_due(now)) continue;           if (!pacer.frame_due(now)) return;
//   build the frame (ImGui, the app)               build the frame
//   pacer.set_timer(now + seconds_to_next_tick)    pacer.set_timer(...)
//   if (pacer.frame_built(frame_signature(...)))   if (pacer.frame_built(...))
//     render, swap                                   render
//
// After a request the pacer builds at least kSettleFrames frames (ImGui shows a click's effect
// a frame later, sizes a new window on its second frame), then goes on while consecutive frames
// still differ, up to kMaxSettleFrames: a modal's fade, a table sizing its columns. The picture
// is compared by a hash of the frame's draw data (frame_signature()), so those extra frames
// cost their building but are rasterised only when they show something new.
#include <imgui.h>

#include <atomic>
#include <cstdint>
#include <optional>

#include "app/gui/render/draw_queue.hpp"

namespace banklab::gui {

enum class FrameReason : std::uint8_t {
  input,   // a key, a character, the mouse, the scroll wheel, focus
  resize,  // the framebuffer changed size: the old picture does not fit
  expose,  // the window system lost the window's pixels (uncovered, restored)
  worker,  // a background thread posted a result (the GPU window's worker)
};

class FramePacer {
 public:
  static constexpr int kSettleFrames = 3;
  static constexpr int kMaxSettleFrames = 30;

  // Something asks for a frame. Safe from any thread: a worker calls it from its own.
  void request(FrameReason why);

  // The next moment (seconds on the caller's clock) the app's own timer wants a frame, or none:
  // the step-through's next wavefront while it plays. Set after every frame built.
  void set_timer(std::optional<double> at) { timer_ = at; }

  // How long the loop may wait for events before the next frame is due: 0 when one is due now,
  // none when nothing will be until an event comes.
  std::optional<double> wait_seconds(double now) const;

  // Whether to build a frame now; takes the requests made since the last call.
  bool frame_due(double now);

  // The frame just built, by its signature: true when it must be presented (its picture differs
  // from the one on screen, or the window needs its pixels again).
  bool frame_built(std::uint64_t signature);

  int frames_built() const { return built_; }
  int frames_presented() const { return presented_; }

 private:
  static constexpr unsigned bit(FrameReason r) { return 1u << static_cast<unsigned>(r); }

  std::atomic<unsigned> requests_{0};  // FrameReason bits, from any thread
  std::optional<double> timer_;
  int settle_ = 0;        // frames still to build at least
  int budget_ = 0;        // frames that may still be built while the picture keeps changing
  bool repaint_ = false;  // present the next frame whatever it shows (resize, expose)
  std::optional<std::uint64_t> shown_;  // the picture on screen
  std::optional<std::uint64_t> last_;   // the last frame built
  int built_ = 0, presented_ = 0;
};

// ImGui's one animation at rest, the text cursor's blink, would ask for a frame every 0.4 s and
// redraw the whole window for a few pixels: the cursor stays solid instead.
inline void stop_idle_animations(ImGuiIO& io) {
  io.ConfigInputTextCursorBlink = false;
}

// ImGui refuses a frame whose DeltaTime is not above 0 (an assertion that aborts the program),
// and its GLFW backend sets DeltaTime to the clock's difference from the last frame, which is 0
// when two frames share a timestamp: a page run in virtual time (headless browsers, print
// previews), a browser that coarsens its timers for privacy. Called after the backend's
// NewFrame, before ImGui's, on every platform: such a frame (or one whose clock stepped back, or
// a NaN) counts as kShortestFrameSeconds, and every other DeltaTime is left as it is.
inline constexpr float kShortestFrameSeconds = 1e-6f;
inline void keep_delta_time_positive(ImGuiIO& io) {
  if (!(io.DeltaTime > 0.0f)) io.DeltaTime = kShortestFrameSeconds;
}

// A hash of everything a frame draws: ImGui's vertices, indices and commands, and the
// instances, lines and heat-map revision of the GL batches the commands call back into.
// Two frames with the same signature put the same pixels on screen.
std::uint64_t frame_signature(const ImDrawData& draw, const DrawQueue& queue);

}  // namespace banklab::gui
