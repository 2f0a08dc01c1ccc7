// gui_app.cpp — the desktop app's command line and frame loop (window or headless): poll, script,
// new frame, input, UI, engine.step, request summaries, map all tiles, render kernels, unmap,
// draw, swap. Everything that changes the scene goes through Scene::execute.
#include "app/gui_app.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "render/gl.hpp"
// GLFW after GLAD (render/gl.hpp): GLAD provides the GL declarations.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cfloat>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli_numbers.hpp"
#include "app/engine_factory.hpp"
#include "app/recovery.hpp"
#include "app/report.hpp"
#include "app/scene.hpp"
#include "core/command.hpp"
#include "core/error.hpp"
#include "core/stats.hpp"
#include "render/headless.hpp"
#include "render/image.hpp"
#include "render/layer.hpp"
#include "render/paths.hpp"
#include "render/tiles.hpp"
#include "render/view.hpp"
#include "render/window.hpp"
#include "ui/pacer.hpp"
#include "ui/panel.hpp"
#include "ui/regions.hpp"

#if defined(LIFESTREAMS_HAVE_CUDA)
#include "sim/cuda_engine.hpp"
#endif

namespace ls {
namespace app {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Options {
  int instances = 4;
  std::optional<long long> width;
  std::optional<long long> height;
  std::string variant;
  std::string rule;
  std::string pattern;
  std::optional<double> density;
  std::optional<std::uint64_t> seed;
  int generations_per_frame = 1;
  int generations_per_launch = 16;
  std::string stream_mode = "per-instance";
  int timing_period = 1;
  std::string backend = "auto";
  int device = 0;
  std::string vsync = "on";
  bool headless = false;
  std::string size = "1600x900";
  std::optional<long long> frames;
  std::string script;
  std::string screenshot;
  std::string report;
  std::uint64_t snapshot_max_cells = kDefaultSnapshotMaxCells;
  std::string display_path = "interop";
};

/// A script line that failed: exit status 1 (expectation) or 2 (bad input), message names the line.
struct ScriptFailure {
  int status;
  std::string message;
};

/// Raw window events, queued by the GLFW callbacks and handled once per frame.
struct InputEvent {
  enum class Kind { key, button, scroll, cursor, drop };
  Kind kind = Kind::key;
  int key = 0;
  int action = 0;
  int mods = 0;
  double x = 0;
  double y = 0;
  std::vector<std::string> paths;
};

struct InputQueue {
  std::vector<InputEvent> events;
};

InputQueue* queue_of(GLFWwindow* w) { return static_cast<InputQueue*>(glfwGetWindowUserPointer(w)); }

void on_key(GLFWwindow* w, int key, int, int action, int mods) {
  InputEvent e;
  e.kind = InputEvent::Kind::key;
  e.key = key;
  e.action = action;
  e.mods = mods;
  queue_of(w)->events.push_back(std::move(e));
}
void on_button(GLFWwindow* w, int button, int action, int mods) {
  InputEvent e;
  e.kind = InputEvent::Kind::button;
  e.key = button;
  e.action = action;
  e.mods = mods;
  glfwGetCursorPos(w, &e.x, &e.y);
  queue_of(w)->events.push_back(std::move(e));
}
void on_scroll(GLFWwindow* w, double, double dy) {
  InputEvent e;
  e.kind = InputEvent::Kind::scroll;
  e.y = dy;
  queue_of(w)->events.push_back(std::move(e));
}
void on_cursor(GLFWwindow* w, double x, double y) {
  InputEvent e;
  e.kind = InputEvent::Kind::cursor;
  e.x = x;
  e.y = y;
  queue_of(w)->events.push_back(std::move(e));
}
void on_drop(GLFWwindow* w, int count, const char** paths) {
  InputEvent e;
  e.kind = InputEvent::Kind::drop;
  for (int i = 0; i < count; ++i) e.paths.emplace_back(paths[i]);
  queue_of(w)->events.push_back(std::move(e));
}

void parse_size(const std::string& text, int& w, int& h) {
  int a = 0, b = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &a, &x, &b, &extra) != 3 || (x != 'x' && x != 'X'))
    throw InputError("--size " + text + ": expected WxH, e.g. 1600x900");
  if (a < 64 || b < 64 || a > 16384 || b > 16384)
    throw InputError("--size " + text + ": width and height must be 64..16384");
  w = a;
  h = b;
}

std::string config_dir() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/lifestreams";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.config/lifestreams";
  return {};
}

/// The app: owns the engine, the scene, the GL context (window or headless), tiles and panel.
class App {
 public:
  explicit App(const Options& o) : options_(o) {}
  ~App();
  int run();

 private:
  void setup();
  int loop();
  void setup_imgui();
  void new_imgui_frame();
  void handle_input(std::vector<Command>& commands);
  /// Runs script lines until one needs a frame; fills still/screenshot for the coming frame.
  void advance_script();
  void execute_ui(const std::vector<Command>& commands);
  void apply_effects(const Effects& fx);
  void update_area();
  void draw_labels(const std::vector<render::Placement>& placements);
  /// One frame. `step`: advance the engine; `capture`: write a PNG of what was drawn. False when
  /// the window had nothing to draw on (minimised or destroyed since the loop looked): no frame,
  /// no step.
  bool frame(bool step, const std::optional<std::string>& capture);
  void framebuffer_size(int& w, int& h) const;
  /// Writes the bound framebuffer's `width` x `height` pixels (the frame's own size, not asked
  /// again: the window may be gone by now).
  void take_screenshot(const std::string& path, int width, int height);
  /// After the frames, for --report: what filling every tile costs by each display path.
  void measure_display();
  render::DisplayOptions display_options() const { return {scene_->grid(), scene_->age()}; }

