// x11_errors.hpp — X protocol errors on the app's window without Xlib's default handler, which
// prints and exits the process. A window destroyed by another client (not closed through the
// window manager) makes every later request on it fail: the app then quits as if closed.
#pragma once

struct GLFWwindow;

namespace ls::render::x11 {

/// Watches `window` (nullptr: none) when GLFW runs on X11, and installs the handler; a no-op
/// without X11.
void watch_window(GLFWwindow* window);
/// Installs the handler again: GLFW 3.3 resets Xlib's handler to the default after its own calls.
void reinstall_handler();
/// Whether an X request on the watched window failed because it no longer exists.
bool window_lost();

}  // namespace ls::render::x11
