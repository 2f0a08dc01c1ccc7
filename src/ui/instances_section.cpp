// instances_section.cpp — the panel's Instances table (instances_section.hpp).
#include "ui/instances_section.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // GetActiveID: whether a text field is being edited

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "ui/format.hpp"
#include "ui/style.hpp"
#include "ui/validate.hpp"

namespace ls::ui {

namespace {

constexpr int kTableRowsShown = 12;  // taller tables scroll
constexpr int kColumns = 8;
constexpr float kCellPadShare = 0.6f;  // of the style's cell padding: the columns sit closer here
constexpr int kVariantColumn = 1;
constexpr int kRuleColumn = 2;
constexpr int kLaunchColumn = 3;
constexpr const char* kNames[kColumns] = {"#", "variant", "rule", "k", "runs on", "check", "live", "gen"};
constexpr const char* kHeaderTips[kColumns] = {
    "instance (click to select it for Patterns)",
    "variant (kernel)",
    "rule: type B/S or S/B, Enter applies",
    "generations per launch (iterate, bitpacked)",
    "where the instance runs: the CPU, or its GPU(s); on a GPU engine type another list (0 or 0,1) "
    "and Enter to move it there (as the script's devices I LIST)",
    "cross-check: instances of one start state (group letter) must agree at equal generations",
    "population (live cells) of the newest summary; greyed where it is paced or late (older than the "
    "generation beside it)",
    "generation: the live count's, or the engine's where that count is old (as on the tile labels)",
};

Target one(std::size_t index) { return Target{false, index}; }

/// The column widths and the table's size in the current style.
struct TableLayout {
  float widths[kColumns] = {};
  float needed = 0;  // the table's width
  bool scroll_x = false;
  bool scroll_y = false;
  int shown = 0;     // rows shown without scrolling
  float row_h = 0;   // a row's height, cell padding included
  float rows_h = 0;  // the header and the shown rows
};

/// The check column as wide as the widest badge shown (a divergence widens it).
float badge_width(const std::vector<CrossCheck>& checks) {
  float badge_w = ImGui::CalcTextSize("A agree").x;
  for (const CrossCheck& c : checks) {
    if (c.state == CrossCheck::State::diverged)
      badge_w = std::max(badge_w, ImGui::CalcTextSize("AA DIVERGED").x);
    if (c.group >= 26) badge_w = std::max(badge_w, ImGui::CalcTextSize("AA agree").x);
  }
  return badge_w;
}

// Every column keeps the width its content needs, the rule column at least a long rule whole
// and otherwise what the others leave; a panel narrower than their sum scrolls the table
// sideways.
TableLayout table_layout(const PanelModel& model, const std::vector<CrossCheck>& checks, int count) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float pad = style.FramePadding.x * 2;
  const bool any_gpu = std::any_of(model.instance_devices.begin(), model.instance_devices.end(),
                                   [](const std::vector<int>& d) { return !d.empty(); });
  TableLayout t;
  const float content[kColumns] = {
      ImGui::CalcTextSize("00").x,
      ImGui::CalcTextSize("bitpacked").x + ImGui::GetFrameHeight() + pad,
      ImGui::CalcTextSize("B3678/S34678").x + pad,
      ImGui::CalcTextSize("64").x + pad,
      any_gpu ? ImGui::CalcTextSize("GPUs").x + style.ItemInnerSpacing.x + ImGui::CalcTextSize("0,1").x + pad
              : ImGui::CalcTextSize("CPU").x,
      badge_width(checks) + style.FramePadding.x * 1.6f,
      ImGui::CalcTextSize("999999").x,
      ImGui::CalcTextSize("999999").x,
  };
  t.needed = 2 * style.CellPadding.x * (kColumns - 1);
  for (int c = 0; c < kColumns; ++c) {
    t.widths[c] = std::ceil(std::max(content[c], ImGui::CalcTextSize(kNames[c]).x));
    t.needed += t.widths[c];
  }
  t.scroll_y = count > kTableRowsShown;
  const float visible =
      std::floor(ImGui::GetContentRegionAvail().x - (t.scroll_y ? style.ScrollbarSize : 0.f));
  t.scroll_x = t.needed > visible;
  if (!t.scroll_x) {
    t.widths[kRuleColumn] += visible - t.needed;
    t.needed = visible;
  }
  t.row_h = ImGui::GetFrameHeight() + 2 * style.CellPadding.y;
  const float head_h = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  t.shown = std::min(count, kTableRowsShown);
  t.rows_h = head_h + t.row_h * static_cast<float>(t.shown) + 2;
  return t;
}

/// The header row; the variant and k headers fade when the engine is not a GPU's.
void draw_header_row(bool gpu) {
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < kColumns; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    const bool cuda_only = c == kVariantColumn || c == kLaunchColumn;
    const Faded faded(cuda_only && !gpu);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    if (cuda_only) {
      setting_tip(gpu, kHeaderTips[c]);
    } else {
      tooltip(kHeaderTips[c]);
    }
  }
}

