// help.hpp — the F1 help overlay: every key and mouse action of the desktop app.
#pragma once

#include <cstddef>

namespace ls::ui {

struct HelpEntry {
  const char* input;   // e.g. "Space", "Ctrl + left-drag"
  const char* action;  // what it does
};

/// The keys and mouse actions, in the order the overlay lists them.
const HelpEntry* help_entries(std::size_t& count);

/// Draws the overlay centred on the display while *open; its close button clears *open.
void draw_help(bool* open);

}  // namespace ls::ui
