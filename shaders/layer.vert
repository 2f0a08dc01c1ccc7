// layer.vert — one quad per region of the overlay layer, from gl_VertexID and gl_InstanceID (no
// vertex buffer). Regions are in framebuffer pixels, y from the top: (x, y, w, h).
#version 450 core

layout(std430, binding = 0) readonly buffer Regions { ivec4 regions[]; };
uniform ivec2 u_size;

void main() {
  ivec4 r = regions[gl_InstanceID];
  // Triangle strip order: top-left, top-right, bottom-left, bottom-right (y down).
  vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);
  vec2 p = vec2(r.xy) + corner * vec2(r.zw);
  gl_Position = vec4(2.0 * p.x / float(u_size.x) - 1.0, 1.0 - 2.0 * p.y / float(u_size.y), 0.0, 1.0);
}