/// The "#" column: the instance's number, a click selects it for Patterns.
void draw_number(int i, int& selected) {
  char label[16];
  std::snprintf(label, sizeof label, "%d", i);
  ImGui::AlignTextToFramePadding();
  if (ImGui::Selectable(label, i == selected)) selected = i;
  tooltip("Select: pattern loads and saves go to this instance.");
}

/// The variant column: a combo of the kernels.
void draw_variant(const InstanceStatus& s, std::size_t index, bool gpu, std::vector<Command>& out) {
  const Faded faded(!gpu);
  ImGui::SetNextItemWidth(-FLT_MIN);
  Variant chosen{};
  if (variant_combo("##variant", variant_label(s.variant), &s.variant, chosen)) {
    out.push_back(cmd::SetVariant{one(index), chosen});
  }
  setting_tip(gpu, "The kernel this instance runs (V over its tile cycles it).");
}

}  // namespace

void InstancesSection::draw(const PanelModel& model, const std::vector<CrossCheck>& checks, int& selected,
                            std::vector<Command>& out) {
  const std::vector<InstanceStatus>& statuses = model.statuses;
  const int count = static_cast<int>(statuses.size());
  if (rule_fields_.size() < statuses.size()) rule_fields_.resize(statuses.size());
  if (k_typed_.size() < statuses.size()) k_typed_.resize(statuses.size());
  if (device_fields_.size() < statuses.size()) device_fields_.resize(statuses.size());
  // On the CPU engine the variant and k are kept for a GPU; every variant runs one reference code.
  const bool gpu = runs_on_gpu(model);
  // Narrow cell padding: every column shows at the panel's default width.
  ImGui::PushStyleVar(
      ImGuiStyleVar_CellPadding,
      ImVec2(std::round(ImGui::GetStyle().CellPadding.x * kCellPadShare), ImGui::GetStyle().CellPadding.y));
  const ImGuiStyle& style = ImGui::GetStyle();
  const TableLayout t = table_layout(model, checks, count);
  // Sideways scrolling comes from a child window of our own around the table: unlike a table's
  // ScrollX window it is flattened for navigation, so Tab goes on from the Scene's fields into the
  // rows and on to Patterns, as in the rest of the panel. Its items keep the panel's ids.
  const ImGuiID ids = ImGui::GetCurrentWindow()->IDStack.back();
  const float table_h = table_h_ > 0 && t.shown == shown_rows_ ? table_h_ : t.rows_h;
  const float box_h = table_h + (t.scroll_x ? style.ScrollbarSize : 0.f);
  ImGui::BeginChild("##instances_box", ImVec2(0, box_h), false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NavFlattened);
  ImGui::PushOverrideID(ids);
  ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg |
                          ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoPadOuterX |
                          ImGuiTableFlags_NoClip;
  if (t.scroll_y) flags |= ImGuiTableFlags_ScrollY;
  if (ImGui::BeginTable("##instances", kColumns, flags, ImVec2(t.needed, t.scroll_y ? t.rows_h : 0.f))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (int c = 0; c < kColumns; ++c)
      ImGui::TableSetupColumn(kNames[c], ImGuiTableColumnFlags_WidthFixed, t.widths[c]);
    draw_header_row(gpu);
    ImGuiListClipper clipper;
    clipper.Begin(count, t.row_h);
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i)
        draw_row(model, checks, i, selected, t.row_h, out);
    ImGui::EndTable();
    table_h_ = ImGui::GetItemRectSize().y;
    shown_rows_ = t.shown;
  }
  ImGui::PopID();
  ImGui::EndChild();
  ImGui::PopStyleVar();
}