  Options options_;
  int size_w_ = 1600;
  int size_h_ = 900;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Scene> scene_;
  std::unique_ptr<Recovery> recovery_;  // snapshots for a fatal device error
  std::unique_ptr<render::Window> window_;
  std::unique_ptr<render::HeadlessContext> headless_;
  std::unique_ptr<render::OffscreenTarget> offscreen_;
  std::unique_ptr<render::TileRenderer> renderer_;
  // The ImGui layer, drawn into only when the UI is rebuilt and blended over every frame
  // (LS_UI_LAYER=direct draws the ImGui data every frame instead, to measure the difference).
  std::unique_ptr<render::OverlayLayer> ui_layer_;
  ui::Panel panel_;
  ui::PanelModel model_;
  ui::UiPacer pacer_;
  int last_fb_w_ = -1;
  int last_fb_h_ = -1;
  InputQueue input_;
  bool imgui_ready_ = false;
  bool imgui_glfw_ = false;
  std::string ini_path_;
  render::Palette palette_;

  // Script state.
  std::vector<std::pair<int, Command>> script_;
  std::size_t script_next_ = 0;
  long long script_frames_left_ = 0;
  bool has_script_ = false;
  int script_line_ = 0;  // the line being run (for errors raised while its frame is drawn)

  // Frame requests and figures.
  bool quit_ = false;
  bool still_next_ = false;
  bool stepped_in_frame_ = false;  // the current frame() has stepped the engine
  std::optional<std::string> screenshot_next_;
  RunFigures figures_;
  RollingStats frame_stats_;
  long long valid_timings_ = 0;
  double syncs_total_ = 0;
  Clock::time_point last_frame_ = Clock::now();
  // Frame pacing: a fence after each frame's drawing; a frame starts once the frame two before it
  // is done, as a swap chain of depth two would allow (headless has no swap to hold the CPU back,
  // and an unbounded queue would only grow latency and stall the engine's summaries).
  std::array<GLsync, 2> frame_fences_{};

  // Mouse state (framebuffer pixels).
  double cursor_x_ = -1;
  double cursor_y_ = -1;
  int drag_tile_ = -1;
  bool panning_ = false;
  int draw_mode_ = 0;  // 1 sets cells, -1 clears, 0 off
  std::pair<int, int> last_cell_{-1, -1};
  double last_click_time_ = -1;
  double last_click_x_ = 0;
  double last_click_y_ = 0;
};

App::~App() {
  for (GLsync& f : frame_fences_)
    if (f) glDeleteSync(f);
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    if (imgui_glfw_) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
}

