// Instanced line segments drawn as quads (core-profile GL only promises 1-pixel lines): the
// four vertices sit at the two ends, pushed half the width (plus a pixel for smoothing) to
// either side.
layout(location = 0) in vec4 a_ends;    // a.x, a.y, b.x, b.y
layout(location = 1) in vec4 a_colour;
layout(location = 2) in float a_width;

uniform vec2 u_display_pos;
uniform vec2 u_display_size;

out vec4 v_colour;
out float v_across;  // -1 .. 1 across the widened quad
out float v_half;    // half the widened width, in display units

void main() {
  float along = float(gl_VertexID & 1);
  float side = float(gl_VertexID >> 1) * 2.0 - 1.0;
  vec2 a = a_ends.xy;
  vec2 b = a_ends.zw;
  vec2 d = b - a;
  float len = max(length(d), 1e-4);
  vec2 normal = vec2(-d.y, d.x) / len;
  float half_width = 0.5 * a_width + 1.0;
  vec2 p = mix(a, b, along) + normal * side * half_width;
  vec2 ndc = (p - u_display_pos) / u_display_size * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
  v_colour = a_colour;
  v_across = side;
  v_half = half_width;
}
