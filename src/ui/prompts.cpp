// prompts.cpp — implements prompts.hpp.
#include "ui/prompts.hpp"

#include <imgui.h>

#include <cstdio>

namespace ls::ui {
namespace {

constexpr ImGuiWindowFlags kPromptFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                          ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                                          ImGuiWindowFlags_NoFocusOnAppearing;

// Centred over the tiles (the whole display when the app has not said where they are), at
// `y_fraction` of their height so that two prompts do not cover each other.
void place(const PanelModel& model, float y_fraction) {
  const ImGuiIO& io = ImGui::GetIO();
  const Area a = model.tile_area.w > 0 ? model.tile_area : Area{0, 0, io.DisplaySize.x, io.DisplaySize.y};
  ImGui::SetNextWindowPos(ImVec2(a.x + a.w * 0.5f, a.y + a.h * y_fraction), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.95f);
}

}  // namespace

PromptAnswers draw_prompts(const PanelModel& model) {
  PromptAnswers answers;
  if (model.quit_pending) {
    place(model, 0.4f);
    if (ImGui::Begin("##quit_prompt", nullptr, kPromptFlags)) {
      ImGui::TextUnformatted("Quit lifestreams?");
      ImGui::TextUnformatted("Cells drawn or a pattern loaded since the last save will be lost.");
      ImGui::TextDisabled("Ctrl+Q or Enter quits; Esc stays (save from the Patterns section).");
      if (ImGui::Button("Quit")) answers.quit = true;
      ImGui::SameLine();
      if (ImGui::Button("Stay")) answers.stay = true;
    }
    ImGui::End();
  }
  if (model.job.active) {
    place(model, 0.6f);
    if (ImGui::Begin("##build_progress", nullptr, kPromptFlags)) {
      ImGui::Text("Building %s", model.job.what.c_str());
      ImGui::TextDisabled("The app stays usable meanwhile: what is on screen runs on until they are ready.");
      char overlay[32];
      std::snprintf(overlay, sizeof overlay, "%.0f%%", model.job.fraction * 100.0);
      ImGui::ProgressBar(static_cast<float>(model.job.fraction), ImVec2(ImGui::GetFontSize() * 22, 0),
                         overlay);
      if (model.job.cancellable) {
        if (ImGui::Button("Cancel")) answers.cancel_build = true;
        ImGui::SameLine();
        ImGui::TextDisabled("(Esc)");
      }
    }
    ImGui::End();
  }
  return answers;
}

}  // namespace ls::ui
