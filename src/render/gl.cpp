// gl.cpp — GL helpers: texture creation, error checkpoints, context description.
#include "render/gl.hpp"

#include <cstdio>
#include <string>

#include "core/error.hpp"

namespace ls::render {

GlTexture make_rgba8_texture(int width, int height) {
  GLuint id = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &id);
  GlTexture texture(id);
  glTextureStorage2D(id, 1, GL_RGBA8, width, height);
  glTextureParameteri(id, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(id, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(id, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(id, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  check_gl("creating a tile texture");
  return texture;
}

void check_gl(const char* where) {
  const GLenum err = glGetError();
  if (err == GL_NO_ERROR) return;
  // Drain the queue so one failure is reported once.
  while (glGetError() != GL_NO_ERROR) {
  }
  const char* name = err == GL_INVALID_ENUM                    ? "GL_INVALID_ENUM"
                     : err == GL_INVALID_VALUE                 ? "GL_INVALID_VALUE"
                     : err == GL_INVALID_OPERATION             ? "GL_INVALID_OPERATION"
                     : err == GL_OUT_OF_MEMORY                 ? "GL_OUT_OF_MEMORY"
                     : err == GL_INVALID_FRAMEBUFFER_OPERATION ? "GL_INVALID_FRAMEBUFFER_OPERATION"
                                                               : "GL error";
  throw GlError(std::string("GL error ") + name + " (0x" + [&] {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04x", err);
    return std::string(buf);
  }() + ") " + where);
}

std::string gl_description() {
  auto str = [](GLenum e) {
    const auto* s = reinterpret_cast<const char*>(glGetString(e));
    return std::string(s ? s : "?");
  };
  return str(GL_VERSION) + " on " + str(GL_RENDERER);
}

}  // namespace ls::render
