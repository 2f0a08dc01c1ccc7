// instances_section.hpp — the panel's Instances section: one table row per instance with its
// number (click to select it for Patterns), variant, rule, generations per launch, where it runs
// (the CPU or its GPUs), cross-check badge, live count and generation. Each change goes out as a
// Command. A panel too narrow for the columns scrolls the table sideways.
#pragma once

#include <string>
#include <vector>

#include "core/command.hpp"
#include "ui/cross_check.hpp"
#include "ui/panel_model.hpp"
#include "ui/widgets.hpp"

namespace ls::ui {

class InstancesSection {
 public:
  /// Draws the table; `checks` is the cross-check of model.statuses; `selected` the instance
  /// pattern loads and saves go to (a click on a row's number changes it).
  void draw(const PanelModel& model, const std::vector<CrossCheck>& checks, int& selected,
            std::vector<Command>& out);
  /// Why instance `index`'s rule text is invalid ("" when it is valid); shown as the field's
  /// colour and tooltip.
  const std::string& rule_error(std::size_t index) const {
    return rule_fields_[index % rule_fields_.size()].error;
  }
  /// Why instance `index`'s GPU text is invalid ("" when it is valid), as rule_error.
  const std::string& devices_error(std::size_t index) const {
    return device_fields_[index % device_fields_.size()].error;
  }

 private:
  /// One instance's row: number, variant, rule, k, where it runs, badge, live count, generation.
  void draw_row(const PanelModel& model, const std::vector<CrossCheck>& checks, int i, int& selected,
                float row_h, std::vector<Command>& out);
  void draw_rule(const InstanceStatus& s, std::size_t index, std::vector<Command>& out);
  /// The k column: a field for generations per launch where the variant iterates, else "1".
  void draw_generations_per_launch(const InstanceStatus& s, std::size_t index, bool gpu,
                                   std::vector<Command>& out);
  void draw_counts(const InstanceStatus& s);
  /// The "runs on" column: "GPU" or "GPUs" and the instance's devices as a field ("1", "0,1");
  /// Enter with another list issues cmd::Devices, the command the script line `devices I LIST` is.
  /// Host memory (the CPU engine): "CPU", fixed.
  void draw_devices(const std::vector<int>& devices, std::size_t index, std::vector<Command>& out);

  /// A per-instance rule field: the text shown, the rule it was last synced from, its error.
  struct RuleField {
    char text[40] = "";
    char at_activation[40] = "";  // the text when the field was last activated
    Rule shown;
    bool synced = false;
    std::string error;
  };
  float table_h_ = 0;   // the table's height in the last frame (the box around it takes it)
  int shown_rows_ = 0;  // the rows it showed then
  // One per instance, grown with the table (Engine::max_instances per engine).
  std::vector<RuleField> rule_fields_ = std::vector<RuleField>(kMaxInstancesPerDevice);
  std::vector<TypedValue> k_typed_ = std::vector<TypedValue>(kMaxInstancesPerDevice);
  std::vector<TextField> device_fields_ = std::vector<TextField>(kMaxInstancesPerDevice);
};

}  // namespace ls::ui
