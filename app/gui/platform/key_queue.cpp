#include "app/gui/platform/key_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <bitset>
#include <cstddef>

namespace banklab::gui {
namespace {

constexpr std::size_t kKeys = sizeof(ImGuiIO::KeysDown) / sizeof(ImGuiIO::KeysDown[0]);

}  // namespace

void KeyQueue::push(int key, bool down) {
  if (key < 0 || static_cast<std::size_t>(key) >= kKeys) return;
  if (down && pending_.size() >= kMaxPending) return;
  pending_.push_back({key, down});
}

bool KeyQueue::apply(ImGuiIO& io) {
  std::bitset<kKeys> changed;
  while (!pending_.empty()) {
    const Change c = pending_.front();
    if (changed[static_cast<std::size_t>(c.key)]) break;  // its second change: next frame
    changed[static_cast<std::size_t>(c.key)] = true;
    io.KeysDown[c.key] = c.down;
    pending_.pop_front();
  }
  if (changed.none()) return false;
  // As ImGui's GLFW backend sets them on each key event: from the keys, either side.
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
  return !pending_.empty();
}

}  // namespace banklab::gui
