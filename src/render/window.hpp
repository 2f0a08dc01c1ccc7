// window.hpp — the GLFW window and its OpenGL 4.5 core context (GL loaded through GLAD).
#pragma once

#include <string>

struct GLFWwindow;

namespace ls::render {

struct WindowSize {
  int width = 0;
  int height = 0;
  friend bool operator==(const WindowSize& a, const WindowSize& b) {
    return a.width == b.width && a.height == b.height;
  }
};

/// `wanted` if it fits in max_width x max_height, else the largest size of its aspect that does
/// (each side at least 1). A limit of 0 or less: no limit.
WindowSize fit_window_size(WindowSize wanted, int max_width, int max_height);

/// Owns GLFW (init/terminate) and one window with a current GL 4.5 core context.
class Window {
 public:
  /// Opens a width x height window, or a smaller one of the same aspect when that, with the window
  /// manager's frame, would not fit in the primary monitor's work area (the screen less panels and
  /// docks); a shrunk window is centred in the work area. Throws DeviceError when there is no
  /// display ("no display: ..."), or the window or a GL 4.5 core context cannot be made.
  Window(int width, int height, const std::string& title, bool vsync);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool should_close() const;
  /// Whether another client destroyed the window (the app then quits as if closed).
  bool lost() const;
  void request_close();
  /// Takes back a close the person asked for (the app asks first when there is unsaved work).
  void cancel_close();
  void poll_events();
  void swap_buffers();
  void set_vsync(bool on);
  bool vsync() const { return vsync_; }
  /// The framebuffer's size in pixels; 0x0 when minimised to nothing or when the window is gone
  /// (GLFW's X11 query leaves its result unset when the request fails).
  void framebuffer_size(int& width, int& height) const;
  /// Whether nothing can be drawn now: minimised, zero-size, or destroyed by another client.
  bool nothing_to_draw() const;
  /// Framebuffer pixels per window coordinate (1 on most X11 setups, 2 on HiDPI macOS-like setups).
  void framebuffer_scale(float& sx, float& sy) const;
  /// The monitor's content scale (HiDPI: fonts and sizes follow it).
  float content_scale() const;

  /// Whether a display can be opened at all (GLFW initialises); when not, `why` says why.
  static bool display_available(std::string* why);

 private:
  GLFWwindow* window_ = nullptr;
  bool vsync_ = true;
};

}  // namespace ls::render
