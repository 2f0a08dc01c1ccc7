// headless.cpp — EGL context creation (NVIDIA device platform matched to the CUDA device, or
// Mesa surfaceless) and the offscreen framebuffer.
#include "render/headless.hpp"

#include <dlfcn.h>
#include <glad/egl.h>

#include <string>
#include <vector>

#include "core/error.hpp"

namespace ls::render {
namespace {

// glad's EGL loader needs eglGetProcAddress first; it comes from libEGL itself (GLVND or Mesa).
using GetProcAddress = void* (*)(const char*);

struct EglLibrary {
  void* handle = nullptr;
  GetProcAddress get_proc = nullptr;
};

EglLibrary& egl_library() {
  static EglLibrary lib = [] {
    EglLibrary l;
    l.handle = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!l.handle) l.handle = dlopen("libEGL.so", RTLD_NOW | RTLD_GLOBAL);
    if (l.handle) l.get_proc = reinterpret_cast<GetProcAddress>(dlsym(l.handle, "eglGetProcAddress"));
    return l;
  }();
  return lib;
}

GLADapiproc load_egl(const char* name) {
  EglLibrary& lib = egl_library();
  // Core entry points by symbol; extensions (and GL) only through eglGetProcAddress.
  if (void* sym = dlsym(lib.handle, name)) return reinterpret_cast<GLADapiproc>(sym);
  return reinterpret_cast<GLADapiproc>(lib.get_proc(name));
}

GLADapiproc load_gl(const char* name) { return reinterpret_cast<GLADapiproc>(egl_library().get_proc(name)); }

std::string egl_error_text() {
  const EGLint e = eglGetError();
  char buf[32];
  std::snprintf(buf, sizeof buf, "EGL error 0x%04x", static_cast<unsigned>(e));
  return buf;
}

bool has_extension(const char* list, const std::string& name) {
  if (!list) return false;
  const std::string all = std::string(" ") + list + " ";
  return all.find(" " + name + " ") != std::string::npos;
}

/// The EGL devices (GLVND lists only EGL_EXT_device_base for some: asked whenever the entry point
/// exists), and in `note` their count and the EGL error, for the error messages.
std::vector<EGLDeviceEXT> egl_devices(std::string& note) {
  auto query_devices =
      reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(egl_library().get_proc("eglQueryDevicesEXT"));
  std::vector<EGLDeviceEXT> devices;
  note = "eglQueryDevicesEXT missing";
  if (!query_devices) return devices;
  EGLint n = 0;
  if (query_devices(0, nullptr, &n) && n > 0) {
    devices.resize(static_cast<std::size_t>(n));
    if (!query_devices(n, devices.data(), &n)) n = 0;
    devices.resize(static_cast<std::size_t>(n));
  }
  note = std::to_string(devices.size()) + " EGL devices, " + egl_error_text();
  return devices;
}

/// The display HeadlessContext documents, and in `description` which one it is. Throws when
/// `cuda_device` >= 0 and no EGL device is that CUDA device.
EGLDisplay choose_display(int cuda_device, std::string& description) {
  EglLibrary& lib = egl_library();
  const char* client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(lib.get_proc("eglGetPlatformDisplayEXT"));
  auto query_device_attrib =
      reinterpret_cast<PFNEGLQUERYDEVICEATTRIBEXTPROC>(lib.get_proc("eglQueryDeviceAttribEXT"));
  std::string device_note;
  const std::vector<EGLDeviceEXT> devices = egl_devices(device_note);
  EGLDisplay display = EGL_NO_DISPLAY;
  if (cuda_device >= 0 && get_platform_display && query_device_attrib) {
    for (std::size_t i = 0; i < devices.size() && display == EGL_NO_DISPLAY; ++i) {
      EGLAttrib value = -1;
      if (query_device_attrib(devices[i], EGL_CUDA_DEVICE_NV, &value) && value == cuda_device) {
        display = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        description =
            "EGL device " + std::to_string(i) + " (CUDA device " + std::to_string(cuda_device) + ")";
      }
    }
    if (display == EGL_NO_DISPLAY)
      throw DeviceError("headless: no EGL device is CUDA device " + std::to_string(cuda_device) + " (" +
                        device_note + "; client extensions: " + (client_ext ? client_ext : "none") +
                        "; is the NVIDIA EGL driver installed?)");
  }
  if (display == EGL_NO_DISPLAY && get_platform_display &&
      has_extension(client_ext, "EGL_MESA_platform_surfaceless")) {
    display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    description = "EGL surfaceless platform";
  }
  if (display == EGL_NO_DISPLAY && get_platform_display && !devices.empty()) {
    display = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[0], nullptr);
    description = "EGL device 0";
  }
  if (display == EGL_NO_DISPLAY) {
    display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    description = "EGL default display";
  }
  if (display == EGL_NO_DISPLAY) throw DeviceError("headless: no EGL display (" + egl_error_text() + ")");
  return display;
}

