#pragma once
// Compiling and linking the embedded GLSL programs. A failure comes back as text carrying the
// driver's info log, for the window and stderr; the app keeps running without that view.
#include <string_view>

#include "app/gui/render/gl.hpp"
#include "core/base/expected.hpp"

namespace banklab::gui {

// Builds the program from two embedded shaders named by file ("quads.vert", "quads.frag"), each
// after this build's version line (kGlslPrelude): the files are GLSL 3.30 and GLSL ES 3.00 alike.
Expected<GLuint> build_program(std::string_view vertex_name, std::string_view fragment_name);

// Compiles one stage from a whole source, version line included; name only labels the error.
Expected<GLuint> compile_shader(GLenum stage, std::string_view name, std::string_view source);

}  // namespace banklab::gui
