// panel.hpp — the Dear ImGui control panel: scene controls, per-stream timings, the frame
// timeline, the cross-check badge, patterns, errors and the F1 help overlay.
//
// The panel never changes the app itself: it reads a PanelModel the app fills each frame and
// appends Commands (core/command.hpp) that the app executes — the same commands keys and scripts
// use. It is drawn between ImGui::NewFrame() and ImGui::Render().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/command.hpp"
#include "core/engine.hpp"
#include "core/stats.hpp"

namespace ls::ui {

/// Everything the panel shows, filled by the app before draw().
struct PanelModel {
  const Engine* engine = nullptr;  // status(i), frame_timings(), timeline(), backend(), device_name()
  // The scene's settings (what new or reset instances get).
  int width = 1024;
  int height = 1024;
  double density = 0.25;
  std::uint64_t seed = 1;
  bool same_seed = true;
  int generations_per_frame = 1;
  bool paused = false;
  bool grid = true;
  // Display and frame figures.
  bool windowed = true;  // false in --headless
  bool vsync = true;
  double fps = 0;
  StatSummary cpu_frame_ms;
  std::uint64_t host_syncs_per_frame = 0;
  // Tile under the mouse (instance index), or -1.
  int hovered_instance = -1;
  // Bundled patterns: file names in assets/patterns (e.g. "glider.rle") and the folder they are in.
  std::vector<std::string> bundled_patterns;
  std::string patterns_dir;
  // Newest error (shown until the next successful command) and an informational status line.
  std::string error;
  std::string message;
};

class Panel {
 public:
  /// Draws the panel and help overlay; appends what the user asked for to `out`.
  void draw(const PanelModel& model, std::vector<Command>& out);
  void toggle_help() { show_help_ = !show_help_; }
  bool help_visible() const { return show_help_; }
  /// Width in pixels the panel takes at the window's left (the tiles use the rest).
  float width() const { return width_; }
  /// Applies the monitor's content scale to fonts and sizes (call once after ImGui init and when
  /// the scale changes).
  void set_scale(float scale);

 private:
  bool show_help_ = false;
  float width_ = 420.f;
  float scale_ = 1.f;
  int selected_instance_ = 0;
  char rule_text_[64] = "B3/S23";
  char path_text_[512] = "";
  std::string rule_error_;
};

}  // namespace ls::ui
