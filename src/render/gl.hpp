// gl.hpp — the GL 4.5 core API (through GLAD) and move-only owners of GL objects: each handle type
// is distinct, so a texture cannot be passed where a buffer or program is meant.
#pragma once

#include <glad/gl.h>

#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/unique_handle.hpp"

namespace ls::render {

/// A GL call failed (check_gl): a DeviceError the app can tell from the engine's.
class GlError : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

/// Owns one GL object name; `Traits::destroy` releases it. A moved-from handle is empty (0).
/// The GL context that created the object must be current when the handle is destroyed.
template <class Traits>
using GlHandle = UniqueHandle<GLuint, Traits>;

struct TextureTraits {
  static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct BufferTraits {
  static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct VertexArrayTraits {
  static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct FramebufferTraits {
  static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct RenderbufferTraits {
  static void destroy(GLuint id) { glDeleteRenderbuffers(1, &id); }
};
struct ShaderTraits {
  static void destroy(GLuint id) { glDeleteShader(id); }
};
struct ProgramTraits {
  static void destroy(GLuint id) { glDeleteProgram(id); }
};

using GlTexture = GlHandle<TextureTraits>;
using GlBuffer = GlHandle<BufferTraits>;
using GlVertexArray = GlHandle<VertexArrayTraits>;
using GlFramebuffer = GlHandle<FramebufferTraits>;
using GlRenderbuffer = GlHandle<RenderbufferTraits>;
using GlShader = GlHandle<ShaderTraits>;
using GlProgram = GlHandle<ProgramTraits>;

/// An immutable-storage RGBA8 2D texture, nearest filtering, clamped (one level).
GlTexture make_rgba8_texture(int width, int height);

/// Throws GlError naming `where` if glGetError() reports an error (use at a few checkpoints:
/// after set-up and once per frame, not after every call).
void check_gl(const char* where);

/// "4.5 (Core Profile) Mesa 22.3.6" etc.: GL_VERSION and GL_RENDERER of the current context.
std::string gl_description();

}  // namespace ls::render
