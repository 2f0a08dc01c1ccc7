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
constexpr float kTipWrapEm = 30.f;    // tooltips wrap at this many font sizes: about 60 characters a line
constexpr float kTipLeastEm = 10.f;   // the least width, in font sizes, of a tooltip right of the panel
constexpr std::size_t kBadgeRowsListed = 12;  // members listed in a badge's tooltip: the rest are counted

bool escape_pressed() { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false); }

/// A tooltip's text, `error` first in the error colour, wrapped at `wrap` pixels.
void tip_text(const char* help, const std::string* error, float wrap) {
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  if (error != nullptr && !error->empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour::error);
    ImGui::TextUnformatted(error->c_str());
    ImGui::PopStyleColor();
  }
  if (help != nullptr && *help != '\0') ImGui::TextUnformatted(help);
  ImGui::PopTextWrapPos();
}

/// Opens a tooltip window at full strength (a Faded block's alpha would make it see-through).
void begin_tip() {
  ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 1.f);
  ImGui::BeginTooltip();
}

void end_tip() {
  ImGui::EndTooltip();
  ImGui::PopStyleVar();
}

float tip_wrap() { return ImGui::GetFontSize() * kTipWrapEm; }

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
  // The list opens over the table: its background is opaque and its items at full strength even
  // when the combo is Faded (a popup takes the style's alpha of the moment it opens).
  ImGui::SetNextWindowBgAlpha(1.f);
  if (ImGui::BeginCombo(id, preview)) {
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 1.f);
    for (Variant v : kAllVariants) {
      const bool selected = current != nullptr && *current == v;
      if (ImGui::Selectable(variant_label(v), selected) && !selected) {
        chosen = v;
        picked = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::PopStyleVar();
    ImGui::EndCombo();
  }
  return picked;
}

void tooltip(const char* text) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  begin_tip();
  tip_text(text, nullptr, tip_wrap());
  end_tip();
}

void setting_tip(bool gpu, const char* tip) {
  if (gpu) {
    tooltip(tip);
  } else if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    begin_tip();
    tip_text(tip, nullptr, tip_wrap());
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, colour::warn);
    tip_text(kOnGpuOnly, nullptr, tip_wrap());
    ImGui::PopStyleColor();
    end_tip();
  }
}

void field_tip(const char* help, const std::string& error, bool error_below, bool editing) {
  const bool hovered = ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled);
  const bool has_help = help != nullptr && *help != '\0';
  if (!editing && error.empty()) {
    if (hovered && has_help) tooltip(help);
    return;
  }
  if (!hovered && !editing) return;
  if (!has_help && error.empty()) return;
  // Beside the field: right of the panel (the root window: the Instances box is a child of it) at
  // the field's height, so that the field, its error line and the rows around it stay readable;
  // below the error line when the display has no room right of the panel.
  const ImGuiIO& io = ImGui::GetIO();
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImGuiWindow* panel = ImGui::GetCurrentWindow()->RootWindow;
  const ImVec2 field_min = ImGui::GetItemRectMin();
  const ImVec2 field_max = ImGui::GetItemRectMax();
  const float gap = style.ItemSpacing.x;
  const float right = panel->Pos.x + panel->Size.x + gap;
  const float pad = 2 * style.WindowPadding.x;
  float wrap = tip_wrap();
  const float text_w =
      std::max(has_help ? ImGui::CalcTextSize(help).x : 0.f, ImGui::CalcTextSize(error.c_str()).x);
  wrap = std::min(wrap, text_w + 1);
  ImVec2 pos;
  // Right of the panel wherever a tooltip kTipLeastEm wide fits there (over the tiles it hides
  // nothing of the panel); below the error line only in a display too narrow for that.
  if (io.DisplaySize.x - right - gap >= std::min(wrap, ImGui::GetFontSize() * kTipLeastEm) + pad) {
    wrap = std::min(wrap, io.DisplaySize.x - right - gap - pad);
    pos = ImVec2(right, field_min.y);
  } else {
    float y = field_max.y + style.ItemSpacing.y;
    if (error_below && !error.empty()) {
      const float width = std::max(1.f, panel->Pos.x + panel->Size.x - field_min.x);
      y += ImGui::CalcTextSize(error.c_str(), nullptr, false, width).y + style.ItemSpacing.y;
    }
    wrap = std::min(wrap, std::max(io.DisplaySize.x - field_min.x - pad, ImGui::GetFontSize() * 8));
    pos = ImVec2(field_min.x, y);
  }
  ImGui::SetNextWindowPos(pos);
  begin_tip();
  tip_text(has_help ? help : nullptr, &error, wrap);
  end_tip();
}

void form_row(const char* label) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-FLT_MIN);
}

bool same_line_if_fits(float width, float spacing) {
  if (spacing < 0) spacing = ImGui::GetStyle().ItemSpacing.x;
  // After an item the cursor stands at the start of the next line: avail reaches the right edge.
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  if (ImGui::GetItemRectMax().x + spacing + width > right) return false;
  ImGui::SameLine(0, spacing);
  return true;
}

