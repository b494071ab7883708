in vec4 v_colour;
in vec2 v_local;
in vec2 v_size;
flat in uint v_style;

uniform float u_stripe;   // stripe period in pixels
uniform float u_outline;  // outline width in display units

out vec4 o_colour;

void main() {
  vec4 c = v_colour;
  if (v_style == 1u) {
    // Diagonal stripes, fixed to the screen so neighbouring cells line up: half the period in
    // the colour, half in a darker shade of it.
    float t = mod(gl_FragCoord.x + gl_FragCoord.y, u_stripe);
    if (t < 0.5 * u_stripe) c.rgb *= 0.62;
  } else if (v_style == 2u) {
    vec2 inner = min(v_local, v_size - v_local);
    if (min(inner.x, inner.y) > u_outline) discard;
  }
  o_colour = c;
}
