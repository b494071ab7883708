#include "app/gui/render/gl_program.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "app/gui/render/embedded_shaders.hpp"

namespace banklab::gui {
namespace {

// The info log of a shader or a program (the same calls, named differently), without the
// trailing NUL and newlines.
template <class GetIv, class GetLog>
std::string info_log(GLuint object, GetIv get_iv, GetLog get_log) {
  GLint length = 0;
  get_iv(object, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
  if (length > 0) get_log(object, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log.empty() ? "(the driver gave no log)" : log;
}

std::string shader_log(GLuint shader) {
  return info_log(shader, glGetShaderiv, glGetShaderInfoLog);
}

std::string program_log(GLuint program) {
  return info_log(program, glGetProgramiv, glGetProgramInfoLog);
}

const EmbeddedShader* find_shader(std::string_view name) {
  for (const EmbeddedShader& s : embedded_shaders()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace

std::string gl_errors() {
  std::string out;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
    const char* name = "unknown GL error";
    switch (e) {
      case GL_INVALID_ENUM:
        name = "GL_INVALID_ENUM";
        break;
      case GL_INVALID_VALUE:
        name = "GL_INVALID_VALUE";
        break;
      case GL_INVALID_OPERATION:
        name = "GL_INVALID_OPERATION";
        break;
      case GL_INVALID_FRAMEBUFFER_OPERATION:
        name = "GL_INVALID_FRAMEBUFFER_OPERATION";
        break;
      case GL_OUT_OF_MEMORY:
        name = "GL_OUT_OF_MEMORY";
        break;
      default:
        break;
    }
    char code[16];
    std::snprintf(code, sizeof code, "0x%X", e);
    out += (out.empty() ? "" : ", ") + std::string(name) + " (" + code + ")";
  }
  return out;
}

Expected<GLuint> compile_shader(GLenum stage, std::string_view name, std::string_view source) {
  GLuint shader = glCreateShader(stage);
  const char* text = source.data();
  GLint length = static_cast<GLint>(source.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    std::string message = std::string(name) + ": compile failed:\n" + shader_log(shader);
    glDeleteShader(shader);
    return Error{message};
  }
  return shader;
}

Expected<GLuint> build_program(std::string_view vertex_name, std::string_view fragment_name) {
  const EmbeddedShader* vs_source = find_shader(vertex_name);
  const EmbeddedShader* fs_source = find_shader(fragment_name);
  if (!vs_source || !fs_source) {
    return Error{"no embedded shader named " +
                 std::string(vs_source ? fragment_name : vertex_name)};
  }
  // The sources carry no #version line: this build's GL version comes first (gl.hpp).
  const auto with_prelude = [](std::string_view source) {
    return std::string(kGlslPrelude) + std::string(source);
  };
  Expected<GLuint> vs =
      compile_shader(GL_VERTEX_SHADER, vertex_name, with_prelude(vs_source->source));
  if (!vs) return vs;
  Expected<GLuint> fs =
      compile_shader(GL_FRAGMENT_SHADER, fragment_name, with_prelude(fs_source->source));
  if (!fs) {
    glDeleteShader(*vs);
    return fs;
  }
  GLuint program = glCreateProgram();
  glAttachShader(program, *vs);
  glAttachShader(program, *fs);
  glLinkProgram(program);
  glDetachShader(program, *vs);
  glDetachShader(program, *fs);
  glDeleteShader(*vs);
  glDeleteShader(*fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    std::string message = std::string(vertex_name) + " + " + std::string(fragment_name) +
                          ": link failed:\n" + program_log(program);
    glDeleteProgram(program);
    return Error{message};
  }
  return program;
}

}  // namespace banklab::gui