/// Initializes `display` and loads EGL 1.5 and the display's extensions for it; terminates it when
/// that fails.
void initialize_display(EGLDisplay display, const std::string& description) {
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor))
    throw DeviceError("headless: eglInitialize failed on the " + description + " (" + egl_error_text() + ")");
  if (gladLoadEGL(display, load_egl) == 0) {
    eglTerminate(display);
    throw DeviceError("headless: cannot load EGL " + std::to_string(major) + "." + std::to_string(minor));
  }
}

/// An RGB8 config for desktop OpenGL, with pbuffers unless contexts can be surfaceless.
EGLConfig choose_config(EGLDisplay display, bool surfaceless) {
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                   surfaceless ? 0 : EGL_PBUFFER_BIT,
                                   EGL_RENDERABLE_TYPE,
                                   EGL_OPENGL_BIT,
                                   EGL_RED_SIZE,
                                   8,
                                   EGL_GREEN_SIZE,
                                   8,
                                   EGL_BLUE_SIZE,
                                   8,
                                   EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &configs) || configs < 1)
    throw DeviceError("headless: no EGL config for desktop OpenGL (" + egl_error_text() + ")");
  return config;
}

EGLContext create_core_context(EGLDisplay display, EGLConfig config) {
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                    4,
                                    EGL_CONTEXT_MINOR_VERSION,
                                    5,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                    EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                    EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  if (context == EGL_NO_CONTEXT)
    throw DeviceError("headless: cannot create an OpenGL 4.5 core context (" + egl_error_text() + ")");
  return context;
}

EGLSurface create_pbuffer(EGLDisplay display, EGLConfig config) {
  const EGLint pbuffer_attribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, pbuffer_attribs);
  if (surface == EGL_NO_SURFACE)
    throw DeviceError("headless: cannot create a pbuffer (" + egl_error_text() + ")");
  return surface;
}

}  // namespace

HeadlessContext::HeadlessContext(int cuda_device) {
  EglLibrary& lib = egl_library();
  if (!lib.handle || !lib.get_proc) throw DeviceError("headless: cannot load libEGL.so.1 (install libegl1)");
  if (gladLoadEGL(EGL_NO_DISPLAY, load_egl) == 0) throw DeviceError("headless: cannot load EGL entry points");
  EGLDisplay display = choose_display(cuda_device, description_);
  initialize_display(display, description_);
  display_ = display;
  const bool surfaceless =
      has_extension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context");
  try {
    if (!eglBindAPI(EGL_OPENGL_API))
      throw DeviceError("headless: eglBindAPI(EGL_OPENGL_API) failed (" + egl_error_text() + ")");
    const EGLConfig config = choose_config(display, surfaceless);
    context_ = create_core_context(display, config);
    if (!surfaceless) surface_ = create_pbuffer(display, config);
    const auto surface = static_cast<EGLSurface>(surface_);
    if (!eglMakeCurrent(display, surface, surface, static_cast<EGLContext>(context_)))
      throw DeviceError("headless: eglMakeCurrent failed (" + egl_error_text() + ")");
    if (gladLoadGL(load_gl) == 0)
      throw DeviceError("headless: GLAD could not load OpenGL 4.5 core functions");
    // No window: nothing to wait for.
    eglSwapInterval(display, 0);
  } catch (...) {
    if (context_) eglDestroyContext(display, static_cast<EGLContext>(context_));
    if (surface_) eglDestroySurface(display, static_cast<EGLSurface>(surface_));
    eglTerminate(display);
    throw;
  }
}

HeadlessContext::~HeadlessContext() {
  auto display = static_cast<EGLDisplay>(display_);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_) eglDestroyContext(display, static_cast<EGLContext>(context_));
  if (surface_) eglDestroySurface(display, static_cast<EGLSurface>(surface_));
  eglTerminate(display);
  eglReleaseThread();
}

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
  GLuint id = 0;
  glCreateRenderbuffers(1, &id);
  colour_ = GlRenderbuffer(id);
  glNamedRenderbufferStorage(id, GL_RGBA8, width, height);
  glCreateFramebuffers(1, &id);
  framebuffer_ = GlFramebuffer(id);
  glNamedFramebufferRenderbuffer(id, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_.get());
  const GLenum status = glCheckNamedFramebufferStatus(id, GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw DeviceError("headless: offscreen framebuffer " + std::to_string(width) + "x" +
                      std::to_string(height) + " is incomplete (status 0x" + std::to_string(status) + ")");
  check_gl("creating the offscreen framebuffer");
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get()); }

}  // namespace ls::render