void App::setup() {
  parse_size(options_.size, size_w_, size_h_);
  if (options_.instances < 1 || options_.instances > 64)
    throw InputError("--instances " + std::to_string(options_.instances) + ": expected 1..64");
  if (options_.generations_per_frame < 1 || options_.generations_per_frame > 1024)
    throw InputError("--generations-per-frame " + std::to_string(options_.generations_per_frame) +
                     ": expected 1..1024");
  if (options_.generations_per_launch < 1 || options_.generations_per_launch > kMaxGenerationsPerLaunch)
    throw InputError("--generations-per-launch " + std::to_string(options_.generations_per_launch) +
                     ": expected 1..64");
  if (options_.vsync != "on" && options_.vsync != "off")
    throw InputError("--vsync " + options_.vsync + ": expected on or off");
  if (options_.frames && *options_.frames < 1)
    throw InputError("--frames " + std::to_string(*options_.frames) + ": expected 1 or more");
  const auto mode = parse_stream_mode(options_.stream_mode);
  if (!mode) throw InputError("--stream-mode " + options_.stream_mode + ": expected per-instance or shared");
  const auto display_path = render::parse_display_path(options_.display_path);
  if (!display_path)
    throw InputError("--display-path " + options_.display_path + ": expected interop or textbook");

  SceneSettings settings;
  if (options_.width || options_.height) {
    const long long w = options_.width.value_or(1024), h = options_.height.value_or(1024);
    check_lattice_size(w, h);
    settings.width = static_cast<int>(w);
    settings.height = static_cast<int>(h);
  }
  if (options_.density) {
    if (!(*options_.density >= 0 && *options_.density <= 1))
      throw InputError("--density " + std::to_string(*options_.density) + ": expected a value from 0 to 1");
    settings.density = *options_.density;
  }
  if (options_.seed) settings.seed = *options_.seed;
  if (!options_.variant.empty()) {
    const auto v = parse_variant(options_.variant);
    if (!v)
      throw InputError("--variant " + options_.variant +
                       ": expected naive, global, shared, iterate or bitpacked");
    settings.variant = *v;
  }
  if (!options_.rule.empty()) {
    try {
      settings.rule = parse_rule(options_.rule);
    } catch (const InputError& e) {
      throw InputError("--rule " + options_.rule + ": " + e.what());
    }
  }
  settings.generations_per_frame = options_.generations_per_frame;
  settings.generations_per_launch = options_.generations_per_launch;

  if (!options_.script.empty()) {
    std::string text;
    try {
      text = read_script_file(options_.script);
    } catch (const InputError& e) {
      throw InputError(std::string("--script ") + e.what());
    }
    try {
      script_ = parse_script(text);
    } catch (const InputError& e) {
      throw InputError("--script " + options_.script + ": " + e.what());
    }
    has_script_ = true;
  }

  // The display first: without one there is nothing else to do.
  if (!options_.headless) {
    std::string why;
    if (!render::Window::display_available(&why))
      throw DeviceError("no display (" + why + "); run with --headless to render offscreen");
  }

  engine_ = make_engine(options_.backend, options_.device);
  engine_->set_stream_mode(*mode);
  engine_->set_timing_period(options_.timing_period);
  scene_ = std::make_unique<Scene>(*engine_, settings);
  scene_->populate(options_.instances, options_.pattern, /*keep_rule=*/!options_.rule.empty());
  recovery_ = std::make_unique<Recovery>(
      *engine_, RecoverySettings{options_.snapshot_max_cells, kSnapshotIntervalSeconds,
                                 fault_frame_from_environment()});

  const int cuda_device = engine_->cuda_device();
  const bool cuda = cuda_device >= 0;
  if (options_.headless) {
    headless_ = std::make_unique<render::HeadlessContext>(cuda_device);
    offscreen_ = std::make_unique<render::OffscreenTarget>(size_w_, size_h_);
  } else {
    window_ = std::make_unique<render::Window>(size_w_, size_h_, "lifestreams", options_.vsync == "on");
    glfwSetWindowUserPointer(window_->handle(), &input_);
    glfwSetKeyCallback(window_->handle(), on_key);
    glfwSetMouseButtonCallback(window_->handle(), on_button);
    glfwSetScrollCallback(window_->handle(), on_scroll);
    glfwSetCursorPosCallback(window_->handle(), on_cursor);
    glfwSetDropCallback(window_->handle(), on_drop);
  }
  renderer_ = std::make_unique<render::TileRenderer>(render::find_data_dir("shaders"), cuda);
  renderer_->set_display_path(*display_path);
  figures_.display.path = std::string(render::display_path_name(*display_path));
  const char* layer = std::getenv("LS_UI_LAYER");
  if (!(layer && std::string(layer) == "direct"))
    ui_layer_ = std::make_unique<render::OverlayLayer>(render::find_data_dir("shaders"));
  figures_.ui.layer = ui_layer_ ? "cached" : "direct";
  setup_imgui();

  model_.engine = engine_.get();
  model_.windowed = window_ != nullptr;
  model_.vsync = window_ ? window_->vsync() : false;
  try {
    model_.patterns_dir = render::find_data_dir("assets/patterns");
    for (const auto& entry : std::filesystem::directory_iterator(model_.patterns_dir)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".rle" || ext == ".cells"))
        model_.bundled_patterns.push_back(entry.path().filename().string());
    }
    std::sort(model_.bundled_patterns.begin(), model_.bundled_patterns.end());
  } catch (const std::exception&) {
    // No bundled patterns: the list stays empty, loading by path still works.
  }
}

void App::setup_imgui() {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imgui_ready_ = true;
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
    // Installs ImGui's callbacks, which chain to ours set above.
    if (!ImGui_ImplGlfw_InitForOpenGL(window_->handle(), true))
      throw DeviceError("Dear ImGui's GLFW backend failed to start");
    imgui_glfw_ = true;
  } else {
    // Headless runs are reproducible: no saved window positions.
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(size_w_), static_cast<float>(size_h_));
    io.DisplayFramebufferScale = ImVec2(1, 1);
  }
  if (!ImGui_ImplOpenGL3_Init("#version 450"))
    throw DeviceError("Dear ImGui's OpenGL3 backend failed to start (it loads GL from libGL.so.1)");
  const float scale = window_ ? window_->content_scale() : 1.f;
  std::string assets;
  try {
    assets = render::find_data_dir("assets");
  } catch (const DeviceError&) {
    // No bundled font: ImGui's built-in one (load_fonts falls back by itself).
  }
  ui::load_fonts(assets, scale);
  panel_.set_scale(scale);
}

void App::framebuffer_size(int& w, int& h) const {
  if (window_) {
    window_->framebuffer_size(w, h);
  } else {
    w = offscreen_->width();
    h = offscreen_->height();
  }
}

void App::update_area() {
  int fw = 0, fh = 0;
  framebuffer_size(fw, fh);
  float sx = 1, sy = 1;
  if (window_) window_->framebuffer_scale(sx, sy);
  const int panel = scene_->panel_visible() ? static_cast<int>(std::ceil(panel_.width() * sx)) : 0;
  scene_->set_area(render::Rect{panel, 0, std::max(0, fw - panel), fh});
}

