// notice.cpp — the notice over the tiles (notice.hpp).
#include "ui/notice.hpp"

#include <imgui.h>

#include <algorithm>

#include "ui/style.hpp"

namespace ls::ui {

namespace {

constexpr float kMaxWidthFraction = 0.8f;  // of the tile area: long paths wrap inside it
constexpr float kMarginLines = 1.5f;       // above the area's bottom edge, in text lines

}  // namespace

void Notice::draw(const std::string& error, const std::string& message, const Area& area, double now_s) {
  if (message != message_) {
    message_ = message;
    since_s_ = now_s;
  }
  const double age = now_s - since_s_;
  const bool message_on = !message_.empty() && age < kNoticeSeconds;
  shown_ = !error.empty() || message_on;
  if (!shown_) return;

  // An error stays opaque; a message alone fades out over its last second.
  const double fade_left = (kNoticeSeconds - age) / kNoticeFadeSeconds;
  const float alpha = error.empty() ? static_cast<float>(std::clamp(fade_left, 0.0, 1.0)) : 1.f;
  const float margin = ImGui::GetTextLineHeight() * kMarginLines;
  const ImVec2 anchor(area.x + area.w * 0.5f, area.y + area.h - margin);
  ImGui::SetNextWindowPos(anchor, ImGuiCond_Always, ImVec2(0.5f, 1.f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::PushStyleVar(ImGuiStyleVar_Alpha, alpha);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                      ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoFocusOnAppearing |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("##notice", nullptr, kFlags)) {
    // Lines as wide as the text, wrapped at most kMaxWidthFraction of the area wide.
    const float widest = std::max(ImGui::GetFontSize() * 10, area.w * kMaxWidthFraction);
    const float text_w = std::max(ImGui::CalcTextSize(error.c_str()).x,
                                  message_on ? ImGui::CalcTextSize(message_.c_str()).x : 0.f);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(widest, text_w + 1.f));
    if (!error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour::error);
      ImGui::TextWrapped("%s", error.c_str());
      ImGui::PopStyleColor();
    }
    if (message_on) ImGui::TextWrapped("%s", message_.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace ls::ui
