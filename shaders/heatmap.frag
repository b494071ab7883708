// The tile heat map: each slot coloured by its bank, padding slots striped and grey, and a
// grid drawn between slots when they are big enough to separate.
in vec2 v_uv;

uniform usampler2D u_cells;      // bits 0-4: bank; bit 6: padding slot
uniform ivec2 u_dims;            // columns (slots per row), rows drawn (a picture's first ones)
uniform int u_first_row;         // the picture's first row: 0 logical, the tile's rows physical
uniform vec3 u_bank_colour[32];
uniform vec3 u_padding_colour;
uniform vec3 u_grid_colour;
uniform vec2 u_cell_pixels;      // one slot's size on screen
uniform float u_stripe;

out vec4 o_colour;

void main() {
  vec2 cell_f = v_uv * vec2(u_dims);
  ivec2 cell = clamp(ivec2(cell_f), ivec2(0), u_dims - 1);
  uint v = texelFetch(u_cells, cell + ivec2(0, u_first_row), 0).r;
  vec3 c = u_bank_colour[v & 31u];
  if ((v & 64u) != 0u) {
    float t = mod(gl_FragCoord.x + gl_FragCoord.y, u_stripe);
    c = t < 0.5 * u_stripe ? u_padding_colour : mix(u_padding_colour, c, 0.35);
  }
  vec2 inside = fract(cell_f) * u_cell_pixels;
  if (u_cell_pixels.x >= 6.0 && u_cell_pixels.y >= 6.0 && (inside.x < 1.0 || inside.y < 1.0)) {
    c = u_grid_colour;
  }
  o_colour = vec4(c, 1.0);
}