void App::new_imgui_frame() {
  ImGui_ImplOpenGL3_NewFrame();
  if (window_) {
    ImGui_ImplGlfw_NewFrame();
    if (window_->lost()) {
      // Destroyed by another client during the backend's queries: GLFW's X11 answers were left
      // unset (a negative size trips ImGui's assertion). This frame keeps the last good size;
      // the loop quits after it.
      ImGuiIO& io = ImGui::GetIO();
      io.DisplaySize =
          ImVec2(static_cast<float>(std::max(last_fb_w_, 0)), static_cast<float>(std::max(last_fb_h_, 0)));
      io.DisplayFramebufferScale = ImVec2(1.f, 1.f);
      io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    }
  } else {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(size_w_), static_cast<float>(size_h_));
    const double dt = ms_since(last_frame_) / 1000.0;
    io.DeltaTime = static_cast<float>(std::max(dt, 1e-4));
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  }
  last_frame_ = Clock::now();
  ImGui::NewFrame();
}

void App::apply_effects(const Effects& fx) {
  if (fx.quit) quit_ = true;
  if (fx.screenshot) screenshot_next_ = *fx.screenshot;
  if (fx.vsync) {
    if (window_) window_->set_vsync(*fx.vsync);
    model_.vsync = window_ ? *fx.vsync : false;
  }
  if (!fx.message.empty()) model_.message = fx.message;
}

void App::execute_ui(const std::vector<Command>& commands) {
  for (const Command& c : commands) {
    try {
      apply_effects(scene_->execute(c));
      model_.error.clear();
    } catch (const InputError& e) {
      // Bad input from a person: shown in the panel, the scene stays as it was.
      model_.error = e.what();
    } catch (const ExpectationFailed& e) {
      model_.error = e.what();
    }
  }
}

void App::advance_script() {
  // A screenshot's still frame not drawn yet (minimised meanwhile) holds the script back.
  while (script_frames_left_ == 0 && !still_next_ && script_next_ < script_.size() && !quit_) {
    const auto& [line, command] = script_[script_next_++];
    script_line_ = line;
    try {
      update_area();
      const Effects fx = scene_->execute(command);
      pacer_.force();
      apply_effects(fx);
      if (fx.frames > 0) script_frames_left_ = fx.frames;
      if (fx.screenshot) {
        // The next frame shows the scene as it is now: no step before it is captured.
        still_next_ = true;
        return;
      }
    } catch (const ExpectationFailed& e) {
      throw ScriptFailure{1, options_.script + " line " + std::to_string(line) + ": " + e.what()};
    } catch (const InputError& e) {
      throw ScriptFailure{2, options_.script + " line " + std::to_string(line) + ": " + e.what()};
    }
  }
}

