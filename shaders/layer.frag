// layer.frag — the overlay layer's texel under each framebuffer pixel (same size, same rows: the
// layer was drawn into a framebuffer exactly like the one it is blended over), premultiplied.
#version 450 core

uniform sampler2D u_layer;

out vec4 frag_colour;

void main() { frag_colour = texelFetch(u_layer, ivec2(gl_FragCoord.xy), 0); }
