// app_setup.cpp — the App's set-up, in the order bad input needs (exit 2 before any display): the
// options, files and script checked, the engine made, the display asked for; then the scene, the
// GL context (window or headless) with the tiles and the ImGui layer, and the panel's fixed facts.
#include <imgui.h>

#include "render/gl.hpp"
// GLFW after GLAD (render/gl.hpp): GLAD provides the GL declarations.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <utility>

#include "app/app.hpp"
#include "app/engine_factory_gui.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "render/paths.hpp"

namespace ls::app {

void App::start_counters() {
  counters_ = std::make_unique<AppCounters>(options_, *engine_);
  // The engine stamps its frames on the GPUs' clock only while counters are sampled: their lanes
  // under the timeline need it, and it costs a small kernel per timed frame.
  engine_->set_timeline_clock(counters_->sampler() != nullptr);
}

void App::setup() {
  DisplayedEngine made = check_inputs_and_make_engine();
  make_scene();
  start_counters();
  open_display(std::move(made.filler), made.cuda_device);
  fill_fixed_model();
}

DisplayedEngine App::check_inputs_and_make_engine() {
  // Every argument and file before the display: bad input is exit 2 with a display or without.
  setup_ = check_options(options_);
  check_files(options_);
  if (!options_.script.empty()) script_ = ScriptRunner::from_file(options_.script);
  // The engine refuses a backend or devices this build or machine does not have, as it would with
  // a display (it touches no display: the filler waits for the GL context).
  DisplayedEngine made =
      make_displayed_engine(options_.backend, options_.devices, options_.devices_option,
                            options_.display_device, options_.split, options_.test_slots_per_gpu);
  engine_ = std::move(made.engine);
  // 64 instances per GPU the engine runs on (under `all`, only now known).
  check_instance_count(options_.instances, engine_->max_instances());

  // Then the display: "no display" is said of good input only.
  if (!options_.headless) {
    std::string why;
    if (!render::Window::display_available(&why))
      throw DeviceError("no display (" + why + "); run with --headless to render offscreen");
  }
  return made;
}

void App::make_scene() {
  engine_->set_stream_mode(setup_.stream_mode);
  engine_->set_timing_period(options_.timing_period);
  scene_ = std::make_unique<Scene>(*engine_, setup_.scene);
  // A large start in a window is built beside the frame loop, so the window shows its progress
  // at once rather than nothing for as long as the fill takes.
  const std::uint64_t start_cells = static_cast<std::uint64_t>(options_.instances) *
                                    static_cast<std::uint64_t>(setup_.scene.width) *
                                    static_cast<std::uint64_t>(setup_.scene.height);
  const bool build_start =
      !options_.headless && options_.pattern.empty() && start_cells >= kBackgroundBuildCells;
  if (build_start) {
    // Refused now, before the window, when it cannot fit.
    if (std::optional<ScenePlan> plan = scene_->plan(cmd::Instances{options_.instances}))
      build_ = std::make_unique<SceneBuild>(*engine_, std::move(*plan));
  } else {
    scene_->populate(options_.instances, options_.pattern, /*keep_rule=*/!options_.rule.empty());
  }
  recovery_ = std::make_unique<Recovery>(
      *engine_,
      RecoverySettings{options_.snapshot_max_cells, kSnapshotIntervalSeconds, options_.test_fault_at_frame});
}

void App::open_display(std::unique_ptr<render::TileFiller> filler, int cuda_device) {
  if (options_.headless) {
    headless_ = std::make_unique<render::HeadlessContext>(cuda_device);
    offscreen_ = std::make_unique<render::OffscreenTarget>(setup_.width, setup_.height);
  } else {
    window_ =
        std::make_unique<render::Window>(setup_.width, setup_.height, "lifestreams", options_.vsync == "on");
    input_.attach(window_->handle());
  }
  renderer_ = std::make_unique<render::TileRenderer>(render::find_data_dir("shaders"), std::move(filler));
  renderer_->set_display_path(setup_.display_path);
  figures_.run().display.path = render::display_path_text(setup_.display_path, renderer_->remote_copy());
  ui_layer_ = std::make_unique<render::OverlayLayer>(render::find_data_dir("shaders"));
  imgui_ = std::make_unique<ImGuiLayer>(window_.get(), setup_.width, setup_.height);
  if (window_) input_.take_keys_from_imgui(window_->handle());
  panel_.set_scale(imgui_->scale());
  if (window_) {
    if (const std::string dir = config_dir(); !dir.empty()) settings_path_ = dir + "/" + kSettingsFileName;
    settings_ = load_settings(settings_path_);
    panel_.set_width(settings_.panel_width);
  }
}

void App::fill_fixed_model() {
  model_.windowed = window_ != nullptr;
  // vsync holds the frame rate at the display's refresh rate: the panel warns only near it.
  if (GLFWmonitor* monitor = window_ ? glfwGetPrimaryMonitor() : nullptr) {
    if (const GLFWvidmode* mode = glfwGetVideoMode(monitor); mode && mode->refreshRate > 0)
      model_.refresh_hz = mode->refreshRate;
  }
  model_.vsync = window_ ? window_->vsync() : false;
  try {
    model_.patterns_dir = render::find_data_dir("assets/patterns");
    for (const auto& entry : std::filesystem::directory_iterator(model_.patterns_dir)) {
      if (entry.is_regular_file() && is_pattern_file_name(entry.path().filename().string()))
        model_.bundled_patterns.push_back(entry.path().filename().string());
    }
    std::sort(model_.bundled_patterns.begin(), model_.bundled_patterns.end());
  } catch (const std::exception&) {
    // No bundled patterns: the list stays empty, loading by path still works.
  }
}

}  // namespace ls::app