void App::handle_input(std::vector<Command>& commands) {
  const ImGuiIO& io = ImGui::GetIO();
  float sx = 1, sy = 1;
  window_->framebuffer_scale(sx, sy);
  const int n = static_cast<int>(engine_->size());
  auto hovered = [&] { return scene_->tile_at(cursor_x_, cursor_y_); };
  auto draw_to = [&](int tile, double px, double py) {
    const auto cell = scene_->cell_at(static_cast<std::size_t>(tile), px, py);
    if (!cell) return;
    // Cells along the line from the last one, so a fast stroke leaves no gaps.
    auto [x0, y0] = last_cell_.first < 0 ? *cell : last_cell_;
    const auto [x1, y1] = *cell;
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int stepx = x0 < x1 ? 1 : -1, stepy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (int guard = 0; guard < 4096; ++guard) {
      commands.push_back(cmd::SetCell{static_cast<std::size_t>(tile), x0, y0, draw_mode_ > 0});
      if (x0 == x1 && y0 == y1) break;
      const int e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += stepx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += stepy;
      }
    }
    last_cell_ = *cell;
  };

  for (const InputEvent& e : input_.events) {
    switch (e.kind) {
      case InputEvent::Kind::key: {
        if (e.action == GLFW_RELEASE) break;
        // F1 always works; Esc quits unless a text field is being edited (there it cancels the
        // edit, as ImGui does); the rest only when ImGui does not want the keyboard.
        if (e.key == GLFW_KEY_F1 && e.action == GLFW_PRESS) {
          panel_.toggle_help();
          break;
        }
        if (e.key == GLFW_KEY_ESCAPE && e.action == GLFW_PRESS && !io.WantTextInput) {
          quit_ = true;
          break;
        }
        if (io.WantCaptureKeyboard) break;
        const bool repeatable = e.key == GLFW_KEY_N;
        if (e.action == GLFW_REPEAT && !repeatable) break;
        switch (e.key) {
          case GLFW_KEY_SPACE:
            commands.push_back(scene_->paused() ? Command{cmd::Run{}} : Command{cmd::Pause{}});
            break;
          case GLFW_KEY_N:
            commands.push_back(cmd::Step{1});
            break;
          case GLFW_KEY_EQUAL:
          case GLFW_KEY_KP_ADD:
            if (n < 64) commands.push_back(cmd::Instances{n + 1});
            break;
          case GLFW_KEY_MINUS:
          case GLFW_KEY_KP_SUBTRACT:
            if (n > 1) commands.push_back(cmd::Instances{n - 1});
            break;
          case GLFW_KEY_V: {
            const int t = hovered();
            if (t < 0) break;
            const Variant v = engine_->status(static_cast<std::size_t>(t)).variant;
            std::size_t k = 0;
            while (kAllVariants[k] != v) ++k;
            commands.push_back(cmd::SetVariant{Target{false, static_cast<std::size_t>(t)},
                                               kAllVariants[(k + 1) % kAllVariants.size()]});
            break;
          }
          case GLFW_KEY_F: {
            const int t = hovered();
            commands.push_back(
                cmd::Fit{t < 0 ? Target{true, 0} : Target{false, static_cast<std::size_t>(t)}});
            break;
          }
          case GLFW_KEY_S:
            commands.push_back(cmd::Screenshot{""});
            break;
          default:
            break;
        }
        break;
      }
      case InputEvent::Kind::cursor: {
        const double px = e.x * sx, py = e.y * sy;
        if (drag_tile_ >= 0 && drag_tile_ < n) {
          if (panning_)
            scene_->pan_pixels(static_cast<std::size_t>(drag_tile_), px - cursor_x_, py - cursor_y_);
          if (draw_mode_ != 0) draw_to(drag_tile_, px, py);
        }
        cursor_x_ = px;
        cursor_y_ = py;
        break;
      }
      case InputEvent::Kind::button: {
        const double px = e.x * sx, py = e.y * sy;
        cursor_x_ = px;
        cursor_y_ = py;
        if (e.action == GLFW_RELEASE) {
          drag_tile_ = -1;
          panning_ = false;
          draw_mode_ = 0;
          last_cell_ = {-1, -1};
          break;
        }
        if (io.WantCaptureMouse) break;
        const int t = scene_->tile_at(px, py);
        if (t < 0) break;
        const bool ctrl = (e.mods & GLFW_MOD_CONTROL) != 0;
        if (ctrl && (e.key == GLFW_MOUSE_BUTTON_LEFT || e.key == GLFW_MOUSE_BUTTON_RIGHT)) {
          drag_tile_ = t;
          draw_mode_ = e.key == GLFW_MOUSE_BUTTON_LEFT ? 1 : -1;
          last_cell_ = {-1, -1};
          draw_to(t, px, py);
        } else if (e.key == GLFW_MOUSE_BUTTON_LEFT) {
          const double now = glfwGetTime();
          if (now - last_click_time_ < 0.35 && std::abs(px - last_click_x_) < 5 &&
              std::abs(py - last_click_y_) < 5) {
            commands.push_back(cmd::Fit{Target{false, static_cast<std::size_t>(t)}});
            last_click_time_ = -1;
            break;
          }
          last_click_time_ = now;
          last_click_x_ = px;
          last_click_y_ = py;
          drag_tile_ = t;
          panning_ = true;
        }
        break;
      }
      case InputEvent::Kind::scroll: {
        if (io.WantCaptureMouse) break;
        const int t = hovered();
        if (t >= 0) scene_->zoom_at(static_cast<std::size_t>(t), std::pow(1.2, e.y), cursor_x_, cursor_y_);
        break;
      }
      case InputEvent::Kind::drop: {
        const int t = hovered();
        if (e.paths.empty()) break;
        if (t < 0) {
          model_.error = "drop a pattern file onto a tile to load it there";
          break;
        }
        commands.push_back(cmd::Load{static_cast<std::size_t>(t), e.paths.front()});
        break;
      }
    }
  }
  input_.events.clear();
  model_.hovered_instance = hovered();
}

void App::draw_labels(const std::vector<render::Placement>& placements) {
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  float sx = 1, sy = 1;
  if (window_) window_->framebuffer_scale(sx, sy);
  const auto rects = scene_->tile_rects();
  const bool cpu = engine_->backend() == "cpu";
  char text[160];
  for (std::size_t i = 0; i < rects.size() && i < placements.size(); ++i) {
    const InstanceStatus s = engine_->status(i);
    const std::uint64_t gen = s.summary ? s.summary->generation : s.generation;
    char pop[32] = "...";
    if (s.summary) std::snprintf(pop, sizeof pop, "%" PRIu64, s.summary->population);
    // Two short lines, so that small tiles still show everything.
    std::snprintf(text, sizeof text, "#%zu %s%s\n%dx%d  gen %" PRIu64 "  pop %s", i,
                  std::string(variant_name(s.variant)).c_str(), cpu ? " (cpu)" : "", s.width, s.height, gen,
                  pop);
    const render::Rect& r = rects[i];
    const ImVec2 ts = ImGui::CalcTextSize(text);
    const float pad = 3.f;
    const ImVec2 lo(r.x / sx, r.y / sy);
    // A tile thinner than its label (a very wide, short lattice) still shows it, over the space
    // below the tile.
    const ImVec2 hi((r.x + r.w) / sx, std::max((r.y + r.h) / sy, lo.y + ts.y + 2 * pad));
    dl->PushClipRect(lo, hi, true);
    dl->AddRectFilled(lo, ImVec2(lo.x + ts.x + 2 * pad, lo.y + ts.y + 2 * pad), IM_COL32(0, 0, 0, 170));
    dl->AddText(ImVec2(lo.x + pad, lo.y + pad), IM_COL32(230, 235, 240, 255), text);
    dl->PopClipRect();
  }
}

void App::take_screenshot(const std::string& requested, int fw, int fh) {
  const std::string path =
      requested.empty() ? render::next_numbered_path("", "lifestreams", ".png") : requested;
  render::write_png(path, render::read_framebuffer(fw, fh));
  model_.message = "screenshot saved to " + path;
}

