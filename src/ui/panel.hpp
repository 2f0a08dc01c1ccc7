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
#include "ui/cross_check.hpp"
#include "ui/timeline.hpp"

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
  bool age = false;
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

/// The most instances the panel offers (cmd::Instances accepts 1..64).
inline constexpr int kMaxInstances = 64;

/// Loads the panel font (assets_dir/fonts/DejaVuSans.ttf at 15 * scale pixels) into ImGui's atlas,
/// replacing what was there; falls back to ImGui's built-in font when the file is missing (returns
/// false then). Call after ImGui::CreateContext() and before the first frame; if called again
/// later, the renderer backend must rebuild its font texture (ImGui_ImplOpenGL3_DestroyFontsTexture
/// and CreateFontsTexture).
bool load_fonts(const std::string& assets_dir, float scale);

class Panel {
 public:
  /// Draws the panel and help overlay; appends what the user asked for to `out`.
  void draw(const PanelModel& model, std::vector<Command>& out);
  void toggle_help() { show_help_ = !show_help_; }
  bool help_visible() const { return show_help_; }
  /// Width in pixels the panel takes at the window's left (the tiles use the rest).
  float width() const { return width_; }
  /// The instance that pattern loads and saves go to (chosen in the panel; clamped to the count).
  int selected_instance() const { return selected_instance_; }
  /// Why the all-instances rule text is invalid ("" when it is valid).
  const std::string& rule_error() const { return rule_error_; }
  /// The Rule (all) field's text: the instances' common rule, or "" (hint "mixed") when they differ.
  const char* rule_all_text() const { return rule_text_; }
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

  // Added for the implementation (panel.cpp).
  void draw_status(const PanelModel& model);
  void draw_scene(const PanelModel& model, std::vector<Command>& out);
  void draw_instances(const PanelModel& model, std::vector<Command>& out);
  void draw_timings(const PanelModel& model);
  void draw_patterns(const PanelModel& model, std::vector<Command>& out);

  /// A per-instance rule field: the text shown, the rule it was last synced from, its error.
  struct RuleField {
    char text[40] = "";
    char at_activation[40] = "";  // the text when the field was last activated
    Rule shown;
    bool synced = false;
    std::string error;
  };
  std::vector<InstanceStatus> statuses_;  // this frame's engine status, one per instance
  std::vector<CrossCheck> checks_;
  std::vector<TimelineBar> bars_;
  std::vector<RuleField> rule_fields_ = std::vector<RuleField>(kMaxInstances);
  TimelineView timeline_;
  Rule all_rule_shown_;  // the rule last copied into rule_text_ from the instances
  bool all_rule_synced_ = false;
  bool all_rule_mixed_ = false;       // rule_text_ was cleared because the rules differ
  char rule_at_activation_[64] = "";  // rule_text_ when its field was last activated
  int size_edit_[2] = {0, 0};         // width, height being edited
  int size_seen_[2] = {0, 0};         // the model's size when size_edit_ was last synced
  std::string size_error_;
  const Engine* named_engine_ = nullptr;  // the engine backend_ and device_ were read from
  std::string backend_;
  std::string device_;
};

}  // namespace ls::ui
