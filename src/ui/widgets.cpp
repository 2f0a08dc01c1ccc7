// widgets.cpp — the panel's small drawing helpers and edited fields (widgets.hpp).
#include "ui/widgets.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "ui/format.hpp"
#include "ui/style.hpp"
#include "ui/validate.hpp"

namespace ls::ui {

namespace {

constexpr float kFadedAlpha = 0.45f;  // settings that do nothing on this engine: readable, clearly secondary

bool escape_pressed() { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false); }

}  // namespace

const char* variant_label(Variant v) {
  // Built once: variant_name gives string_views, ImGui wants null-terminated text.
  static const std::array<std::string, kAllVariants.size()> names = [] {
    std::array<std::string, kAllVariants.size()> n;
    for (std::size_t i = 0; i < kAllVariants.size(); ++i) n[i] = std::string(variant_name(kAllVariants[i]));
    return n;
  }();
  for (std::size_t i = 0; i < kAllVariants.size(); ++i) {
    if (kAllVariants[i] == v) return names[i].c_str();
  }
  return "?";
}

bool variant_combo(const char* id, const char* preview, const Variant* current, Variant& chosen) {
  bool picked = false;
  if (ImGui::BeginCombo(id, preview)) {
    for (Variant v : kAllVariants) {
      const bool selected = current != nullptr && *current == v;
      if (ImGui::Selectable(variant_label(v), selected) && !selected) {
        chosen = v;
        picked = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return picked;
}

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

void form_row(const char* label) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-FLT_MIN);
}

void error_text(const std::string& error) {
  if (error.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, colour::error);
  ImGui::TextWrapped("%s", error.c_str());
  ImGui::PopStyleColor();
}

const char* format_count(std::uint64_t v, char* out, std::size_t size) {
  if (v < 1'000'000ull) {
    std::snprintf(out, size, "%" PRIu64, v);
    return out;
  }
  return format_si(static_cast<double>(v), out, size);
}

const char* format_index(int v, char* out, std::size_t size) {
  char digits[12];
  int n = 0;
  unsigned u = v < 0 ? 0u : static_cast<unsigned>(v);
  do {
    digits[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0 && n < 11);
  std::size_t pos = 0;
  while (n > 0 && pos + 1 < size) out[pos++] = digits[--n];
  out[pos] = '\0';
  return out;
}

float ascii_width(const char* text) {
  const ImFont* font = ImGui::GetFont();
  float w = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (static_cast<unsigned char>(*c) >= 0x80) return ImGui::CalcTextSize(text).x;
    w += font->GetCharAdvance(static_cast<ImWchar>(*c));
  }
  return w * ImGui::GetFontSize() / font->FontSize;
}

void text_right(const char* text) {
  const float w = ImGui::CalcTextSize(text).x;
  const float avail = ImGui::GetContentRegionAvail().x;
  if (avail > w) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - w);
  ImGui::TextUnformatted(text);
}

void draw_badge(std::size_t index, const std::vector<InstanceStatus>& statuses,
                const std::vector<CrossCheck>& checks) {
  const CrossCheck& c = checks[index];
  char group[8];
  group_label(c.group, group, sizeof group);
  char text[32];
  ImU32 bg = 0;
  switch (c.state) {
    case CrossCheck::State::none:
      ImGui::TextDisabled("\xE2\x80\x94");  // em dash
      if (c.group < 0) {
        tooltip("No other instance started from this state (same size, soup or pattern, rule).");
      } else if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Group %s: no other member has reached this generation.", group);
      }
      return;
    case CrossCheck::State::pending:
      std::snprintf(text, sizeof text, "%s \xE2\x80\xA6", group);
      bg = colour::pending;
      break;
    case CrossCheck::State::agree:
      std::snprintf(text, sizeof text, "%s agree", group);
      bg = colour::agree;
      break;
    case CrossCheck::State::diverged:
      std::snprintf(text, sizeof text, "%s DIVERGED", group);
      bg = colour::diverged;
      break;
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 ts = ImGui::CalcTextSize(text);
  const ImVec2 pad(style.FramePadding.x * 0.8f, style.FramePadding.y * 0.5f);
  const ImVec2 size(ts.x + 2 * pad.x, ts.y + 2 * pad.y);
  ImVec2 p = ImGui::GetCursorScreenPos();
  p.y += std::max(0.f, (ImGui::GetFrameHeight() - size.y) * 0.5f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), bg, style.FrameRounding);
  dl->AddText(ImVec2(p.x + pad.x, p.y + pad.y), colour::badge_text, text);
  ImGui::Dummy(ImVec2(size.x, ImGui::GetFrameHeight()));
  if (!ImGui::IsItemHovered()) return;

  ImGui::BeginTooltip();
  if (c.state == CrossCheck::State::pending) {
    ImGui::Text("Group %s: waiting for the summaries of one generation.", group);
  } else {
    ImGui::Text("Group %s at generation %" PRIu64 ":", group, statuses[index].summary->generation);
    const std::uint64_t gen = statuses[index].summary->generation;
    for (std::size_t j = 0; j < statuses.size(); ++j) {
      if (checks[j].group != c.group || !statuses[j].summary || statuses[j].summary->generation != gen)
        continue;
      const bool same = statuses[j].summary->hash == statuses[index].summary->hash;
      ImGui::PushStyleColor(ImGuiCol_Text, same ? colour::good : colour::error);
      ImGui::Text("#%zu  %-9s  hash 0x%016" PRIx64, j, variant_label(statuses[j].variant),
                  statuses[j].summary->hash);
      ImGui::PopStyleColor();
    }
  }
  ImGui::TextDisabled("Same origin: same size, start state and rule, not edited since.");
  ImGui::EndTooltip();
}