bool App::frame(bool step, const std::optional<std::string>& capture) {
  const auto start = Clock::now();
  GLsync& fence = frame_fences_[static_cast<std::size_t>(figures_.frames % 2)];
  if (fence) {
    glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000);
    glDeleteSync(fence);
    fence = nullptr;
  }
  int fw = 0, fh = 0;
  framebuffer_size(fw, fh);
  // Minimised or destroyed since the loop looked: no frame (and no step), as when minimised.
  if (window_ && (fw <= 0 || fh <= 0)) return false;
  // The ImGui frame (panel and tile labels) is rebuilt on input, after a command, for a
  // screenshot or a resize, and otherwise at most 60 times a second; in between the previous
  // draw data is drawn again, so the panel costs nothing visible at hundreds of frames a second.
  if (capture || screenshot_next_ || fw != last_fb_w_ || fh != last_fb_h_) pacer_.force();
  last_fb_w_ = fw;
  last_fb_h_ = fh;
  const double now_s = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  const bool rebuild = pacer_.due(now_s, !input_.events.empty());

  const auto build_start = Clock::now();
  if (rebuild) {
    new_imgui_frame();
    std::vector<Command> commands;
    if (window_) handle_input(commands);
    update_area();
    model_.paused = scene_->paused();
    model_.grid = scene_->grid();
    model_.age = scene_->age();
    const SceneSettings& st = scene_->settings();
    model_.width = st.width;
    model_.height = st.height;
    model_.density = st.density;
    model_.seed = st.seed;
    model_.same_seed = st.same_seed;
    model_.generations_per_frame = st.generations_per_frame;
    model_.cpu_frame_ms = frame_stats_.summary();
    model_.fps = model_.cpu_frame_ms.mean > 0 ? 1000.0 / model_.cpu_frame_ms.mean : 0;
    model_.host_syncs_per_frame = engine_->host_syncs_in_last_step();
    if (scene_->panel_visible()) panel_.draw(model_, commands);
    execute_ui(commands);
    if (!commands.empty()) pacer_.force();
  }

  update_area();
  const std::vector<render::Placement> placements = scene_->placements();

  stepped_in_frame_ = false;
  if (step && !scene_->paused()) {
    engine_->step(scene_->settings().generations_per_frame);
    stepped_in_frame_ = true;
  }
  syncs_total_ += static_cast<double>(engine_->host_syncs_in_last_step());
  engine_->request_summaries();
  if (rebuild) {
    // After the step: the labels show the newest finished summaries.
    draw_labels(placements);
    ImGui::Render();
    ++figures_.ui.rebuilds;
    figures_.ui.build_ms += ms_since(build_start);
  }
  const auto update_start = Clock::now();
  renderer_->update(*engine_, placements, display_options(), palette_);
  figures_.display.update_ms += ms_since(update_start);

  if (offscreen_)
    offscreen_->bind();
  else
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fw, fh);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  int r = 0, g = 0, b = 0;
  render::unpack_rgb(palette_.background, r, g, b);
  glClearColor(r / 255.f, g / 255.f, b / 255.f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  renderer_->draw(placements, fw, fh);
  const auto ui_start = Clock::now();
  if (ImDrawData* draw_data = ImGui::GetDrawData()) {
    if (!ui_layer_) {
      ImGui_ImplOpenGL3_RenderDrawData(draw_data);
    } else {
      if (rebuild || ui_layer_->width() != fw || ui_layer_->height() != fh) {
        ui_layer_->begin(fw, fh);
        ImGui_ImplOpenGL3_RenderDrawData(draw_data);
        ui_layer_->end();
        // Blend only where ImGui drew: a full-screen pass costs the H100/H200's few raster
        // units as much as drawing the labels did.
        std::vector<render::Rect> regions;
        for (const ui::Region& r : ui::covering_regions(ui::draw_command_boxes(*draw_data), fw, fh, 16))
          regions.push_back(render::Rect{r.x, r.y, r.w, r.h});
        ui_layer_->set_regions(regions);
      }
      ui_layer_->composite(fw, fh);
    }
  }
  figures_.ui.draw_ms += ms_since(ui_start);
  render::check_gl("drawing a frame");

  // What a person sees, panel included: read before the swap.
  std::optional<std::string> shot = capture;
  if (!shot && screenshot_next_) shot = screenshot_next_;
  screenshot_next_.reset();
  if (shot) {
    try {
      take_screenshot(*shot, fw, fh);
    } catch (const InputError& e) {
      if (capture) throw;
      if (has_script_)
        throw ScriptFailure{2, options_.script + " line " + std::to_string(script_line_) + ": " + e.what()};
      model_.error = e.what();
    }
  }
  fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (window_) window_->swap_buffers();

  const double ms = ms_since(start);
  frame_stats_.add(ms);
  figures_.frame_ms.push_back(ms);
  ++figures_.frames;
  const FrameTimings t = engine_->frame_timings();
  if (t.valid) {
    ++valid_timings_;
    figures_.gpu_span_ms += t.gpu_span_ms;
    figures_.busy_ms += t.busy_ms;
    figures_.concurrency += t.concurrency;
  }
  return true;
}

