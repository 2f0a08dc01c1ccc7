// layer.vert — one triangle that covers the whole viewport, made of gl_VertexID (no vertex buffer).
#version 450 core

void main() {
  vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
