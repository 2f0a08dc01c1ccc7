// layer.hpp — a cached overlay: a framebuffer-sized RGBA8 texture of premultiplied colours, drawn
// into only when its content changes and blended over each frame, only where it has content, in
// one instanced draw call. The app keeps its ImGui layer (panel, tile labels) in one, so frames in
// which the UI was not rebuilt cost one draw call instead of every ImGui draw call again.
#pragma once

#include <string>
#include <vector>

#include "render/gl.hpp"
#include "view/view.hpp"

namespace ls::render {

class OverlayLayer {
 public:
  /// Loads layer.vert / layer.frag from `shader_dir`. Needs a current GL context for its life.
  explicit OverlayLayer(const std::string& shader_dir);

  /// Binds the layer's framebuffer (made width x height on first use or when the size changes),
  /// cleared to transparent, with the viewport covering it. What is drawn until end() must leave
  /// premultiplied colour: blending rgb = src * a + dst * (1 - a), alpha = a + dst_a * (1 - a), as
  /// Dear ImGui's OpenGL3 backend does (glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA,
  /// GL_ONE, GL_ONE_MINUS_SRC_ALPHA)); over transparent that gives premultiplied pixels.
  void begin(int width, int height);
  /// Binds again the draw framebuffer that was bound at begin().
  void end();
  /// Where composite() blends: disjoint rectangles (framebuffer pixels, y from the top) that cover
  /// every pixel drawn since begin(). Overlapping ones would blend a pixel twice.
  void set_regions(const std::vector<view::Rect>& regions);
  /// Blends the layer over the bound framebuffer (fb_width x fb_height) in the regions: colour =
  /// layer + dst * (1 - layer alpha). Nothing happens before the first begin() or when the size
  /// differs.
  void composite(int fb_width, int fb_height) const;

  bool ready() const { return static_cast<bool>(texture_); }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  GlProgram program_;
  GlVertexArray vao_;
  GlTexture texture_;
  GlFramebuffer framebuffer_;
  GlBuffer regions_;
  GLsizei region_count_ = 0;
  GLint size_location_ = -1;
  int width_ = 0;
  int height_ = 0;
  GLint previous_framebuffer_ = 0;
};

}  // namespace ls::render
