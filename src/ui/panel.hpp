// panel.hpp — the Dear ImGui control panel: a window at the display's left, its width dragged at
// its right edge, holding the Scene, Instances, Per-stream timings, Timeline and Patterns
// sections; a notice over the tiles for messages and errors; the F1 help overlay.
//
// The panel never changes the app itself: it reads a PanelModel the app fills each frame
// (fill_engine_figures for the engine's part) and appends Commands (core/command.hpp) that the
// app executes — the same commands keys and scripts use. It is drawn between ImGui::NewFrame()
// and ImGui::Render().
#pragma once

#include <string>
#include <vector>

#include "core/command.hpp"
#include "ui/cross_check.hpp"
#include "ui/instances_section.hpp"
#include "ui/notice.hpp"
#include "ui/panel_model.hpp"
#include "ui/patterns_section.hpp"
#include "ui/prompts.hpp"
#include "ui/scene_section.hpp"
#include "ui/timeline.hpp"

namespace ls::ui {

/// Loads the panel font (assets_dir/fonts/DejaVuSans.ttf at 15 * scale pixels) into ImGui's atlas,
/// replacing what was there; falls back to ImGui's built-in font when the file is missing (returns
/// false then). Call after ImGui::CreateContext() and before the first frame; if called again
/// later, the renderer backend must rebuild its font texture (ImGui_ImplOpenGL3_DestroyFontsTexture
/// and CreateFontsTexture).
bool load_fonts(const std::string& assets_dir, float scale);

/// The panel's width limits: at scale 1 it opens kDefaultWidth wide, never wider than
/// kDefaultWidthFraction of the display; opened or dragged, it stays within kMinWidth (or the
/// largest allowed, when that is less) and kMaxWidthFraction of the display. kMinWidth is what the
/// panel's forms need at scale 1: the Scene labels beside the Size fields, each holding the largest
/// side whole, and the totals' labels beside their figures; the Instances and Per-stream timings
/// tables scroll sideways in a narrower panel.
inline constexpr float kDefaultWidth = 560.f;
inline constexpr float kDefaultWidthFraction = 0.45f;
inline constexpr float kMinWidth = 360.f;
inline constexpr float kMaxWidthFraction = 0.6f;

class Panel {
 public:
  /// Draws the panel (when visible), the notice and the help overlay; appends what the user asked
  /// for to `out`.
  void draw(const PanelModel& model, std::vector<Command>& out);

  /// Width in pixels the panel takes at the display's left (the tiles use the rest): 0 while
  /// hidden. Within its limits for the display of the current ImGui frame.
  float width() const;
  /// The width the person chose by dragging the panel's edge (or set_width), 0 while they have
  /// not: what the app remembers across runs and gives back to set_width.
  float chosen_width() const { return chosen_width_; }
  /// Sets the width (clamped to the display when drawn); 0 or less: back to the default.
  void set_width(float width) { chosen_width_ = width > 0 ? width : 0; }
  /// Hidden, the panel draws nothing and width() is 0, so the tiles take the whole window.
  void set_visible(bool visible) { visible_ = visible; }
  void toggle_visible() { visible_ = !visible_; }
  bool visible() const { return visible_; }

  void toggle_help() { show_help_ = !show_help_; }
  bool help_visible() const { return show_help_; }
  /// The answers given to the quit question and the progress notice in the newest draw().
  const PromptAnswers& prompt_answers() const { return prompt_answers_; }
  /// Whether the notice over the tiles was drawn in the newest frame.
  bool notice_shown() const { return notice_.shown(); }
  /// The instance that pattern loads and saves go to (chosen in the panel; clamped to the count).
  int selected_instance() const { return selected_instance_; }
  /// Why the all-instances rule text is invalid ("" when it is valid).
  const std::string& rule_error() const { return scene_.rule_error(); }
  /// Why instance `index`'s rule text is invalid ("" when it is valid).
  const std::string& instance_rule_error(std::size_t index) const { return instances_.rule_error(index); }
  /// Why instance `index`'s GPU text is invalid ("" when it is valid).
  const std::string& instance_devices_error(std::size_t index) const {
    return instances_.devices_error(index);
  }
  /// The Rule (all) field's text: the instances' common rule, or "" (hint "mixed") when they differ.
  const char* rule_all_text() const { return scene_.rule_all_text(); }
  /// Applies the monitor's content scale to fonts and sizes (call once after ImGui init and when
  /// the scale changes).
  void set_scale(float scale);

 private:
  /// The width for a display `display_w` wide.
  float width_for(float display_w) const;
  void draw_header(const PanelModel& model);
  /// The drag handle on the panel's right edge (a thin window of its own above the panel).
  void draw_edge(float width, float height);

  bool visible_ = true;
  bool show_help_ = false;
  float chosen_width_ = 0;  // 0: the default
  float drag_start_w_ = 0;  // the width when the edge drag began
  float scale_ = 1.f;
  int selected_instance_ = 0;
  std::vector<CrossCheck> checks_;
  SceneSection scene_;
  InstancesSection instances_;
  PatternsSection patterns_;
  TimelineView timeline_;
  Notice notice_;
  PromptAnswers prompt_answers_;
};

}  // namespace ls::ui
