#pragma once
// The GLSL programs of shaders/, compiled into the binary (see embed_shaders.cmake). The files
// have no #version line: build_program() puts this build's first (gl.hpp's kGlslPrelude).
#include <span>
#include <string_view>

namespace banklab::gui {

struct EmbeddedShader {
  std::string_view name;  // the file name: "quads.vert"
  std::string_view source;
};

std::span<const EmbeddedShader> embedded_shaders();

}  // namespace banklab::gui