void InstancesSection::draw_row(const PanelModel& model, const std::vector<CrossCheck>& checks, int i,
                                int& selected, float row_h, std::vector<Command>& out) {
  const std::size_t idx = static_cast<std::size_t>(i);
  const InstanceStatus& s = model.statuses[idx];
  const bool gpu = runs_on_gpu(model);
  ImGui::TableNextRow(ImGuiTableRowFlags_None, row_h - 2 * ImGui::GetStyle().CellPadding.y);
  if (i == model.hovered_instance) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, colour::hover_row);
  ImGui::PushID(i);
  ImGui::TableNextColumn();
  draw_number(i, selected);
  ImGui::TableNextColumn();
  draw_variant(s, idx, gpu, out);
  ImGui::TableNextColumn();
  draw_rule(s, idx, out);
  ImGui::TableNextColumn();
  draw_generations_per_launch(s, idx, gpu, out);
  ImGui::TableNextColumn();
  static const std::vector<int> kHost;
  draw_devices(idx < model.instance_devices.size() ? model.instance_devices[idx] : kHost, idx, out);
  ImGui::TableNextColumn();
  draw_badge(idx, model.statuses, checks);
  draw_counts(s);
  ImGui::PopID();
}

void InstancesSection::draw_generations_per_launch(const InstanceStatus& s, std::size_t index, bool gpu,
                                                   std::vector<Command>& out) {
  if (!variant_iterates(s.variant)) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("1");
    return;
  }
  const Faded faded(!gpu);
  ImGui::SetNextItemWidth(-FLT_MIN);
  TypedValue& typed = k_typed_[index % k_typed_.size()];
  const std::optional<int> k =
      edit_value("##k", s.generations_per_launch, 1, kMaxGenerationsPerLaunch, "k", typed, [](int* v) {
        return ImGui::DragInt("##k", v, 0.2f, 1, kMaxGenerationsPerLaunch, "%d",
                              ImGuiSliderFlags_AlwaysClamp);
      });
  if (k) out.push_back(cmd::GensPerLaunch{one(index), *k});
  // The rows keep one height: a bad typed k says why in the tooltip.
  constexpr const char* kTip = "Generations per launch (drag, or double-click to type)";
  if (!typed.error.empty() || typed.was_typing) {
    field_tip(kTip, typed.error, false, typed.was_typing);
  } else {
    setting_tip(gpu, kTip);
  }
}

void InstancesSection::draw_rule(const InstanceStatus& s, std::size_t index, std::vector<Command>& out) {
  RuleField& f = rule_fields_[index % rule_fields_.size()];
  const ImGuiID id = ImGui::GetID("##rule");
  if (ImGui::GetActiveID() != id && (!f.synced || f.shown != s.rule)) {
    std::snprintf(f.text, sizeof f.text, "%s", s.rule.to_string().c_str());
    f.shown = s.rule;
    f.synced = true;
    f.error.clear();
  }
  // The colour is pushed and popped on one decision: typing sets or clears the error between
  // the two, and an unbalanced pop is an ImGui assertion (an abort in Debian's build).
  const bool red = !f.error.empty();
  if (red) ImGui::PushStyleColor(ImGuiCol_FrameBg, colour::error_field);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::InputText("##rule", f.text, sizeof f.text)) check_rule_text(f.text, f.error);
  const TextEditEnd end = text_edit_end(f.text, f.at_activation, sizeof f.at_activation);
  if (red) ImGui::PopStyleColor();
  if (end == TextEditEnd::cancelled) {
    f.synced = false;  // show the instance's rule again
  } else if (end == TextEditEnd::applied) {
    if (const std::optional<Rule> rule = check_rule_text(f.text, f.error)) {
      if (*rule != s.rule) out.push_back(cmd::SetRule{one(index), *rule});
    } else if (enter_pressed()) {
      keep_editing(id);
    }
  }
  // The rows keep one height: the error is in the tooltip, beside the panel.
  field_tip("This instance's rule: B/S (B36/S23), S/B (23/36) or a name; Enter applies it.", f.error, false,
            ImGui::IsItemActive());
}

