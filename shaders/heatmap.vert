// One rectangle covering the tile; the fragment shader looks up the slot under each pixel.
uniform vec4 u_rect;  // min.x, min.y, max.x, max.y in display coordinates
uniform vec2 u_display_pos;
uniform vec2 u_display_size;

out vec2 v_uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  vec2 p = mix(u_rect.xy, u_rect.zw, corner);
  vec2 ndc = (p - u_display_pos) / u_display_size * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
  v_uv = corner;
}
