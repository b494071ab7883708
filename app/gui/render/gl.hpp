#pragma once
// The GL entry points: OpenGL 3.3 core on the desktop, OpenGL ES 3.0 (WebGL 2) in the browser
// edition (app/web). The app uses only what both have, so one renderer and one set of GLSL
// sources (shaders/) serve both; the few lines below are all that differs, chosen when compiling.
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
// Linux's libGL (GLVND) exports every core function, so the prototypes from glext.h are all a
// loader would give us here.
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#endif

#include <string>
#include <string_view>

namespace banklab::gui {

#ifdef __EMSCRIPTEN__
// GLSL ES 3.00 has no default precision for floats and unsigned samplers in fragment shaders;
// highp everywhere keeps the results the desktop's (pixel positions, bank numbers).
inline constexpr std::string_view kGlslVersion = "#version 300 es";
inline constexpr std::string_view kGlslPrelude =
    "#version 300 es\n"
    "precision highp float;\nprecision highp int;\nprecision highp usampler2D;\n#line 1\n";
#else
inline constexpr std::string_view kGlslVersion = "#version 330 core";
inline constexpr std::string_view kGlslPrelude = "#version 330 core\n#line 1\n";
#endif

// "GL_INVALID_OPERATION (0x502)", or "" for GL_NO_ERROR. Drains every pending error.
std::string gl_errors();

}  // namespace banklab::gui