void InstancesSection::draw_devices(const std::vector<int>& devices, std::size_t index,
                                    std::vector<Command>& out) {
  ImGui::AlignTextToFramePadding();
  if (devices.empty()) {
    ImGui::TextUnformatted("CPU");
    tooltip("The CPU engine runs this instance in host memory.");
    return;
  }
  // "GPU 0" or "GPUs 0,1": the word, then the list as a field (the script's devices I LIST).
  const float x = ImGui::GetCursorPosX();
  ImGui::TextUnformatted(devices.size() == 1 ? "GPU" : "GPUs");
  ImGui::SameLine(0, 0);
  ImGui::SetCursorPosX(x + ImGui::CalcTextSize("GPUs").x + ImGui::GetStyle().ItemInnerSpacing.x);
  TextField& f = device_fields_[index % device_fields_.size()];
  const std::string now = device_list_text(devices);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const TextEditEnd end = text_field("##gpu", "", f, now.c_str());
  if (end == TextEditEnd::edited) (void)check_device_list_text(f.text, f.error);
  if (end == TextEditEnd::applied) {
    if (const std::optional<std::vector<int>> asked = check_device_list_text(f.text, f.error)) {
      if (*asked != devices) out.push_back(cmd::Devices{one(index), *asked});
      // The field shows the engine's answer next frame: the new devices, or the old on a refusal
      // (whose message the panel shows as the command's error).
      f.synced = false;
    }
  }
  end_field(f, end, "The GPUs this instance runs on (0, or 0,1): Enter moves it there.", false);
}

void InstancesSection::draw_counts(const InstanceStatus& s) {
  char num[32];
  const bool old = summary_is_old(s);
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  if (s.summary) {
    // A paced or late summary's count is greyed: it is not of the generation beside it.
    if (old) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_right(format_count(s.summary->population, num, sizeof num));
    if (old) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      char ms[32];
      ImGui::SetTooltip("%" PRIu64 " live cells at generation %" PRIu64 ", %" PRIu64
                        " frames ago\nsummary (population, hash): %s ms on the GPU, one every %d frame%s",
                        s.summary->population, s.summary->generation, s.summary_frames_ago,
                        format_ms(s.summary_ms, ms, sizeof ms), s.summary_every,
                        s.summary_every == 1 ? "" : "s");
    }
  } else {
    ImGui::TextDisabled("\xE2\x80\xA6");
  }

  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  // As on the tile labels: a fresh summary's generation, so that it and the live count agree (the
  // engine may stand a frame or two further); else the engine's.
  const std::uint64_t shown = s.summary && !old ? s.summary->generation : s.generation;
  text_right(format_count(shown, num, sizeof num));
  if (ImGui::IsItemHovered()) {
    if (old)
      ImGui::SetTooltip("generation %" PRIu64 " (%d \xC3\x97 %d); the live count is of generation %" PRIu64
                        ", %" PRIu64 " frames ago",
                        shown, s.width, s.height, s.summary->generation, s.summary_frames_ago);
    else
      ImGui::SetTooltip("generation %" PRIu64 " of the live count; the engine stands at %" PRIu64
                        " (%d \xC3\x97 %d)",
                        shown, s.generation, s.width, s.height);
  }
}

}  // namespace ls::ui
