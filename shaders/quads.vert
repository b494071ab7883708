// Instanced rectangles for the bank grid, lane boxes and highlights: one instance per cell,
// four vertices each (a triangle strip), positions in ImGui display coordinates.
layout(location = 0) in vec4 a_rect;    // min.x, min.y, max.x, max.y
layout(location = 1) in vec4 a_colour;  // straight alpha, 0..1
layout(location = 2) in uint a_style;   // 0 solid, 1 striped, 2 outline

uniform vec2 u_display_pos;
uniform vec2 u_display_size;

out vec4 v_colour;
out vec2 v_local;  // position inside the rectangle, in display units
out vec2 v_size;
flat out uint v_style;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  vec2 p = mix(a_rect.xy, a_rect.zw, corner);
  vec2 ndc = (p - u_display_pos) / u_display_size * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
  v_colour = a_colour;
  v_local = p - a_rect.xy;
  v_size = a_rect.zw - a_rect.xy;
  v_style = a_style;
}