void App::measure_display() {
  const StatSummary wait = renderer_->map_wait_ms();
  if (wait.samples > 0) figures_.display.map_wait_ms = wait.mean;
  figures_.display.map_host_ms = renderer_->map_host_ms();
  figures_.display.unmap_host_ms = renderer_->unmap_host_ms();
  if (engine_->backend() != "cuda") return;
  const std::vector<render::Placement> placements = scene_->placements();
  // Both paths in this run, on the same tiles and state. The textbook path copies every lattice
  // to the host per fill: past 2^31 cells in all it would take seconds, so it is left out then.
  long long cells = 0;
  for (std::size_t i = 0; i < engine_->size(); ++i)
    cells += static_cast<long long>(scene_->lattice_width(i)) * scene_->lattice_height(i);
  const render::DisplayCost interop = renderer_->measure(*engine_, placements, display_options(), palette_,
                                                         render::DisplayPath::interop, 0.25, 1000);
  figures_.display.tiles = interop.tiles;
  if (interop.frames > 0) {
    figures_.display.interop_ms_per_tile = interop.ms_per_tile;
    figures_.display.interop_ms_per_frame = interop.ms_per_frame;
    figures_.display.interop_map_host_ms = interop.map_host_ms;
    figures_.display.interop_unmap_host_ms = interop.unmap_host_ms;
  }
  if (cells <= (1LL << 31)) {
    const render::DisplayCost textbook = renderer_->measure(*engine_, placements, display_options(), palette_,
                                                            render::DisplayPath::textbook, 0.25, 100);
    if (textbook.frames > 0) {
      figures_.display.textbook_ms_per_tile = textbook.ms_per_tile;
      figures_.display.textbook_ms_per_frame = textbook.ms_per_frame;
    }
  }
}

int App::run() {
  setup();
  // A fatal device error from here on: save the newest snapshots, say where, exit 3.
  try {
    return loop();
  } catch (const DeviceError& e) {
    return recovery_->save_after_fault(e, std::cerr);
  }
}

int App::loop() {
  const long long frame_limit = options_.frames.value_or(options_.headless && !has_script_ ? 120 : -1);
  const auto loop_start = Clock::now();
  while (true) {
    if (window_) {
      window_->poll_events();
      if (window_->should_close()) quit_ = true;
    }
    if (has_script_) advance_script();
    if (quit_) break;
    const bool script_over =
        has_script_ && script_next_ >= script_.size() && script_frames_left_ == 0 && !still_next_;
    if (script_over && !window_) break;
    if (frame_limit > 0 && figures_.frames >= frame_limit) break;
    // Minimised: nothing to draw (some platforms give a zero-size framebuffer); wait for events
    // rather than spin, and let the simulation rest until the window is back.
    if (window_ && window_->nothing_to_draw()) {
      glfwWaitEventsTimeout(0.05);
      continue;
    }

    const bool still = still_next_;
    still_next_ = false;
    // The last frame is the one --screenshot keeps: its labels and panel must be current.
    if (frame_limit > 0 && figures_.frames + 1 == frame_limit) pacer_.force();
    bool drawn = false;
    try {
      drawn = frame(!still, std::nullopt);
    } catch (const render::GlError&) {
      // A GL call that failed because another client destroyed the window mid-frame is a close,
      // not a device fault. A frame that stepped counts, so the report's frames and generations
      // still agree.
      if (!window_ || !window_->lost()) throw;
      if (stepped_in_frame_) ++figures_.frames;
      break;
    }
    if (!drawn) {
      still_next_ = still;
      continue;
    }
    recovery_->after_frame(figures_.frames, std::chrono::duration<double>(Clock::now() - loop_start).count());
    if (script_frames_left_ > 0 && !still) --script_frames_left_;
  }
  figures_.seconds = std::chrono::duration<double>(Clock::now() - loop_start).count();

  bool screenshot_written = true;
  if (!options_.screenshot.empty()) {
    if (offscreen_ && figures_.frames > 0) {
      offscreen_->bind();
      take_screenshot(options_.screenshot, offscreen_->width(), offscreen_->height());
    } else {
      // A window's back buffer is gone after the swap: draw the final state once more. Not
      // possible when the window is minimised or another client destroyed it.
      try {
        screenshot_written = frame(false, options_.screenshot);
      } catch (const render::GlError&) {
        if (!window_ || !window_->lost()) throw;
        screenshot_written = false;
      }
    }
  }
  if (!options_.report.empty()) {
    if (valid_timings_ > 0) {
      figures_.gpu_span_ms /= static_cast<double>(valid_timings_);
      figures_.busy_ms /= static_cast<double>(valid_timings_);
      figures_.concurrency /= static_cast<double>(valid_timings_);
    }
    figures_.host_syncs_per_frame =
        figures_.frames > 0 ? syncs_total_ / static_cast<double>(figures_.frames) : 0;
    measure_display();
    write_report(options_.report, *engine_, figures_);
  }
  if (!screenshot_written) {
    std::cerr << "lifestreams: --screenshot " << options_.screenshot
              << " was not written: at the end the window was minimised or gone\n";
    return 3;
  }
  return 0;
}

}  // namespace
}  // namespace app

