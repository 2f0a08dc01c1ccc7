// app_requests.cpp — the App's answers to what a person asks beyond commands: Esc, quitting (and
// the question before losing unsaved work), changes built beside the frame loop, and the pause
// after a host step that held the window too long.
#include <imgui.h>
#include <imgui_internal.h>  // ImGui::ClosePopupToLevel: Esc closes an open dropdown

#include <chrono>
#include <cstdio>

#include "app/app.hpp"
#include "core/error.hpp"

namespace ls::app {

void App::escape() {
  if (quit_pending_) {
    quit_pending_ = false;
  } else if (ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) {
    ImGui::ClosePopupToLevel(0, /*restore_focus_to_window_under_popup=*/true);
  } else if (panel_.help_visible()) {
    panel_.toggle_help();
  } else if (build_) {
    cancel_build();
  }
  pacer_.force();
}

void App::ask_quit() {
  // Scripts and the headless app never ask: they have no window and nobody to answer.
  if (!window_ || quit_pending_ || !scene_->unsaved()) {
    quit_ = true;
    return;
  }
  quit_pending_ = true;
  pacer_.force();
}

bool App::start_build(const Command& command) {
  std::optional<ScenePlan> plan = scene_->plan(command);
  if (!plan) return false;
  if (plan->cells < kBackgroundBuildCells || !window_) {
    apply_effects(scene_->execute(command));
  } else {
    build_ = std::make_unique<SceneBuild>(*engine_, std::move(*plan));
  }
  return true;
}

void App::poll_build() {
  // Cancelled builds stop within a chunk of rows; they are let go here, never waited for.
  std::erase_if(cancelled_builds_, [](const std::unique_ptr<SceneBuild>& b) { return b->finished(); });
  if (!build_ || !build_->finished()) return;
  std::unique_ptr<SceneBuild> done = std::move(build_);
  try {
    apply_effects(done->commit(*scene_));
    model_.error.clear();
    model_.message = done->plan().what + ": done";
  } catch (const InputError& e) {
    model_.error = e.what();
  }
  size_refusals_at_s_ = -1;
  pacer_.force();
}

void App::cancel_build() {
  if (!build_) return;
  // The first instances have nothing to go back to: they are built to the end (Ctrl+Q quits).
  if (engine_->size() == 0) return;
  const std::string what = build_->plan().what;
  build_->cancel();
  cancelled_builds_.push_back(std::move(build_));
  model_.message = what + ": cancelled, nothing changed";
  pacer_.force();
}

void App::refresh_size_refusals() {
  const double now_s = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  if (size_refusals_at_s_ >= 0 && now_s - size_refusals_at_s_ < 1.0) return;
  size_refusals_at_s_ = now_s;
  model_.size_preset_refusals.clear();
  for (int side : ui::kSizePresets) {
    std::string why;
    try {
      scene_->plan(cmd::Size{side, side});
    } catch (const InputError& e) {
      why = e.what();
    }
    model_.size_preset_refusals.push_back(why);
  }
}

void App::pause_after_long_step(double step_ms) {
  // Once per workload: a person who runs on after the pause has chosen the slow frames.
  std::uint64_t shape = static_cast<std::uint64_t>(scene_->settings().generations_per_frame);
  for (std::size_t i = 0; i < engine_->size(); ++i)
    shape = shape * 1000003u + static_cast<std::uint64_t>(scene_->lattice_width(i)) * 7919u +
            static_cast<std::uint64_t>(scene_->lattice_height(i));
  if (shape == long_step_shape_) return;
  long_step_shape_ = shape;
  apply_effects(scene_->execute(cmd::Pause{}));
  char text[160];
  std::snprintf(text, sizeof text,
                "paused: one frame's step took %.1f s on the %s. Space runs on at this size; a smaller "
                "size or fewer generations per frame keep the window responsive",
                step_ms / 1000.0, engine_->backend() == "cpu" ? "CPU" : "host");
  model_.message = text;
}

}  // namespace ls::app
