// window.cpp — GLFW window + GL 4.5 core context, loaded by GLAD.
#include "render/window.hpp"

#include <glad/gl.h>
// GLFW after GLAD: GLAD provides the GL declarations.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "render/x11_errors.hpp"

namespace ls::render {
namespace {

std::string g_last_glfw_error;  // GLFW reports errors through a C callback

void on_glfw_error(int code, const char* description) {
  g_last_glfw_error =
      std::string(description ? description : "unknown") + " (GLFW error " + std::to_string(code) + ")";
}

bool init_glfw() {
  glfwSetErrorCallback(on_glfw_error);
  return glfwInit() == GLFW_TRUE;
}

// Shrinks a new (still hidden) window to fit the primary monitor's work area with its frame, and
// centres it there when it had to shrink; a window that fits is left where the window manager puts it.
void fit_to_work_area(GLFWwindow* window) {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (!monitor) return;  // no monitor known (some remote displays): nothing to fit
  int area_x = 0, area_y = 0, area_w = 0, area_h = 0;
  glfwGetMonitorWorkarea(monitor, &area_x, &area_y, &area_w, &area_h);
  // The frame's sides are known once a window exists and only with a window manager that says
  // (_NET_FRAME_EXTENTS); without one they stay 0.
  int left = 0, top = 0, right = 0, bottom = 0;
  glfwGetWindowFrameSize(window, &left, &top, &right, &bottom);
  const int room_w = area_w - left - right;
  const int room_h = area_h - top - bottom;
  WindowSize size;
  glfwGetWindowSize(window, &size.width, &size.height);
  const WindowSize fitted = fit_window_size(size, room_w, room_h);
  if (fitted == size || room_w <= 0 || room_h <= 0) return;
  glfwSetWindowSize(window, fitted.width, fitted.height);
  glfwSetWindowPos(window, area_x + left + (room_w - fitted.width) / 2,
                   area_y + top + (room_h - fitted.height) / 2);
}

}  // namespace

WindowSize fit_window_size(WindowSize wanted, int max_width, int max_height) {
  if (max_width <= 0 || max_height <= 0 || wanted.width <= 0 || wanted.height <= 0) return wanted;
  if (wanted.width <= max_width && wanted.height <= max_height) return wanted;
  const long long w = wanted.width, h = wanted.height;
  // Integer arithmetic: 1600x900 into 1280x720 is exactly 1280x720 (a double scale can round it to 1279).
  if (w * max_height >= h * max_width)  // the width is what limits
    return {max_width, static_cast<int>(std::max(1LL, h * max_width / w))};
  return {static_cast<int>(std::max(1LL, w * max_height / h)), max_height};
}

bool Window::display_available(std::string* why) {
  if (!init_glfw()) {
    if (why) *why = g_last_glfw_error;
    return false;
  }
  glfwTerminate();
  return true;
}

Window::Window(int width, int height, const std::string& title, bool vsync) : vsync_(vsync) {
  if (!init_glfw()) throw DeviceError("no display: " + g_last_glfw_error + "; run with --headless");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  // Hidden until it fits the screen: nothing shows at the size asked for and then jumps.
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!window_) {
    const std::string why = g_last_glfw_error;
    glfwTerminate();
    throw DeviceError("cannot open a window with an OpenGL 4.5 core context: " + why);
  }
  glfwMakeContextCurrent(window_);
  if (gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)) == 0) {
    glfwDestroyWindow(window_);
    glfwTerminate();
    throw DeviceError("GLAD could not load OpenGL 4.5 core functions");
  }
  glfwSwapInterval(vsync ? 1 : 0);
  fit_to_work_area(window_);
  glfwShowWindow(window_);
  x11::watch_window(window_);
}

Window::~Window() {
  x11::reinstall_handler();
  // A window another client destroyed is left alone: tearing down its GL drawable makes Mesa's
  // X11 software path touch what is gone (it crashed now and then under load). The process is
  // ending; closing the connection at exit releases the rest.
  if (x11::window_lost()) return;
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
  x11::watch_window(nullptr);
}

// A window another client destroyed closes the app as a close request would.
bool Window::should_close() const {
  return glfwWindowShouldClose(window_) == GLFW_TRUE || x11::window_lost();
}
bool Window::lost() const { return x11::window_lost(); }
void Window::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void Window::cancel_close() { glfwSetWindowShouldClose(window_, GLFW_FALSE); }
void Window::poll_events() {
  x11::reinstall_handler();
  glfwPollEvents();
}
void Window::swap_buffers() {
  x11::reinstall_handler();
  glfwSwapBuffers(window_);
}

void Window::set_vsync(bool on) {
  vsync_ = on;
  glfwSwapInterval(on ? 1 : 0);
}

void Window::framebuffer_size(int& width, int& height) const {
  width = 0;
  height = 0;
  if (x11::window_lost()) return;
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  // The query is a round trip: a window destroyed meanwhile has set window_lost() by its return,
  // and w, h are then whatever GLFW's unfilled reply held.
  if (x11::window_lost() || w <= 0 || h <= 0) return;
  width = w;
  height = h;
}

bool Window::nothing_to_draw() const {
  if (x11::window_lost() || glfwGetWindowAttrib(window_, GLFW_ICONIFIED) == GLFW_TRUE) return true;
  int w = 0, h = 0;
  framebuffer_size(w, h);
  return w <= 0 || h <= 0;
}

void Window::framebuffer_scale(float& sx, float& sy) const {
  int ww = 0, wh = 0, fw = 0, fh = 0;
  glfwGetWindowSize(window_, &ww, &wh);
  framebuffer_size(fw, fh);
  if (x11::window_lost()) ww = wh = 0;
  sx = ww > 0 ? static_cast<float>(fw) / ww : 1.f;
  sy = wh > 0 ? static_cast<float>(fh) / wh : 1.f;
}

float Window::content_scale() const {
  float sx = 1, sy = 1;
  glfwGetWindowContentScale(window_, &sx, &sy);
  return sx > 0 ? sx : 1.f;
}

}  // namespace ls::render
