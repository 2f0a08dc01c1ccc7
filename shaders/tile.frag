// tile.frag — draws the tile's texture one texel per framebuffer pixel: texel (0, 0) is the
// quad's top-left pixel (the render kernel writes row 0 as the top row).
#version 450 core

uniform sampler2D u_texture;
// The quad's left column and top row in framebuffer pixels, counted from the bottom-left as
// gl_FragCoord is: (left, top) with top = the row index of the quad's highest pixel row.
uniform ivec2 u_origin;
// Where the tile's texel (0, 0) lies in u_texture: (0, 0) for a texture of its own, the tile's
// place when the fill drew every tile into one shared texture.
uniform ivec2 u_offset;

out vec4 frag_colour;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  ivec2 texel = ivec2(p.x - u_origin.x, u_origin.y - p.y) + u_offset;
  frag_colour = vec4(texelFetch(u_texture, texel, 0).rgb, 1.0);
}
