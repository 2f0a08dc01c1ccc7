// layer.cpp — the cached overlay layer: its texture and framebuffer, and the premultiplied blend
// that puts it over the frame.
#include "render/layer.hpp"

#include "core/error.hpp"
#include "render/shader.hpp"

namespace ls::render {
using view::Rect;

OverlayLayer::OverlayLayer(const std::string& shader_dir) {
  program_ = load_program(shader_dir, "layer.vert", "layer.frag");
  glProgramUniform1i(program_.get(), glGetUniformLocation(program_.get(), "u_layer"), 0);
  size_location_ = glGetUniformLocation(program_.get(), "u_size");
  GLuint buffer = 0;
  glCreateBuffers(1, &buffer);
  regions_ = GlBuffer(buffer);
  GLuint vao = 0;
  glCreateVertexArrays(1, &vao);
  vao_ = GlVertexArray(vao);
  check_gl("creating the overlay layer program");
}

void OverlayLayer::begin(int width, int height) {
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_framebuffer_);
  if (!texture_ || width != width_ || height != height_) {
    framebuffer_.reset();
    texture_ = make_rgba8_texture(width, height);
    GLuint id = 0;
    glCreateFramebuffers(1, &id);
    framebuffer_ = GlFramebuffer(id);
    glNamedFramebufferTexture(id, GL_COLOR_ATTACHMENT0, texture_.get(), 0);
    const GLenum status = glCheckNamedFramebufferStatus(id, GL_DRAW_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
      throw DeviceError("overlay layer " + std::to_string(width) + "x" + std::to_string(height) +
                        " framebuffer is incomplete (status " + std::to_string(status) + ")");
    width_ = width;
    height_ = height;
  }
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer_.get());
  glViewport(0, 0, width_, height_);
  glDisable(GL_SCISSOR_TEST);
  const GLfloat transparent[4] = {0, 0, 0, 0};
  glClearNamedFramebufferfv(framebuffer_.get(), GL_COLOR, 0, transparent);
}

void OverlayLayer::end() {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previous_framebuffer_));
  check_gl("drawing the overlay layer");
}

void OverlayLayer::set_regions(const std::vector<Rect>& regions) {
  std::vector<GLint> packed;
  packed.reserve(regions.size() * 4);
  for (const Rect& r : regions) packed.insert(packed.end(), {r.x, r.y, r.w, r.h});
  region_count_ = static_cast<GLsizei>(regions.size());
  if (!packed.empty())
    glNamedBufferData(regions_.get(), static_cast<GLsizeiptr>(packed.size() * sizeof(GLint)), packed.data(),
                      GL_DYNAMIC_DRAW);
}

void OverlayLayer::composite(int fb_width, int fb_height) const {
  if (!texture_ || fb_width != width_ || fb_height != height_ || region_count_ == 0) return;
  glViewport(0, 0, fb_width, fb_height);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glUseProgram(program_.get());
  glUniform2i(size_location_, fb_width, fb_height);
  glBindVertexArray(vao_.get());
  glBindTextureUnit(0, texture_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, regions_.get());
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, region_count_);
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_BLEND);
}

}  // namespace ls::render
