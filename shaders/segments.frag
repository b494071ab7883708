in vec4 v_colour;
in float v_across;
in float v_half;

out vec4 o_colour;

void main() {
  // Distance to the edge of the true line, in display units: full colour inside, fading to
  // nothing over the extra pixel added in the vertex shader.
  float edge = (1.0 - abs(v_across)) * v_half;
  o_colour = vec4(v_colour.rgb, v_colour.a * clamp(edge, 0.0, 1.0));
}
