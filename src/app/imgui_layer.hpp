// imgui_layer.hpp — Dear ImGui's lifetime in the app: the context, the GLFW backend (a window) or a
// headless display, the OpenGL3 backend and the fonts, each Init paired with its Shutdown and torn
// down in reverse order; the per-frame NewFrame, window or not.
#pragma once

#include <chrono>
#include <string>

struct ImDrawData;

namespace ls::render {
class Window;
}

namespace ls::app {

class ImGuiLayer {
 public:
  /// Starts Dear ImGui on `window` (its GLFW backend, which chains to callbacks already installed;
  /// imgui.ini in the user's config directory) or, with no window, headless at `width` x `height`
  /// (no imgui.ini: headless runs are reproducible); then the OpenGL3 backend and the fonts at the
  /// monitor's content scale. DeviceError when a backend fails to start (what started is shut down).
  ImGuiLayer(render::Window* window, int width, int height);
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;
  ~ImGuiLayer() = default;  // the members shut down in reverse order of their Init

  /// The fonts' and the panel's scale (the monitor's content scale; 1 headless).
  float scale() const { return scale_; }

  /// Starts an ImGui frame. `display_width/height`: the display size where no window can be asked
  /// (headless, or a window another client destroyed during the backend's queries).
  void new_frame(int display_width, int display_height);

  /// Draws `draw_data` with the OpenGL3 backend into the bound framebuffer.
  static void render(ImDrawData* draw_data);

 private:
  /// Calls the Shutdown paired with an Init that succeeded, once, when destroyed.
  class Shutdown {
   public:
    Shutdown() = default;
    Shutdown(const Shutdown&) = delete;
    Shutdown& operator=(const Shutdown&) = delete;
    ~Shutdown() {
      if (fn_) fn_();
    }
    void arm(void (*fn)()) { fn_ = fn; }

   private:
    void (*fn_)() = nullptr;
  };

  render::Window* window_;
  std::string ini_path_;  // ImGui writes it when the context is destroyed: declared before it
  Shutdown context_;
  Shutdown glfw_backend_;
  Shutdown gl_backend_;
  float scale_ = 1.f;
  std::chrono::steady_clock::time_point last_frame_ = std::chrono::steady_clock::now();
};

}  // namespace ls::app
