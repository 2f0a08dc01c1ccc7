// app.hpp — the desktop app: owns the engine, the scene, the GL context (window or headless), the
// tiles, the ImGui layer and the panel, and runs the frame loop; everything that changes the scene
// goes through Scene::execute.
#pragma once

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app_counters.hpp"
#include "app/app_settings.hpp"
#include "app/counter_lanes.hpp"
#include "app/imgui_layer.hpp"
#include "app/input.hpp"
#include "app/options.hpp"
#include "app/rates.hpp"
#include "app/roofline_figures.hpp"
#include "app/run_figures.hpp"
#include "control/recovery.hpp"
#include "control/scene.hpp"
#include "control/scene_build.hpp"
#include "control/script_runner.hpp"
#include "render/gl_sync.hpp"
#include "render/headless.hpp"
#include "render/layer.hpp"
#include "render/tiles.hpp"
#include "render/window.hpp"
#include "ui/pacer.hpp"
#include "ui/panel.hpp"

namespace ls {
struct DisplayedEngine;  // app/engine_factory_gui.hpp
}  // namespace ls

namespace ls::app {

/// A step that holds the window longer than this pauses the app (a windowed run without a script):
/// the window must keep answering keys.
inline constexpr double kLongStepMs = 1500;

class App {
 public:
  explicit App(const Options& options) : options_(options) {}
  /// Sets up, runs the frame loop and writes what the options ask for at the end. Returns the exit
  /// status (0, or 3 after a fatal device error, with the snapshots saved); throws InputError and
  /// DeviceError from the set-up, ScriptFailure from a script line.
  int run();

 private:
  using Clock = std::chrono::steady_clock;

  // Set-up (app_setup.cpp), in this order.
  void setup();
  /// Starts the counters (--counters, the `counters` command) and the engine's frame stamps they need.
  void start_counters();
  /// The options, files and script checked, the engine made (with the tile filler that fits it),
  /// the display asked for: InputError or DeviceError before any window.
  DisplayedEngine check_inputs_and_make_engine();
  /// The scene on the engine, its first instances (built beside the frame loop when large and
  /// windowed), and recovery.
  void make_scene();
  /// The GL context (window or headless), the tiles, the ImGui layer and the saved panel width.
  void open_display(std::unique_ptr<render::TileFiller> filler, int cuda_device);
  /// What the panel shows that does not change: windowed, refresh rate, vsync, bundled patterns.
  void fill_fixed_model();

  int loop();

  /// One frame, the steps below in order. `step`: advance the engine; `capture`: write a PNG of
  /// what was drawn. False when the window had nothing to draw on (minimised or destroyed since
  /// the loop looked): no frame, no step.
  bool frame(bool step, const std::optional<std::string>& capture);
  // The frame's steps.
  void wait_for_frame_two_back();
  bool drawable_size(int& width, int& height) const;
  bool ui_due(int fb_width, int fb_height, bool capture);
  void build_ui();
  std::vector<view::Placement> step_engine(bool step);
  void finish_ui(Clock::time_point build_start);
  void update_tiles(const std::vector<view::Placement>& placements);
  void composite(const std::vector<view::Placement>& placements, int fb_width, int fb_height, bool rebuild);
  void screenshot_and_present(const std::optional<std::string>& capture, int fb_width, int fb_height);

  /// Saves the panel's width when the person has chosen another (and the drag is over), or at the
  /// end whatever the mouse does (`at_exit`). Windowed only: headless runs are reproducible.
  void remember_panel_width(bool at_exit);
  void run_script_lines();
  /// Esc: closes the topmost open thing (the quit question, a popup, the help, a change being
  /// built); a text field's edit is ImGui's to cancel. Never quits.
  void escape();
  /// Ctrl+Q or the window's close button: quits, or asks once first when there is unsaved work.
  void ask_quit();
  /// Starts building a change beside the frame loop, or runs it here when it is small. False: it
  /// is not a change that builds instances (execute it as any command).
  bool start_build(const Command& command);
  /// Commits the change being built once it is ready.
  void poll_build();
  void cancel_build();
  /// Which Size presets the engine cannot hold for the present instances, refreshed now and then.
  void refresh_size_refusals();
  /// A host step of `step_ms` held the window past kLongStepMs: pauses once per workload, says why.
  void pause_after_long_step(double step_ms);
  void execute_ui(const std::vector<Command>& commands);
  void apply_effects(const Effects& fx);
  void fill_panel_model();
  /// The panel's counter source line and strips (the last seconds of the sampler's readings).
  void fill_counter_strips();
  void update_area();
  void framebuffer_size(int& w, int& h) const;
  /// Writes the bound framebuffer's `width` x `height` pixels (the frame's own size, not asked
  /// again: the window may be gone by now).
  void take_screenshot(const std::string& path, int width, int height);
  /// At the end: --screenshot (false when it could not be drawn) and --report.
  bool write_outputs(double seconds);
  render::DisplayOptions display_options() const { return {scene_->grid(), scene_->age()}; }

  Options options_;
  Setup setup_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<AppCounters> counters_;  // the GPUs' hardware counters, sampled on their own thread
  RooflineFigures roofline_;               // each instance against its GPUs' roofs, for the panel
  CounterLanes counter_lanes_;             // the counters on the timeline's axis, for the panel
  std::unique_ptr<Scene> scene_;
  std::unique_ptr<Recovery> recovery_;  // snapshots for a fatal device error
  std::optional<ScriptRunner> script_;
  InputQueue input_;  // the window's callbacks point at it: declared before the window
  InputMapper mapper_;
  // The GL context and what lives in it, torn down in reverse order while the context is current.
  std::unique_ptr<render::Window> window_;
  std::unique_ptr<render::HeadlessContext> headless_;
  std::unique_ptr<render::OffscreenTarget> offscreen_;
  std::unique_ptr<render::TileRenderer> renderer_;
  // The ImGui layer, drawn into only when the UI is rebuilt and blended over every frame: between
  // rebuilds a frame costs one blend of the regions ImGui drew, not ImGui's draw calls.
  std::unique_ptr<render::OverlayLayer> ui_layer_;
  std::unique_ptr<ImGuiLayer> imgui_;
  // Frame pacing: a fence after each frame's drawing; a frame starts once the frame two before it
  // is done, as a swap chain of depth two would allow (headless has no swap to hold the CPU back,
  // and an unbounded queue would only grow latency and stall the engine's summaries).
  std::array<render::GlSync, 2> frame_fences_;

  std::string settings_path_;  // "" headless or without a config directory
  AppSettings settings_;       // as last loaded or saved
  ui::Panel panel_;
  ui::PanelModel model_;
  ui::UiPacer pacer_;
  render::Palette palette_;
  int last_fb_w_ = -1;
  int last_fb_h_ = -1;

  // A change built beside the frame loop (a large size, reset or instance count); null when none.
  std::unique_ptr<SceneBuild> build_;
  std::vector<std::unique_ptr<SceneBuild>> cancelled_builds_;  // stopping; let go once finished
  double size_refusals_at_s_ = -1;                             // when refresh_size_refusals last ran

  // Frame requests and figures.
  bool quit_ = false;
  bool quit_pending_ = false;          // asked once with unsaved work: the notice waits for an answer
  std::uint64_t long_step_shape_ = 0;  // the workload whose long step paused the app once
  bool stepped_in_frame_ = false;      // the current frame() has stepped the engine
  std::optional<std::string> screenshot_next_;
  FrameFigures figures_;
  GenerationRate generation_rate_;
  DeliveredRate delivered_;
  std::optional<view::CellPos> hovered_cell_;  // for the readout line
};

}  // namespace ls::app
