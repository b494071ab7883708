#pragma once
// What the suites that open real windows share: a patient glfwInit() and a hidden GL window.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <chrono>
#include <thread>

namespace banklab::gui::test {

// glfwInit(), retried for up to 30 s: an X server busy with a large screenshot on a loaded
// machine has refused a connection now and then ("X11: Failed to open display").
inline bool init_glfw_patiently() {
  for (int i = 0; i < 300; ++i) {
    if (glfwInit()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// A hidden 64x64 window whose GL 3.3 core context is made current; nullptr when there is none.
inline GLFWwindow* hidden_gl_window(const char* title) {
  if (!init_glfw_patiently()) return nullptr;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(64, 64, title, nullptr, nullptr);
  if (window != nullptr) glfwMakeContextCurrent(window);
  return window;
}

}  // namespace banklab::gui::test
