// instances_section.cpp — the panel's Instances table (instances_section.hpp).
#include "ui/instances_section.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // GetActiveID: whether a text field is being edited

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cstdio>

#include "ui/format.hpp"
#include "ui/style.hpp"
#include "ui/validate.hpp"

namespace ls::ui {

namespace {

constexpr int kTableRowsShown = 12;  // taller tables scroll
constexpr int kColumns = 8;

Target one(std::size_t index) { return Target{false, index}; }

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
  ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg |
                          ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoPadOuterX |
                          ImGuiTableFlags_NoClip;
  if (count > kTableRowsShown) flags |= ImGuiTableFlags_ScrollY;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row_h = ImGui::GetFrameHeight() + 2 * style.CellPadding.y;
  const float head_h = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  const int shown = std::min(count, kTableRowsShown);
  const ImVec2 outer(0, count > kTableRowsShown ? head_h + row_h * static_cast<float>(shown) + 2 : 0.f);
  if (!ImGui::BeginTable("##instances", kColumns, flags, outer)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn(
      "variant", ImGuiTableColumnFlags_WidthFixed,
      ImGui::CalcTextSize("bitpacked").x + ImGui::GetFrameHeight() + style.FramePadding.x * 2);
  ImGui::TableSetupColumn("rule", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("k", ImGuiTableColumnFlags_WidthFixed,
                          ImGui::CalcTextSize("64").x + style.FramePadding.x * 2);
  ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthFixed,
                          ImGui::CalcTextSize("0,1,2").x + style.FramePadding.x * 2);
  ImGui::TableSetupColumn("check");
  ImGui::TableSetupColumn("live", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("999999").x);
  ImGui::TableSetupColumn("gen", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("999999").x);
  static constexpr const char* kHeaderTips[kColumns] = {
      "instance (click to select it for Patterns)",
      "variant (kernel)",
      "rule: type B/S or S/B, Enter applies",
      "generations per launch (iterate, bitpacked)",
      "GPU(s) the instance runs on: type another and Enter to move it there (as the script's devices I LIST)",
      "cross-check: instances of one start state (group letter) must agree at equal generations",
      "population (live cells) of the newest summary",
      "generation of that summary",
  };
  constexpr int kVariantColumn = 1;
  constexpr int kLaunchColumn = 3;
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < kColumns; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    const bool cuda_only = !gpu && (c == kVariantColumn || c == kLaunchColumn);
    const Faded faded(cuda_only);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    tooltip(cuda_only ? kCudaSettingsTip : kHeaderTips[c]);
  }

  ImGuiListClipper clipper;
  clipper.Begin(count, row_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const std::size_t idx = static_cast<std::size_t>(i);
      const InstanceStatus& s = statuses[idx];
      ImGui::TableNextRow(ImGuiTableRowFlags_None, row_h - 2 * style.CellPadding.y);
      if (i == model.hovered_instance) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, colour::hover_row);
      ImGui::PushID(i);

      ImGui::TableNextColumn();
      char label[16];
      std::snprintf(label, sizeof label, "%d", i);
      ImGui::AlignTextToFramePadding();
      if (ImGui::Selectable(label, i == selected)) selected = i;
      tooltip("Select: pattern loads and saves go to this instance.");

      ImGui::TableNextColumn();
      {
        const Faded faded(!gpu);
        ImGui::SetNextItemWidth(-FLT_MIN);
        Variant chosen{};
        if (variant_combo("##variant", variant_label(s.variant), &s.variant, chosen)) {
          out.push_back(cmd::SetVariant{one(idx), chosen});
        }
      }

      ImGui::TableNextColumn();
      draw_rule(s, idx, out);

      ImGui::TableNextColumn();
      if (variant_iterates(s.variant)) {
        const Faded faded(!gpu);
        ImGui::SetNextItemWidth(-FLT_MIN);
        TypedValue& typed = k_typed_[idx % k_typed_.size()];
        const std::optional<int> k =
            edit_value("##k", s.generations_per_launch, 1, kMaxGenerationsPerLaunch, "k", typed, [](int* v) {
              return ImGui::DragInt("##k", v, 0.2f, 1, kMaxGenerationsPerLaunch, "%d",
                                    ImGuiSliderFlags_AlwaysClamp);
            });
        if (k) out.push_back(cmd::GensPerLaunch{one(idx), *k});
        // The rows keep one height: a bad typed k says why in the tooltip.
        if (!typed.error.empty()) {
          tooltip(typed.error.c_str());
        } else {
          tooltip(gpu ? "Generations per launch (drag or double-click to type)" : kCudaSettingsTip);
        }
      } else {
        ImGui::AlignTextToFramePadding();
        ImGui::TextDisabled("1");
      }

      ImGui::TableNextColumn();
      static const std::vector<int> kHost;
      draw_devices(idx < model.instance_devices.size() ? model.instance_devices[idx] : kHost, idx, out);

      ImGui::TableNextColumn();
      draw_badge(idx, statuses, checks);
      draw_counts(s);
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
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
  if (!f.error.empty() && (ImGui::IsItemHovered() || ImGui::IsItemActive())) {
    ImGui::SetTooltip("%s", f.error.c_str());
  }
  if (end == TextEditEnd::cancelled) {
    f.synced = false;  // show the instance's rule again
  } else if (end == TextEditEnd::applied) {
    if (const std::optional<Rule> rule = check_rule_text(f.text, f.error)) {
      if (*rule != s.rule) out.push_back(cmd::SetRule{one(index), *rule});
    }
  }
}

void InstancesSection::draw_devices(const std::vector<int>& devices, std::size_t index,
                                    std::vector<Command>& out) {
  if (devices.empty()) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("host");
    tooltip("The CPU engine keeps the instances in host memory.");
    return;
  }
  TextField& f = device_fields_[index % device_fields_.size()];
  const std::string now = device_list_text(devices);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const TextEditEnd end = text_field("##gpu", "", f, now.c_str());
  if (end == TextEditEnd::edited) (void)check_device_list_text(f.text, f.error);
  if (end != TextEditEnd::applied) return;
  if (const std::optional<std::vector<int>> asked = check_device_list_text(f.text, f.error)) {
    if (*asked != devices) out.push_back(cmd::Devices{one(index), *asked});
    // The field shows the engine's answer next frame: the new devices, or the old on a refusal
    // (whose message the panel shows as the command's error).
    f.synced = false;
  }
}

void InstancesSection::draw_counts(const InstanceStatus& s) {
  char num[32];
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  if (s.summary) {
    text_right(format_count(s.summary->population, num, sizeof num));
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
  // The generation of the summary the live count comes from, as on the tile labels: the engine
  // may already stand a frame or two further.
  const std::uint64_t shown = s.summary ? s.summary->generation : s.generation;
  text_right(format_count(shown, num, sizeof num));
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("generation %" PRIu64 " of the live count; the engine stands at %" PRIu64
                      " (%d \xC3\x97 %d)",
                      shown, s.generation, s.width, s.height);
  }
}

}  // namespace ls::ui
