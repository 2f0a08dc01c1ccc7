// gl_sync.hpp — a move-only owner of a GL fence (GLsync), the frame loop's pacing: a fence after a
// frame's drawing, waited on before a later frame starts, or polled. GL only.
#pragma once

#include <cstdint>

#include "render/gl.hpp"

namespace ls::render {

/// Owns one fence object; a moved-from or waited-on GlSync is empty. The GL context that made the
/// fence must be current when it is waited on or destroyed.
class GlSync {
 public:
  GlSync() = default;
  /// A fence after every GL command issued so far.
  static GlSync fence() { return GlSync(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0)); }

  explicit operator bool() const { return static_cast<bool>(sync_); }

  /// Waits up to `timeout_ns` for the commands before the fence to finish (flushing them first, so
  /// the wait can end), then deletes the fence. Nothing to do when empty.
  void wait_and_reset(std::uint64_t timeout_ns) {
    if (!sync_) return;
    glClientWaitSync(sync_.get(), GL_SYNC_FLUSH_COMMANDS_BIT, timeout_ns);
    reset();
  }

  /// Whether the commands before the fence are done, without waiting (true when empty). A failed
  /// query counts as done: its GL error is left for the caller's check_gl.
  bool signalled() const { return !sync_ || glClientWaitSync(sync_.get(), 0, 0) != GL_TIMEOUT_EXPIRED; }

  void reset() noexcept { sync_.reset(); }

 private:
  struct Traits {
    static void destroy(GLsync sync) { glDeleteSync(sync); }
  };
  explicit GlSync(GLsync sync) : sync_(sync) {}
  UniqueHandle<GLsync, Traits> sync_;
};

}  // namespace ls::render
