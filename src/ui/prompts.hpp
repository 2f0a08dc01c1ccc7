// prompts.hpp — the notices that wait for an answer, over the tiles: the question before quitting
// with unsaved work, and the progress of a change built beside the frame loop with its Cancel.
#pragma once

#include "ui/panel_model.hpp"

namespace ls::ui {

/// What the person answered in the newest frame.
struct PromptAnswers {
  bool quit = false;          // "Quit" on the quit question
  bool stay = false;          // "Stay" on the quit question
  bool cancel_build = false;  // "Cancel" on the progress notice
};

/// Draws the quit question (model.quit_pending) and the progress notice (model.job) centred over
/// model.tile_area; nothing when neither is due.
PromptAnswers draw_prompts(const PanelModel& model);

}  // namespace ls::ui
