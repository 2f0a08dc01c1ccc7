// scene_section.cpp — the panel's Scene section (scene_section.hpp): a two-column form, one row
// per setting, each row drawn by its own function.
#include "ui/scene_section.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // GetActiveID: whether a text field is being edited

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cstdio>
#include <iterator>

#include "ui/style.hpp"
#include "ui/validate.hpp"

namespace ls::ui {

namespace {

constexpr Target kAll{true, 0};
constexpr int kMaxGenerationsPerFrame = 1024;  // the slider's range (scripts may ask for more)
constexpr ImGuiSliderFlags kClamp = ImGuiSliderFlags_AlwaysClamp;
constexpr ImGuiSliderFlags kLogClamp = ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp;

/// What the Reset all button emits: new soups for every instance (also after a new density or seed).
void push_reset_all(std::vector<Command>& out) { out.push_back(cmd::Reset{kAll}); }

/// The instances' common value of `field`, or null when they differ (or there is none).
template <class T>
const T* common_of(const std::vector<InstanceStatus>& statuses, T InstanceStatus::*field) {
  if (statuses.empty()) return nullptr;
  const T* common = &(statuses[0].*field);
  for (const InstanceStatus& s : statuses) {
    if (s.*field != *common) return nullptr;
  }
  return common;
}

}  // namespace

void SceneSection::draw(const PanelModel& model, std::vector<Command>& out) {
  if (!ImGui::BeginTable("##scene", 2, ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Gens / launch").x);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  draw_count(model, out);
  draw_variant(model, out);
  draw_rule(model, out);
  draw_size(model, out);
  draw_density_and_seed(model, out);
  draw_generations(model, out);
  draw_run_and_streams(model, out);
  draw_timing_and_display(model, out);
  ImGui::EndTable();
}

void SceneSection::draw_count(const PanelModel& model, std::vector<Command>& out) {
  const int count = static_cast<int>(model.statuses.size());
  const ImGuiStyle& style = ImGui::GetStyle();
  // - [slider] +
  form_row("Instances");
  const float button = ImGui::GetFrameHeight();
  if (ImGui::Button("-##fewer", ImVec2(button, 0)) && count > 1) out.push_back(cmd::Instances{count - 1});
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - button - style.ItemInnerSpacing.x);
  const int most = model.max_instances;
  const std::optional<int> n =
      edit_value("##count", count, 1, most, "instances", count_typed_,
                 [most](int* v) { return ImGui::SliderInt("##count", v, 1, most, "%d", kClamp); });
  field_tip("Instances side by side (Ctrl+click to type a count).", count_typed_.error, true,
            count_typed_.was_typing);
  if (n) out.push_back(cmd::Instances{*n});
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  if (ImGui::Button("+##more", ImVec2(button, 0)) && count < most) out.push_back(cmd::Instances{count + 1});
  error_text(count_typed_.error);
}

void SceneSection::draw_variant(const PanelModel& model, std::vector<Command>& out) {
  // The common variant, or "mixed".
  const bool gpu = runs_on_gpu(model);
  form_row("Variant (all)");
  setting_tip(gpu, "The kernel every instance runs.");
  const Faded faded(!gpu);
  const Variant* common = common_of(model.statuses, &InstanceStatus::variant);
  Variant chosen{};
  if (variant_combo("##variant_all", common != nullptr ? variant_label(*common) : "mixed", common, chosen)) {
    out.push_back(cmd::SetVariant{kAll, chosen});
  }
  setting_tip(gpu, "The kernel every instance runs (each row of Instances picks its own).");
}

void SceneSection::draw_rule(const PanelModel& model, std::vector<Command>& out) {
  const ImGuiStyle& style = ImGui::GetStyle();
  form_row("Rule (all)");
  const Rule* common = common_of(model.statuses, &InstanceStatus::rule);
  // When the instances' rules differ the field is empty and its hint says "mixed", as Variant
  // (all) does; typing a rule and pressing Enter sets it on every instance.
  const ImGuiID id = ImGui::GetID("##rule_all");
  const bool mixed = common == nullptr && !model.statuses.empty();
  if (ImGui::GetActiveID() != id) {
    if (common != nullptr && (!all_rule_synced_ || all_rule_mixed_ || *common != all_rule_shown_)) {
      std::snprintf(rule_text_, sizeof rule_text_, "%s", common->to_string().c_str());
      all_rule_shown_ = *common;
      all_rule_synced_ = true;
      all_rule_mixed_ = false;
      rule_error_.clear();
    } else if (mixed && !all_rule_mixed_) {
      rule_text_[0] = '\0';
      all_rule_mixed_ = true;
      rule_error_.clear();
    }
  }
  const bool red = !rule_error_.empty();
  if (red) ImGui::PushStyleColor(ImGuiCol_FrameBg, colour::error_field);
  if (ImGui::InputTextWithHint("##rule_all", mixed ? "mixed" : "B3/S23", rule_text_, sizeof rule_text_)) {
    if (rule_text_[0] == '\0' && mixed) {
      rule_error_.clear();
    } else {
      check_rule_text(rule_text_, rule_error_);
    }
  }
  const TextEditEnd end = text_edit_end(rule_text_, rule_at_activation_, sizeof rule_at_activation_);
  if (red) ImGui::PopStyleColor();
  if (end == TextEditEnd::cancelled) {
    all_rule_synced_ = false;  // show the instances' rule (or "mixed") again
    all_rule_mixed_ = false;
  } else if (end == TextEditEnd::applied && !(mixed && rule_text_[0] == '\0')) {
    if (const std::optional<Rule> rule = check_rule_text(rule_text_, rule_error_)) {
      if (common == nullptr || *rule != *common) out.push_back(cmd::SetRule{kAll, *rule});
    } else if (enter_pressed()) {
      keep_editing(id);
    }
  }
  field_tip(mixed ? "The instances' rules differ. Type a rule and press Enter to give it to every instance."
                  : "B/S (B36/S23), S/B (23/36) or a name; Enter applies it to every instance.",
            rule_error_, true, ImGui::IsItemActive());
  error_text(rule_error_);
  bool first = true;
  for (const NamedRule& preset : named_rules()) {
    // The preset buttons wrap onto a new line when the next one would not fit.
    if (!first) same_line_if_fits(ImGui::CalcTextSize(preset.name.c_str()).x + style.FramePadding.x * 2);
    first = false;
    if (ImGui::SmallButton(preset.name.c_str())) {
      std::snprintf(rule_text_, sizeof rule_text_, "%s", preset.rule.to_string().c_str());
      rule_error_.clear();
      if (common == nullptr || preset.rule != *common) out.push_back(cmd::SetRule{kAll, preset.rule});
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preset.rule.to_string().c_str());
  }
}

void SceneSection::draw_size(const PanelModel& model, std::vector<Command>& out) {
  // Each side applies (resetting every instance) when its field is left with a valid size; a
  // preset applies at once.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float gap = style.ItemInnerSpacing.x;
  form_row("Size");
  const float presets_w =
      ImGui::CalcTextSize("presets").x + ImGui::GetFrameHeight() + style.FramePadding.x * 2;
  const float x_w = ImGui::CalcTextSize("\xC3\x97").x;
  const float avail = ImGui::GetContentRegionAvail().x;
  // A field always shows the largest side whole: in a narrow panel the presets, then the height,
  // go onto lines of their own rather than the numbers being cut.
  const float least = ascii_width("131072") + style.FramePadding.x * 2 + 2;
  const float with_presets = (avail - presets_w - x_w - 3 * gap) * 0.5f;
  const float sides_only = (avail - x_w - 2 * gap) * 0.5f;
  const float field = with_presets >= least ? with_presets : std::max(least, sides_only);
  constexpr const char* kTip =
      "Multiples of 32. Leaving the field with Enter, Tab or a click makes new soups of this size "
      "for every instance at once; Esc keeps the size.";
  char state[2][16];
  std::snprintf(state[0], sizeof state[0], "%d", model.settings.width);
  std::snprintf(state[1], sizeof state[1], "%d", model.settings.height);
  TextField* fields[2] = {&width_field_, &height_field_};
  const char* ids[2] = {"##width", "##height"};
  for (int side = 0; side < 2; ++side) {
    if (side == 1) {
      same_line_if_fits(x_w + gap + field, gap);
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted("\xC3\x97");  // multiplication sign
      ImGui::SameLine(0, gap);
    }
    TextField& f = *fields[side];
    ImGui::SetNextItemWidth(field);
    const TextEditEnd end = text_field(ids[side], "", f, state[side]);
    if (end == TextEditEnd::edited || end == TextEditEnd::applied) {
      const std::optional<long long> v =
          check_integer_text(f.text, 0, kMaxLatticeSide, side == 0 ? "width" : "height", f.error);
      const long long w = side == 0 ? v.value_or(0) : model.settings.width;
      const long long h = side == 1 ? v.value_or(0) : model.settings.height;
      // Size makes new soups itself (the app's plan for it replaces every instance): no Reset
      // follows it, which would rebuild a large lattice twice.
      if (v && check_size(w, h, f.error) && end == TextEditEnd::applied &&
          (w != model.settings.width || h != model.settings.height)) {
        out.push_back(cmd::Size{static_cast<int>(w), static_cast<int>(h)});
      }
    }
    end_field(f, end, kTip, true);
  }
  same_line_if_fits(presets_w, gap);
  ImGui::SetNextItemWidth(presets_w);
  if (ImGui::BeginCombo("##size_presets", "presets")) {
    for (std::size_t i = 0; i < std::size(kSizePresets); ++i) {
      const int side = kSizePresets[i];
      // A size the engine cannot hold for every instance is shown, greyed, with the reason.
      const bool refused = i < model.size_preset_refusals.size() && !model.size_preset_refusals[i].empty();
      char label[32];
      std::snprintf(label, sizeof label, "%d \xC3\x97 %d", side, side);
      const bool current = model.settings.width == side && model.settings.height == side;
      if (ImGui::Selectable(label, current, refused ? ImGuiSelectableFlags_Disabled : 0) && !current &&
          !refused)
        out.push_back(cmd::Size{side, side});
      if (refused) tooltip(model.size_preset_refusals[i].c_str());
    }
    ImGui::EndCombo();
  }
  tooltip("Square sizes; one the engine cannot hold for every instance is greyed, with the reason.");
  error_text(!width_field_.error.empty() ? width_field_.error : height_field_.error);
}

void SceneSection::draw_density_and_seed(const PanelModel& model, std::vector<Command>& out) {
  // The soup settings act at once, as a person expects of a setting they just typed: a new density
  // or seed is followed by the command Reset all gives (new soups for every instance).
  const ImGuiStyle& style = ImGui::GetStyle();
  form_row("Density");
  const std::optional<double> density =
      edit_value("##density", model.settings.density, 0.0, 1.0, "density", density_typed_, [](double* v) {
        const double lo = 0.0, hi = 1.0;
        return ImGui::SliderScalar("##density", ImGuiDataType_Double, v, &lo, &hi, "%.3f", kClamp);
      });
  field_tip(
      "Fraction of live cells in the soups. Releasing the slider, or Enter after typing (Ctrl+click "
      "to type), makes new soups for every instance at once, as Reset all does.",
      density_typed_.error, true, density_typed_.was_typing);
  if (density) out.push_back(cmd::Density{*density});
  if (density_typed_.committed) push_reset_all(out);
  error_text(density_typed_.error);

  form_row("Seed");
  const float check_w = check_width("same for all");
  // The seed field keeps room for a 10-digit seed; the check box goes below it when they do not fit.
  const float least = ascii_width("4294967295") + style.FramePadding.x * 2;
  const float avail = ImGui::GetContentRegionAvail().x;
  ImGui::SetNextItemWidth(
      avail - check_w - style.ItemSpacing.x >= least ? avail - check_w - style.ItemSpacing.x : avail);
  char state[24];
  std::snprintf(state, sizeof state, "%" PRIu64, model.settings.seed);
  const TextEditEnd end = text_field("##seed", "", seed_field_, state);
  if (end == TextEditEnd::edited || end == TextEditEnd::applied) {
    const std::optional<std::uint64_t> seed = check_seed_text(seed_field_.text, seed_field_.error);
    if (seed && end == TextEditEnd::applied && *seed != model.settings.seed) {
      out.push_back(cmd::Seed{*seed});
      push_reset_all(out);
    }
  }
  end_field(seed_field_, end,
            "Seed of the soups (0 to 2^64-1). Enter, Tab or a click elsewhere with a new seed makes new "
            "soups for every instance at once, as Reset all does; Esc keeps the seed.",
            true);
  same_line_if_fits(check_w);
  bool same = model.settings.same_seed;
  if (ImGui::Checkbox("same for all", &same)) out.push_back(cmd::SameSeed{same});
  tooltip("On: every instance starts from the same soup, so the cross-check can compare them.");
  error_text(seed_field_.error);
}

void SceneSection::draw_generations(const PanelModel& model, std::vector<Command>& out) {
  form_row("Gens / frame");
  const std::optional<int> g = edit_value(
      "##gpf", model.settings.generations_per_frame, 1, kMaxGenerationsPerFrame, "generations per frame",
      gpf_typed_,
      [](int* v) { return ImGui::SliderInt("##gpf", v, 1, kMaxGenerationsPerFrame, "%d", kLogClamp); });
  if (g) out.push_back(cmd::GensPerFrame{*g});
  field_tip("Generations every instance advances per displayed frame (Ctrl+click to type).", gpf_typed_.error,
            true, gpf_typed_.was_typing);
  error_text(gpf_typed_.error);

  const bool gpu = runs_on_gpu(model);
  form_row("Gens / launch");
  setting_tip(gpu, "Generations per kernel launch for iterate and bitpacked (all instances).");
  const Faded faded(!gpu);
  int k = 0;
  for (const InstanceStatus& s : model.statuses) {
    if (variant_iterates(s.variant)) {
      k = s.generations_per_launch;
      break;
    }
  }
  const bool any = k > 0;
  if (!any) k = model.statuses.empty() ? 1 : model.statuses[0].generations_per_launch;
  const char* format = any ? "%d" : "%d (no iterate/bitpacked)";
  const std::optional<int> chosen = edit_value(
      "##gpl", k, 1, kMaxGenerationsPerLaunch, "generations per launch", gpl_typed_,
      [format](int* v) { return ImGui::SliderInt("##gpl", v, 1, kMaxGenerationsPerLaunch, format, kClamp); });
  if (chosen) out.push_back(cmd::GensPerLaunch{kAll, *chosen});
  if (gpl_typed_.was_typing || !gpl_typed_.error.empty()) {
    field_tip("Generations per kernel launch for iterate and bitpacked (all instances).", gpl_typed_.error,
              true, gpl_typed_.was_typing);
  } else {
    setting_tip(gpu, "Generations per kernel launch for iterate and bitpacked (all instances).");
  }
  error_text(gpl_typed_.error);
}

void SceneSection::draw_run_and_streams(const PanelModel& model, std::vector<Command>& out) {
  form_row("Run");
  if (ImGui::Button(model.paused ? "Run###pause_run" : "Pause###pause_run")) {
    out.push_back(model.paused ? Command{cmd::Run{}} : Command{cmd::Pause{}});
  }
  tooltip("Space");
  same_line_if_fits(ImGui::CalcTextSize("Step").x + ImGui::GetStyle().FramePadding.x * 2);
  if (ImGui::Button("Step##single")) out.push_back(cmd::Step{1});
  tooltip("One generation (N)");
  same_line_if_fits(ImGui::CalcTextSize("Reset all").x + ImGui::GetStyle().FramePadding.x * 2);
  if (ImGui::Button("Reset all##reset")) push_reset_all(out);
  tooltip("New soups from the density and seed; generation 0.");

  // Streams and graphs are CUDA's: on the CPU engine the row stays usable (the mode is kept) but
  // faded, and says so.
  const bool gpu = runs_on_gpu(model);
  form_row("Streams");
  setting_tip(gpu, "How the instances' work reaches the GPU each frame.");
  const Faded faded(!gpu);
  const StreamMode mode = model.stream_mode;
  if (ImGui::RadioButton("one per instance", mode == StreamMode::per_instance) &&
      mode != StreamMode::per_instance) {
    out.push_back(cmd::SetStreamMode{StreamMode::per_instance});
  }
  setting_tip(gpu, "Each instance on a CUDA stream of its own: their kernels may overlap.");
  same_line_if_fits(check_width("one shared"));
  if (ImGui::RadioButton("one shared", mode == StreamMode::shared) && mode != StreamMode::shared) {
    out.push_back(cmd::SetStreamMode{StreamMode::shared});
  }
  setting_tip(gpu, "Every instance on one CUDA stream: they run in turn.");
  same_line_if_fits(check_width("one graph per frame"));
  if (ImGui::RadioButton("one graph per frame", mode == StreamMode::graph) && mode != StreamMode::graph) {
    out.push_back(cmd::SetStreamMode{StreamMode::graph});
  }
  setting_tip(gpu,
              "The whole frame of all instances as one CUDA graph, launched once per frame: each "
              "instance a branch of its own, so the host enqueues one call instead of a launch and "
              "two events per instance.");
  static constexpr const char* kHints[] = {
      "Watch concurrency: above 1, the streams overlap.",
      "Instances run in turn: concurrency stays near 1.",
      "One launch per frame: watch host enqueue fall below the GPU span.",
      "Applies on a GPU: the CPU engine steps the instances one after another.",
  };
  const char* hint = kHints[0];
  if (mode == StreamMode::shared) hint = kHints[1];
  if (mode == StreamMode::graph) hint = kHints[2];
  if (!gpu) hint = kHints[3];
  // As high as the tallest hint, so that another mode's hint moves nothing below it.
  const float wrap = ImGui::GetContentRegionAvail().x;
  float tallest = 0;
  for (const char* h : kHints) tallest = std::max(tallest, ImGui::CalcTextSize(h, nullptr, false, wrap).y);
  const float top = ImGui::GetCursorPosY();
  ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
  ImGui::TextWrapped("%s", hint);
  ImGui::PopStyleColor();
  const float drawn = ImGui::GetCursorPosY() - top - ImGui::GetStyle().ItemSpacing.y;
  if (tallest - drawn > ImGui::GetStyle().ItemSpacing.y)
    ImGui::Dummy(ImVec2(0, tallest - drawn - ImGui::GetStyle().ItemSpacing.y));
}

void SceneSection::draw_timing_and_display(const PanelModel& model, std::vector<Command>& out) {
  form_row("Timed frames");
  const int period = model.timing_period;
  const std::optional<int> p =
      edit_value("##timing", period, 1, kMaxTimingPeriod, "timed frames", timing_typed_, [period](int* v) {
        return ImGui::SliderInt("##timing", v, 1, kMaxTimingPeriod, period == 1 ? "every frame" : "1 in %d",
                                kLogClamp);
      });
  if (p) out.push_back(cmd::TimingPeriod{*p});
  field_tip(
      "Start and end events go around each instance's work on one frame in N. Each event costs the "
      "host about 1-1.6 us: with many small instances the events cost as much as the work; time "
      "fewer frames to see the streams' own speed.",
      timing_typed_.error, true, timing_typed_.was_typing);
  error_text(timing_typed_.error);

  form_row("Display");
  if (model.windowed) {
    bool vsync = model.vsync;
    if (ImGui::Checkbox("vsync", &vsync)) out.push_back(cmd::Vsync{vsync});
    same_line_if_fits(check_width("grid lines"));
  }
  bool grid = model.grid;
  if (ImGui::Checkbox("grid lines", &grid)) out.push_back(cmd::Grid{grid});
  tooltip("Cell grid lines when zoomed in.");
  same_line_if_fits(check_width("age shading"));
  bool age = model.age;
  if (ImGui::Checkbox("age shading", &age)) out.push_back(cmd::Age{age});
  tooltip(
      "Cells that just died glow and fade to the dead colour over some 25 frames.\n"
      "After a zoom, pan or resize the old picture fades out the same way.");
  // The frame-rate note comes and goes with the frame rate: its place is kept either way (on the
  // checkboxes' line where it fits, else on a line of its own), so nothing below it moves.
  const char* note = model.windowed ? "timings capped" : "headless: frames are uncapped";
  const float note_w = ImGui::CalcTextSize(note).x;
  same_line_if_fits(note_w);
  if (vsync_caps_frames(model)) {
    text_coloured(colour::warn, note);
    tooltip("vsync on: frames wait for the display, so FPS and frame times are capped at its rate.");
  } else if (!model.windowed) {
    ImGui::TextDisabled("%s", note);
  } else {
    ImGui::Dummy(ImVec2(note_w, ImGui::GetTextLineHeight()));
  }
}

}  // namespace ls::ui
