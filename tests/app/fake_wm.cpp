// fake_wm.cpp — `ls_fake_wm iconify|restore|close WINDOW`: does to a window what a window manager
// does when a person minimises, restores or closes it (Xvfb has no window manager, and xdotool's
// windowminimize needs one): ICCCM's WM_STATE plus unmap/map, or a WM_DELETE_WINDOW message.
#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr long kNormalState = 1;
constexpr long kIconicState = 3;

void set_wm_state(Display* dpy, Window w, long state) {
  const Atom wm_state = XInternAtom(dpy, "WM_STATE", False);
  const long data[2] = {state, 0};  // state, icon window (None)
  XChangeProperty(dpy, w, wm_state, wm_state, 32, PropModeReplace,
                  reinterpret_cast<const unsigned char*>(data), 2);
}

void send_delete(Display* dpy, Window w) {
  XEvent e;
  std::memset(&e, 0, sizeof e);
  e.xclient.type = ClientMessage;
  e.xclient.window = w;
  e.xclient.message_type = XInternAtom(dpy, "WM_PROTOCOLS", False);
  e.xclient.format = 32;
  e.xclient.data.l[0] = static_cast<long>(XInternAtom(dpy, "WM_DELETE_WINDOW", False));
  e.xclient.data.l[1] = CurrentTime;
  XSendEvent(dpy, w, False, NoEventMask, &e);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ls_fake_wm iconify|restore|close WINDOW\n");
    return 2;
  }
  Display* dpy = XOpenDisplay(nullptr);
  if (!dpy) {
    std::fprintf(stderr, "ls_fake_wm: cannot open the display\n");
    return 1;
  }
  const Window w = static_cast<Window>(std::strtoul(argv[2], nullptr, 0));
  const char* verb = argv[1];
  if (std::strcmp(verb, "iconify") == 0) {
    set_wm_state(dpy, w, kIconicState);
    XUnmapWindow(dpy, w);
  } else if (std::strcmp(verb, "restore") == 0) {
    set_wm_state(dpy, w, kNormalState);
    XMapWindow(dpy, w);
  } else if (std::strcmp(verb, "close") == 0) {
    send_delete(dpy, w);
  } else {
    std::fprintf(stderr, "ls_fake_wm: unknown verb %s\n", verb);
    XCloseDisplay(dpy);
    return 2;
  }
  XSync(dpy, False);
  XCloseDisplay(dpy);
  return 0;
}