float check_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
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

namespace {

/// The badge itself: `text` on a rounded `bg` box, one frame high.
void draw_badge_box(const char* text, ImU32 bg) {
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
}

/// "Group A at generation G: N agree, M differ, P pending" and this instance's hash.
void draw_badge_counts(std::size_t index, const std::vector<InstanceStatus>& statuses,
                       const BadgeSummary& sum, const char* group) {
  if (!sum.has_summary) {
    ImGui::Text("Group %s: instance %zu has no summary yet.", group, index);
    return;
  }
  ImGui::Text("Group %s at generation %" PRIu64 ": %d agree", group, sum.generation, sum.agree);
  if (sum.differ > 0) {
    ImGui::SameLine(0, 0);
    ImGui::PushStyleColor(ImGuiCol_Text, colour::error);
    ImGui::Text(", %d differ%s", sum.differ, sum.differ == 1 ? "s" : "");
    ImGui::PopStyleColor();
  }
  if (sum.pending > 0) {
    ImGui::SameLine(0, 0);
    ImGui::Text(", %d pending", sum.pending);
  }
  ImGui::TextDisabled("hash 0x%016" PRIx64 " (instance %zu)", statuses[index].summary->hash, index);
}

/// A member that does not agree: pending (with its newest summary's generation) or differing (in the
/// error colour, with its hash).
void draw_badge_member(std::size_t j, const InstanceStatus& s, const BadgeSummary& sum) {
  const bool pending = !sum.has_summary || !s.summary || s.summary->generation != sum.generation;
  if (!pending) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour::error);
    ImGui::Text("#%zu  %-9s  differs: hash 0x%016" PRIx64, j, variant_label(s.variant), s.summary->hash);
    ImGui::PopStyleColor();
  } else if (s.summary) {
    ImGui::TextDisabled("#%zu  %-9s  pending: newest summary at generation %" PRIu64, j,
                        variant_label(s.variant), s.summary->generation);
  } else {
    ImGui::TextDisabled("#%zu  %-9s  pending: no summary yet", j, variant_label(s.variant));
  }
}

// A group may hold 64 instances: the tooltip counts those that agree and lists only the rest.
void draw_badge_tooltip(std::size_t index, const std::vector<InstanceStatus>& statuses,
                        const std::vector<CrossCheck>& checks, const char* group) {
  const BadgeSummary sum = summarise_badge(index, statuses, checks);
  begin_tip();
  draw_badge_counts(index, statuses, sum, group);
  if (checks[index].state == CrossCheck::State::pending) {
    ImGui::TextDisabled("Waiting for the members' summaries of one generation.");
  }
  const std::size_t listed = std::min(sum.differing.size(), kBadgeRowsListed);
  for (std::size_t k = 0; k < listed; ++k) {
    const std::size_t j = sum.differing[k];
    draw_badge_member(j, statuses[j], sum);
  }
  if (sum.differing.size() > listed)
    ImGui::TextDisabled("\xE2\x80\xA6 and %zu more", sum.differing.size() - listed);
  ImGui::TextDisabled("Same origin: same size, start state and rule, not edited since.");
  end_tip();
}

}  // namespace

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
  draw_badge_box(text, bg);
  if (ImGui::IsItemHovered()) draw_badge_tooltip(index, statuses, checks, group);
}

Faded::Faded(bool on) : on_(on) {
  if (on_) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().Alpha * kFadedAlpha);
}

Faded::~Faded() {
  if (on_) ImGui::PopStyleVar();
}

bool enter_pressed() {
  return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
         ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false);
}

void keep_editing(ImGuiID id) {
  // ImGui's InputText lets go of the keyboard on Enter whatever the text. Taking the item back in
  // the same frame keeps its edit state (text, cursor) and the keyboard: no frame passes in which
  // the app would give the next keys to the tiles. A slider's text mode stays on as well (its
  // TempInputId is still this item).
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  ImGui::SetActiveID(id, window);
  ImGui::SetFocusID(id, window);
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
  f.id = gid;
  const TextEditEnd end = text_edit_end(f.text, f.at_activation, sizeof f.at_activation);
  if (red) ImGui::PopStyleColor();
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

void end_field(TextField& f, TextEditEnd end, const char* help, bool error_below) {
  if (end == TextEditEnd::applied && !f.error.empty() && enter_pressed()) keep_editing(f.id);
  field_tip(help, f.error, error_below, ImGui::IsItemActive());
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
  std::optional<double> value;
  if (!integral) {
    value = check_number_text(t.text, lo, hi, what, t.error);
  } else if (const std::optional<long long> v = check_integer_text(
                 t.text, static_cast<long long>(lo), static_cast<long long>(hi), what, t.error)) {
    value = static_cast<double>(*v);
  }
  if (!value && enter_pressed()) keep_editing(id);
  return value;
}

}  // namespace ls::ui