Faded::Faded(bool on) : on_(on) {
  if (on_) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().Alpha * kFadedAlpha);
}

Faded::~Faded() {
  if (on_) ImGui::PopStyleVar();
}

TextEditEnd text_edit_end(const char* text, char* at_activation, std::size_t size) {
  if (ImGui::IsItemActivated()) std::snprintf(at_activation, size, "%s", text);
  if (!ImGui::IsItemDeactivated()) return ImGui::IsItemEdited() ? TextEditEnd::edited : TextEditEnd::none;
  if (escape_pressed() || std::strcmp(text, at_activation) == 0) return TextEditEnd::cancelled;
  return ImGui::IsItemDeactivatedAfterEdit() ? TextEditEnd::applied : TextEditEnd::cancelled;
}

TextEditEnd text_field(const char* id, const char* hint, TextField& f, const char* state) {
  const ImGuiID gid = ImGui::GetID(id);
  if (state != nullptr && ImGui::GetActiveID() != gid && (!f.synced || std::strcmp(f.shown, state) != 0)) {
    std::snprintf(f.text, sizeof f.text, "%s", state);
    std::snprintf(f.shown, sizeof f.shown, "%s", state);
    f.synced = true;
    f.error.clear();
  }
  // The colour is pushed and popped on one decision: the caller's check sets or clears the error
  // between the two, and an unbalanced pop is an ImGui assertion.
  const bool red = !f.error.empty();
  if (red) ImGui::PushStyleColor(ImGuiCol_FrameBg, colour::error_field);
  ImGui::InputTextWithHint(id, hint, f.text, sizeof f.text);
  const TextEditEnd end = text_edit_end(f.text, f.at_activation, sizeof f.at_activation);
  if (red) ImGui::PopStyleColor();
  if (!f.error.empty() && (ImGui::IsItemHovered() || ImGui::IsItemActive())) {
    ImGui::SetTooltip("%s", f.error.c_str());
  }
  if (end == TextEditEnd::cancelled) {
    f.synced = false;  // show the state again
    if (state == nullptr) f.error.clear();
  } else if (end == TextEditEnd::applied) {
    // A click elsewhere ends the edit in the frame of the click (Enter in its own frame, Tab in
    // the next one, when the next field takes the keyboard).
    f.left_by_click =
        ImGui::IsMouseClicked(ImGuiMouseButton_Left) || ImGui::IsMouseClicked(ImGuiMouseButton_Right);
  }
  return end;
}

std::optional<double> typed_value_end(ImGuiID id, TypedValue& t, double lo, double hi, bool integral,
                                      const char* what) {
  // The text being typed lives in ImGui's one InputText state (its UTF-8 copy is not kept up to
  // date on every path; the wide text is). Copied every frame: when Tab ends the edit, the next
  // field may already hold that state.
  if (const ImGuiInputTextState* st = ImGui::GetInputTextState(id); st != nullptr && st->TextW.Size > 0) {
    ImTextStrToUtf8(t.text, static_cast<int>(sizeof t.text), st->TextW.Data, st->TextW.Data + st->CurLenW);
    std::snprintf(t.at_activation, sizeof t.at_activation, "%s",
                  st->InitialTextA.Size > 0 ? st->InitialTextA.Data : "");
  }
  if (!ImGui::IsItemDeactivated()) return std::nullopt;
  // Tabbing through, or typing back what was there, changes nothing (the shown text may be a
  // label such as "every frame", not a number).
  if (escape_pressed() || std::strcmp(t.text, t.at_activation) == 0) {
    t.error.clear();
    return std::nullopt;
  }
  if (!integral) return check_number_text(t.text, lo, hi, what, t.error);
  const std::optional<long long> v =
      check_integer_text(t.text, static_cast<long long>(lo), static_cast<long long>(hi), what, t.error);
  std::optional<double> value;
  if (v) value = static_cast<double>(*v);
  return value;
}

}  // namespace ls::ui
