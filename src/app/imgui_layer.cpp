// imgui_layer.cpp — implements imgui_layer.hpp.
#include "app/imgui_layer.hpp"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "app/app_settings.hpp"
#include "core/error.hpp"
#include "render/paths.hpp"
#include "render/window.hpp"
#include "ui/panel.hpp"

namespace ls::app {
ImGuiLayer::ImGuiLayer(render::Window* window, int width, int height) : window_(window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  context_.arm([] { ImGui::DestroyContext(); });
  ImGuiIO& io = ImGui::GetIO();
  if (window_) {
    // imgui.ini lives in the user's config directory, not the working directory.
    const std::string dir = config_dir();
    std::error_code ec;
    if (!dir.empty() &&
        (std::filesystem::create_directories(dir, ec), std::filesystem::is_directory(dir, ec))) {
      ini_path_ = dir + "/imgui.ini";
      io.IniFilename = ini_path_.c_str();
    } else {
      io.IniFilename = nullptr;
    }
    // Installs ImGui's callbacks, which chain to the app's installed before.
    if (!ImGui_ImplGlfw_InitForOpenGL(window_->handle(), true))
      throw DeviceError("Dear ImGui's GLFW backend failed to start");
    glfw_backend_.arm(ImGui_ImplGlfw_Shutdown);
  } else {
    // Headless runs are reproducible: no saved window positions.
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DisplayFramebufferScale = ImVec2(1, 1);
  }
  if (!ImGui_ImplOpenGL3_Init("#version 450"))
    throw DeviceError("Dear ImGui's OpenGL3 backend failed to start (it loads GL from libGL.so.1)");
  gl_backend_.arm(ImGui_ImplOpenGL3_Shutdown);
  scale_ = window_ ? window_->content_scale() : 1.f;
  std::string assets;
  try {
    assets = render::find_data_dir("assets");
  } catch (const DeviceError&) {
    // No bundled font: ImGui's built-in one (load_fonts falls back by itself).
  }
  ui::load_fonts(assets, scale_);
}

void ImGuiLayer::new_frame(int display_width, int display_height) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  if (window_) {
    ImGui_ImplGlfw_NewFrame();
    if (window_->lost()) {
      // Destroyed by another client during the backend's queries: GLFW's X11 answers were left
      // unset (a negative size trips ImGui's assertion). This frame keeps the last good size;
      // the loop quits after it.
      io.DisplaySize = ImVec2(static_cast<float>(std::max(display_width, 0)),
                              static_cast<float>(std::max(display_height, 0)));
      io.DisplayFramebufferScale = ImVec2(1.f, 1.f);
      io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    }
  } else {
    io.DisplaySize = ImVec2(static_cast<float>(display_width), static_cast<float>(display_height));
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_frame_).count();
    io.DeltaTime = static_cast<float>(std::max(dt, 1e-4));
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  }
  last_frame_ = std::chrono::steady_clock::now();
  ImGui::NewFrame();
}

void ImGuiLayer::render(ImDrawData* draw_data) { ImGui_ImplOpenGL3_RenderDrawData(draw_data); }

}  // namespace ls::app
