// x11_errors.cpp — see x11_errors.hpp. Kept apart from window.cpp: Xlib's macros (None, Bool,
// Status, Success) would leak into everything else there.
#include "render/x11_errors.hpp"

#include <atomic>
#include <cstdio>

#if defined(LS_HAVE_X11)
#include <X11/Xlib.h>

// GLFW's native X11 access, declared here: its glfw3native.h also wants the XRandR headers.
extern "C" {
Display* glfwGetX11Display(void);
::Window glfwGetX11Window(GLFWwindow* window);
}
#endif

namespace ls::render::x11 {
namespace {

std::atomic<unsigned long> g_window{0};
std::atomic<bool> g_lost{false};

#if defined(LS_HAVE_X11)
int on_x_error(Display* display, XErrorEvent* e) {
  const unsigned long window = g_window.load();
  if (window != 0 && e->resourceid == window) {
    // BadWindow or BadDrawable: the window is gone; the app quits as if closed.
    g_lost = true;
    return 0;
  }
  // Once it is gone, requests on what hangs off it (GLX's drawable) fail too, until the app ends.
  if (g_lost) return 0;
  char text[128] = "";
  XGetErrorText(display, e->error_code, text, sizeof text);
  std::fprintf(stderr, "lifestreams: X error: %s (request %d.%d)\n", text, e->request_code, e->minor_code);
  return 0;
}
#endif

}  // namespace

void watch_window(GLFWwindow* window) {
#if defined(LS_HAVE_X11)
  g_window = window != nullptr && glfwGetX11Display() != nullptr ? glfwGetX11Window(window) : 0;
#else
  (void)window;
#endif
  g_lost = false;
  reinstall_handler();
}

void reinstall_handler() {
#if defined(LS_HAVE_X11)
  XSetErrorHandler(on_x_error);
#endif
}

bool window_lost() { return g_lost.load(); }

}  // namespace ls::render::x11
