// headless.hpp — a GL 4.5 core context without a display (EGL) and the offscreen framebuffer the
// headless app renders into.
#pragma once

#include <string>

#include "core/non_copyable.hpp"
#include "render/gl.hpp"

namespace ls::render {

/// Owns an EGL display + context made current on this thread (no window, no X). With
/// `cuda_device` >= 0 it uses the EGL device that is that CUDA device (EGL_CUDA_DEVICE_NV);
/// otherwise Mesa's surfaceless platform, then the first EGL device, then the default display.
class HeadlessContext : NonCopyable {
 public:
  explicit HeadlessContext(int cuda_device);
  ~HeadlessContext();

  /// Which EGL platform and device it runs on, e.g. "EGL device 0 (CUDA device 0)".
  const std::string& description() const { return description_; }

 private:
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  void* surface_ = nullptr;  // EGLSurface (a 1x1 pbuffer when surfaceless contexts are missing)
  std::string description_;
};

/// An RGBA8 framebuffer object of a fixed size (the headless app's "window").
class OffscreenTarget {
 public:
  OffscreenTarget(int width, int height);
  void bind() const;
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  int width_;
  int height_;
  GlRenderbuffer colour_;
  GlFramebuffer framebuffer_;
};

}  // namespace ls::render
