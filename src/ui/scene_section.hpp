// scene_section.hpp — the panel's Scene section: instance count, variant and rule of all
// instances, lattice size, soup density and seed, generations per frame and launch, run controls,
// stream mode, timed frames and display options. Each change goes out as a Command.
#pragma once

#include <string>
#include <vector>

#include "core/command.hpp"
#include "ui/panel_model.hpp"
#include "ui/widgets.hpp"

namespace ls::ui {

class SceneSection {
 public:
  /// Draws the section's form table into the current window.
  void draw(const PanelModel& model, std::vector<Command>& out);
  /// Why the all-instances rule text is invalid ("" when it is valid).
  const std::string& rule_error() const { return rule_error_; }
  /// The Rule (all) field's text: the instances' common rule, or "" (hint "mixed") when they differ.
  const char* rule_all_text() const { return rule_text_; }

 private:
  void draw_count(const PanelModel& model, std::vector<Command>& out);
  void draw_variant(const PanelModel& model, std::vector<Command>& out);
  void draw_rule(const PanelModel& model, std::vector<Command>& out);
  void draw_size(const PanelModel& model, std::vector<Command>& out);
  void draw_density_and_seed(const PanelModel& model, std::vector<Command>& out);
  void draw_generations(const PanelModel& model, std::vector<Command>& out);
  void draw_run_and_streams(const PanelModel& model, std::vector<Command>& out);
  void draw_timing_and_display(const PanelModel& model, std::vector<Command>& out);

  // Rule (all).
  char rule_text_[64] = "B3/S23";
  char rule_at_activation_[64] = "";  // rule_text_ when its field was last activated
  Rule all_rule_shown_;               // the rule last copied into rule_text_ from the instances
  bool all_rule_synced_ = false;
  bool all_rule_mixed_ = false;  // rule_text_ was cleared because the rules differ
  std::string rule_error_;
  // Typed fields and the sliders' typed values.
  TextField width_field_;
  TextField height_field_;
  std::string size_error_;  // the size fields' error, shown below them
  TextField seed_field_;
  TypedValue count_typed_;
  TypedValue density_typed_;
  TypedValue gpf_typed_;
  TypedValue gpl_typed_;
  TypedValue timing_typed_;
};

}  // namespace ls::ui
