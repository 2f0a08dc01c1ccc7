// patterns_section.hpp — the panel's Patterns section: the instance that loads and saves go to,
// the bundled patterns, a path field, Save and Screenshot. Each action goes out as a Command.
#pragma once

#include <vector>

#include "core/command.hpp"
#include "ui/panel_model.hpp"
#include "ui/widgets.hpp"

namespace ls::ui {

class PatternsSection {
 public:
  /// Draws the section; `selected` is the target instance (typed here or clicked in Instances).
  void draw(const PanelModel& model, int& selected, std::vector<Command>& out);

 private:
  TextField path_;
};

}  // namespace ls::ui
