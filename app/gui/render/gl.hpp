#pragma once
// OpenGL 3.3 core entry points. Linux's libGL (GLVND) exports every core function, so the
// prototypes from glext.h are all a loader would give us here.
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>

#include <string>

namespace banklab::gui {

// "GL_INVALID_OPERATION (0x502)", or "" for GL_NO_ERROR. Drains every pending error.
std::string gl_errors();

}  // namespace banklab::gui
