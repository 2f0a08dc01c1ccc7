// notice.cpp — the notice over the tiles (notice.hpp).
#include "ui/notice.hpp"

#include <imgui.h>

#include <algorithm>

#include "ui/style.hpp"

namespace ls::ui {

namespace {

constexpr float kMaxWidthFraction = 0.8f;  // of the tile area: long text wraps inside it
constexpr float kMarginLines = 1.5f;       // above the area's bottom edge, in text lines

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }

bool looks_like_path(std::string_view w) {
  if (w.size() > 1 && w.front() == '/') return true;
  if (w.starts_with("./") || w.starts_with("../") || w.starts_with("~/")) return true;
  const std::size_t slash = w.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  // A relative path names a file with an extension (glider.rle): a rule such as B3/S23 has none.
  const std::string_view name = w.substr(slash + 1);
  const std::size_t dot = name.rfind('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < name.size() &&
         ((name[dot + 1] >= 'a' && name[dot + 1] <= 'z') || (name[dot + 1] >= 'A' && name[dot + 1] <= 'Z'));
}

/// The file name of a path (a folder's own name, for one ending in '/').
std::string_view file_name(std::string_view path) {
  std::string_view p = path;
  while (p.size() > 1 && p.back() == '/') p.remove_suffix(1);
  const std::size_t slash = p.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? p : p.substr(slash + 1);
  return name.empty() ? path : name;
}

void append_word(std::string& out, std::string_view w) {
  // Punctuation around a word is not part of a path: "(/a/b.rle)," keeps its brackets and comma.
  std::size_t lead = 0;
  while (lead < w.size() && (w[lead] == '(' || w[lead] == '[')) ++lead;
  std::size_t end = w.size();
  while (end > lead && (w[end - 1] == ',' || w[end - 1] == ';' || w[end - 1] == ':' || w[end - 1] == ')' ||
                        w[end - 1] == ']' || (w[end - 1] == '.' && end - 1 > lead && w[end - 2] != '.')))
    --end;
  const std::string_view core = w.substr(lead, end - lead);
  out.append(w.substr(0, lead));
  out.append(looks_like_path(core) ? file_name(core) : core);
  out.append(w.substr(end));
}

}  // namespace

std::string short_paths(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (is_space(c)) {
      out.push_back(c);
      ++i;
      continue;
    }
    // A quoted span may hold blanks: it is one path or none.
    if (c == '\'' || c == '"') {
      const std::size_t close = text.find(c, i + 1);
      if (close != std::string_view::npos) {
        const std::string_view inner = text.substr(i + 1, close - i - 1);
        out.push_back(c);
        out.append(looks_like_path(inner) ? file_name(inner) : inner);
        out.push_back(c);
        i = close + 1;
        continue;
      }
    }
    std::size_t end = i;
    while (end < text.size() && !is_space(text[end])) ++end;
    append_word(out, text.substr(i, end - i));
    i = end;
  }
  return out;
}

void Notice::draw(const std::string& error, const std::string& message, const Area& area, double now_s) {
  if (message != message_) {
    message_ = message;
    message_shown_ = short_paths(message);
    since_s_ = now_s;
  }
  if (error != error_seen_) {
    error_seen_ = error;
    error_shown_ = short_paths(error);
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
    const float text_w = std::max(ImGui::CalcTextSize(error_shown_.c_str()).x,
                                  message_on ? ImGui::CalcTextSize(message_shown_.c_str()).x : 0.f);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(widest, text_w + 1.f));
    if (!error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour::error);
      ImGui::TextWrapped("%s", error_shown_.c_str());
      ImGui::PopStyleColor();
    }
    if (message_on) ImGui::TextWrapped("%s", message_shown_.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace ls::ui
