// tile.vert — one tile's quad from four vertices made of gl_VertexID (no vertex buffer).
// u_rect is the quad in normalised device coordinates: (left, bottom, right, top).
#version 450 core

uniform vec4 u_rect;

void main() {
  // Triangle strip order: bottom-left, bottom-right, top-left, top-right.
  vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);
  gl_Position = vec4(mix(u_rect.xy, u_rect.zw, corner), 0.0, 1.0);
}
