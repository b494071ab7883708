#pragma once
// Every key press counts, however short. ImGui 1.86 reads the keyboard as io.KeysDown[], each
// key held or not, once a frame: a press and its release that both arrive between two frames
// (a presentation clicker's tap, `xdotool key`, a quick tap while a slow first frame is built)
// leave the key up, and the press is never seen. So the platform's key callback queues the
// changes here instead of writing io.KeysDown, and apply() hands them to ImGui a frame at a
// time: the changes in the order they came, until one would change a key already changed this
// frame; that one and the rest wait for the next frame, which the caller asks for.
//
//   key callback (GLFW, desktop or browser)     before ImGui::NewFrame()
//   keys.push(key, down); ask for a frame       if (keys.apply(io)) ask for another frame
#include <imgui.h>

#include <cstddef>
#include <deque>

namespace banklab::gui {

class KeyQueue {
 public:
  // More changes than any hand or clicker makes between two frames; past it new presses are
  // dropped (a release is always kept, so no key stays down).
  static constexpr std::size_t kMaxPending = 1024;

  // A key (GLFW's code, which indexes io.KeysDown) went down or up; GLFW_REPEAT is not a change
  // (ImGui repeats a held key itself).
  void push(int key, bool down);
  // Applies this frame's changes to io.KeysDown and the modifier flags. True when changes are
  // left for the next frame.
  bool apply(ImGuiIO& io);
  bool empty() const { return pending_.empty(); }

 private:
  struct Change {
    int key;
    bool down;
  };
  std::deque<Change> pending_;
};

}  // namespace banklab::gui