namespace {

// The app's numeric options as written (converted strictly by gui_main).
struct GuiArgs {
  std::optional<std::string> instances, width, height, density, seed, generations_per_frame,
      generations_per_launch, timing_period, device, frames, snapshot_max_cells;
};

// Converts the numeric options into `o` and refuses empty text where empty would mean "not given".
void check_gui_args(const GuiArgs& a, const CLI::App& cli, app::Options& o) {
  if (a.instances) o.instances = static_cast<int>(parse_whole("--instances", *a.instances, 1, 64));
  if (a.width) o.width = parse_whole("--width", *a.width, 32, kMaxLatticeSide);
  if (a.height) o.height = parse_whole("--height", *a.height, 32, kMaxLatticeSide);
  if (a.density) o.density = parse_real("--density", *a.density, 0.0, 1.0);
  if (a.seed) o.seed = parse_unsigned64("--seed", *a.seed);
  if (a.generations_per_frame)
    o.generations_per_frame =
        static_cast<int>(parse_whole("--generations-per-frame", *a.generations_per_frame, 1, 1024));
  if (a.generations_per_launch)
    o.generations_per_launch = static_cast<int>(
        parse_whole("--generations-per-launch", *a.generations_per_launch, 1, kMaxGenerationsPerLaunch));
  if (a.timing_period)
    o.timing_period = static_cast<int>(parse_whole("--timing-period", *a.timing_period, 1, kMaxTimingPeriod));
  if (a.device) o.device = static_cast<int>(parse_whole("--device", *a.device, 0, 1024));
  if (a.frames) o.frames = parse_whole("--frames", *a.frames, 1, std::numeric_limits<long long>::max());
  if (a.snapshot_max_cells)
    o.snapshot_max_cells = parse_unsigned64("--snapshot-max-cells", *a.snapshot_max_cells);
  for (const char* name : {"--rule", "--variant", "--pattern", "--script", "--screenshot", "--report"}) {
    const CLI::Option* opt = cli.get_option(name);
    if (opt->count() > 0 && opt->results().front().empty())
      throw InputError(std::string(name) + " '': expected a value (leave the option out for the default)");
  }
}

}  // namespace

int gui_main(int argc, char** argv) {
  app::Options o;
  GuiArgs a;
  CLI::App cli{"lifestreams: N Game of Life simulations side by side (window, or --headless)", "lifestreams"};
  cli.add_option("--instances", a.instances, "number of instances, 1..64 (default 4)")->type_name("N");
  cli.add_option("--width", a.width, "lattice width, a multiple of 32 (default 1024)")->type_name("W");
  cli.add_option("--height", a.height, "lattice height, a multiple of 32 (default 1024)")->type_name("H");
  cli.add_option(
         "--variant", o.variant,
         "naive, global, shared, iterate or bitpacked for every instance (default: instance i gets the "
         "i-th of global, shared, iterate, bitpacked)")
      ->type_name("V");
  cli.add_option("--rule", o.rule, "B/S or S/B rule (default B3/S23)")->type_name("R");
  cli.add_option("--pattern", o.pattern, "RLE or .cells file loaded into every instance")->type_name("FILE");
  cli.add_option("--density", a.density, "random soup density 0..1 (default 0.25)")->type_name("P");
  cli.add_option("--seed", a.seed, "random soup seed, 0..2^64-1 (default 1)")->type_name("S");
  cli.add_option("--generations-per-frame", a.generations_per_frame, "1..1024 (default 1)")->type_name("N");
  cli.add_option("--generations-per-launch", a.generations_per_launch,
                 "k for iterate and bitpacked, 1..64 (default 16)")
      ->type_name("K");
  cli.add_option("--stream-mode", o.stream_mode, "per-instance or shared (default per-instance)")
      ->type_name("MODE");
  cli.add_option("--timing-period", a.timing_period,
                 "time one frame in N with events, 1..1000 (default 1: every frame)")
      ->type_name("N");
  cli.add_option("--backend", o.backend, "auto, cuda or cpu (default auto)")->type_name("NAME");
  cli.add_option("--device", a.device, "CUDA device number (default 0)")->type_name("N");
  cli.add_option("--vsync", o.vsync, "on or off (default on in a window)")->type_name("on|off");
  cli.add_flag("--headless", o.headless, "render offscreen through EGL, no window");
  cli.add_option("--size", o.size, "window or offscreen size WxH (default 1600x900)")->type_name("WxH");
  cli.add_option("--frames", a.frames, "stop after N frames (headless default 120)")->type_name("N");
  cli.add_option("--script", o.script, "run the commands in FILE")->type_name("FILE");
  cli.add_option("--screenshot", o.screenshot, "save the last frame as PNG")->type_name("FILE.png");
  cli.add_option("--report", o.report, "write frame-rate and instance figures as JSON")
      ->type_name("FILE.json");
  cli.add_option("--snapshot-max-cells", a.snapshot_max_cells,
                 "host snapshots (kept every 10 s, saved as RLE after a fatal device error) skip lattices of "
                 "more cells; 0: none (default 268435456 = 2^28)")
      ->type_name("N");
  cli.add_option("--display-path", o.display_path,
                 "interop (default) or textbook: how CUDA lattices reach the screen (textbook copies "
                 "each to the host and uploads it with glTexSubImage2D, for comparison)")
      ->type_name("PATH");
  return exit_status_of("lifestreams", [&] {
    if (!parse_command_line(cli, argc, argv)) {
      std::cout << cli.help();
      return 0;
    }
    check_gui_args(a, cli, o);
    try {
      app::App application(o);
      return application.run();
    } catch (const app::ScriptFailure& f) {
      std::cerr << "lifestreams: " << f.message << "\n";
      return f.status;
    }
  });
}

}  // namespace ls
