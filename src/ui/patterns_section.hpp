// patterns_section.hpp — the panel's Patterns section: the instance that loads and saves go to,
// the bundled patterns, a path field, Save and Screenshot. Each action goes out as a Command.
// Tab from the path field (the panel's last field) goes on to the section's first field rather
// than wrapping to the top of the panel and scrolling it.
#pragma once

#include <string>
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
  /// The bundled patterns as a list: a click loads one into instance `selected`.
  void draw_bundled(const PanelModel& model, int selected, std::vector<Command>& out);
  /// The path field, its Load button and the line of its error.
  void draw_path(std::size_t target, ImGuiID selected_id, std::vector<Command>& out);

  TextField path_;
  std::string loaded_;  // the bundled pattern last loaded from the list (shown selected)
};

}  // namespace ls::ui
