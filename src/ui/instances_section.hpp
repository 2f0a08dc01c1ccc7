// instances_section.hpp — the panel's Instances section: one table row per instance with its
// number (click to select it for Patterns), variant, rule, generations per launch, cross-check
// badge, live count and generation. Each change goes out as a Command.
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

 private:
  void draw_rule(const InstanceStatus& s, std::size_t index, std::vector<Command>& out);
  void draw_counts(const InstanceStatus& s);

  /// A per-instance rule field: the text shown, the rule it was last synced from, its error.
  struct RuleField {
    char text[40] = "";
    char at_activation[40] = "";  // the text when the field was last activated
    Rule shown;
    bool synced = false;
    std::string error;
  };
  std::vector<RuleField> rule_fields_ = std::vector<RuleField>(kMaxInstances);
  std::vector<TypedValue> k_typed_ = std::vector<TypedValue>(kMaxInstances);
};

}  // namespace ls::ui
