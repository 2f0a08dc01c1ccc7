// panel.cpp — the Dear ImGui control panel (panel.hpp): scene controls, instances with the
// cross-check badge, per-stream timings, the frame timeline, patterns, errors and the help overlay.
// Every change goes out as a Command; nothing here touches the engine except to read it.
#include "ui/panel.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // GetActiveID: whether a text field is being edited

#include <algorithm>
#include <array>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "ui/format.hpp"
#include "ui/help.hpp"
#include "ui/style.hpp"
#include "ui/validate.hpp"

namespace ls::ui {

namespace {

constexpr float kBaseWidth = 540.f;  // panel width at scale 1
constexpr int kTableRowsShown = 12;  // taller tables scroll
constexpr Target kAll{true, 0};

Target one(std::size_t index) { return Target{false, index}; }

/// Null-terminated variant names (variant_name gives string_views), built once.
const char* variant_label(Variant v) {
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

/// A variant combo; true with `chosen` set when the person picked another variant.
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

/// How the edit of the text field just drawn ended, if it ended this frame.
enum class TextEditEnd { none, applied, cancelled };

/// Call right after an InputText: remembers its text when it is activated and tells, when it is
/// left, whether the edit stands (Enter, Tab, a click elsewhere) or was cancelled. ImGui's Esc
/// puts back the text the field had when it was activated and reports that as an edit
/// (IsItemDeactivatedAfterEdit); that text may be stale, so Esc, or leaving the text as it was,
/// changes nothing.
TextEditEnd text_edit_end(const char* text, char* at_activation, std::size_t size) {
  if (ImGui::IsItemActivated()) std::snprintf(at_activation, size, "%s", text);
  if (!ImGui::IsItemDeactivated()) return TextEditEnd::none;
  const bool escape = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
  if (escape || std::strcmp(text, at_activation) == 0) return TextEditEnd::cancelled;
  return ImGui::IsItemDeactivatedAfterEdit() ? TextEditEnd::applied : TextEditEnd::cancelled;
}

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

/// Starts a label/value row of a two-column form table.
void form_row(const char* label) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-FLT_MIN);
}

/// Exact below a million, engineering notation above (the tooltip gives the exact figure).
const char* format_count(std::uint64_t v, char* out, std::size_t size) {
  if (v < 1'000'000ull) {
    std::snprintf(out, size, "%" PRIu64, v);
    return out;
  }
  return format_si(static_cast<double>(v), out, size);
}

/// Width of `text` in the current font: ASCII by glyph advances (cheap), anything else measured.
float ascii_width(const char* text) {
  const ImFont* font = ImGui::GetFont();
  float w = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (static_cast<unsigned char>(*c) >= 0x80) return ImGui::CalcTextSize(text).x;
    w += font->GetCharAdvance(static_cast<ImWchar>(*c));
  }
  return w * ImGui::GetFontSize() / font->FontSize;
}

/// A small non-negative integer as text, without printf.
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

/// Right-aligns the next text in the current table cell.
void text_right(const char* text) {
  const float w = ImGui::CalcTextSize(text).x;
  const float avail = ImGui::GetContentRegionAvail().x;
  if (avail > w) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - w);
  ImGui::TextUnformatted(text);
}

/// The cross-check badge of one instance; hovering lists the compared instances' hashes.
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

}  // namespace

void Panel::set_scale(float scale) {
  scale_ = scale > 0 ? scale : 1.f;
  width_ = std::round(kBaseWidth * scale_);
  apply_style(scale_);
  // Text follows the scale even if the font was loaded at another size (load_fonts at this scale
  // makes the factor 1 and the text crisp). The atlas may not be built yet: read the requested size.
  ImGuiIO& io = ImGui::GetIO();
  // ImGui's built-in font (no font loaded, or load_fonts' fallback) is drawn for 13 px.
  const bool builtin =
      io.Fonts->ConfigData.Size == 0 || std::strncmp(io.Fonts->ConfigData[0].Name, "ProggyClean", 11) == 0;
  const float loaded = io.Fonts->ConfigData.Size > 0 ? io.Fonts->ConfigData[0].SizePixels : 13.f;
  const float wanted = (builtin ? 13.f : kBaseFontPixels) * scale_;
  io.FontGlobalScale = loaded <= 0 || std::fabs(wanted - loaded) < 0.5f ? 1.f : wanted / loaded;
}

void Panel::draw(const PanelModel& model, std::vector<Command>& out) {
  const ImGuiIO& io = ImGui::GetIO();

  statuses_.clear();
  if (model.engine != nullptr) {
    const std::size_t n = model.engine->size();
    for (std::size_t i = 0; i < n; ++i) statuses_.push_back(model.engine->status(i));
  }
  cross_check(statuses_, checks_);
  // An engine's backend and device do not change; reading them may be slow (the CPU engine reads
  // /proc/cpuinfo), so once per engine.
  if (model.engine != named_engine_) {
    named_engine_ = model.engine;
    backend_ = named_engine_ != nullptr ? named_engine_->backend() : std::string();
    device_ = named_engine_ != nullptr ? named_engine_->device_name() : std::string();
  }
  if (!statuses_.empty()) {
    selected_instance_ = std::clamp(selected_instance_, 0, static_cast<int>(statuses_.size()) - 1);
  }

  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width_, io.DisplaySize.y), ImGuiCond_Always);
  constexpr ImGuiWindowFlags kFlags =
      ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (ImGui::Begin("lifestreams##panel", nullptr, kFlags)) {
    draw_status(model);
    if (model.engine == nullptr) {
      ImGui::TextDisabled("No engine.");
    } else {
      if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) draw_scene(model, out);
      if (ImGui::CollapsingHeader("Instances", ImGuiTreeNodeFlags_DefaultOpen)) draw_instances(model, out);
      if (ImGui::CollapsingHeader("Per-stream timings", ImGuiTreeNodeFlags_DefaultOpen)) draw_timings(model);
      if (ImGui::CollapsingHeader("Timeline (last complete frame)", ImGuiTreeNodeFlags_DefaultOpen)) {
        bars_ = model.engine->timeline();
        timeline_.draw(bars_, statuses_, scale_);
      }
      if (ImGui::CollapsingHeader("Patterns")) draw_patterns(model, out);
    }
  }
  ImGui::End();

  if (show_help_) draw_help(&show_help_);
}

void Panel::draw_status(const PanelModel& model) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("lifestreams");
  ImGui::SameLine();
  if (model.engine != nullptr) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
    ImGui::Text("%s \xC2\xB7 %s", backend_.c_str(), device_.c_str());
    ImGui::PopStyleColor();
  }
  const char* help = "Help (F1)";
  const float bw = ImGui::CalcTextSize(help).x + ImGui::GetStyle().FramePadding.x * 2;
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - bw));
  if (ImGui::SmallButton(help)) show_help_ = !show_help_;

  if (!model.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour::error);
    ImGui::TextWrapped("%s", model.error.c_str());
    ImGui::PopStyleColor();
  }
  if (!model.message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
    ImGui::TextWrapped("%s", model.message.c_str());
    ImGui::PopStyleColor();
  }
}

void Panel::draw_scene(const PanelModel& model, std::vector<Command>& out) {
  const Engine& engine = *model.engine;
  const int count = static_cast<int>(statuses_.size());
  const ImGuiStyle& style = ImGui::GetStyle();

  if (!ImGui::BeginTable("##scene", 2, ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Gens / launch").x);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);

  // Instance count: - [slider] +
  form_row("Instances");
  {
    const float button = ImGui::GetFrameHeight();
    if (ImGui::Button("-##fewer", ImVec2(button, 0)) && count > 1) out.push_back(cmd::Instances{count - 1});
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - button - style.ItemInnerSpacing.x);
    int n = count;
    if (ImGui::SliderInt("##count", &n, 1, kMaxInstances, "%d", ImGuiSliderFlags_AlwaysClamp) && n != count) {
      out.push_back(cmd::Instances{n});
    }
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    if (ImGui::Button("+##more", ImVec2(button, 0)) && count < kMaxInstances) {
      out.push_back(cmd::Instances{count + 1});
    }
  }

  // Variant of all instances: the common one, or "mixed".
  form_row("Variant (all)");
  {
    const Variant* common = count > 0 ? &statuses_[0].variant : nullptr;
    for (const InstanceStatus& s : statuses_) {
      if (common != nullptr && s.variant != *common) common = nullptr;
    }
    Variant chosen{};
    if (variant_combo("##variant_all", common != nullptr ? variant_label(*common) : "mixed", common,
                      chosen)) {
      out.push_back(cmd::SetVariant{kAll, chosen});
    }
  }

  // Rule of all instances: live validation, applied on Enter or when the field is left.
  form_row("Rule (all)");
  {
    const Rule* common = count > 0 ? &statuses_[0].rule : nullptr;
    for (const InstanceStatus& s : statuses_) {
      if (common != nullptr && s.rule != *common) common = nullptr;
    }
    // When the instances' rules differ the field is empty and its hint says "mixed", as Variant
    // (all) does; typing a rule and pressing Enter sets it on every instance.
    const ImGuiID id = ImGui::GetID("##rule_all");
    const bool mixed = common == nullptr && count > 0;
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
    if (ImGui::InputTextWithHint("##rule_all", mixed ? "mixed" : "B3/S23", rule_text_, sizeof rule_text_)) {
      if (rule_text_[0] == '\0' && mixed) {
        rule_error_.clear();
      } else {
        check_rule_text(rule_text_, rule_error_);
      }
    }
    const TextEditEnd end = text_edit_end(rule_text_, rule_at_activation_, sizeof rule_at_activation_);
    if (end == TextEditEnd::cancelled) {
      all_rule_synced_ = false;  // show the instances' rule (or "mixed") again
      all_rule_mixed_ = false;
    } else if (end == TextEditEnd::applied && !(mixed && rule_text_[0] == '\0')) {
      if (const std::optional<Rule> rule = check_rule_text(rule_text_, rule_error_)) {
        if (common == nullptr || *rule != *common) out.push_back(cmd::SetRule{kAll, *rule});
      }
    }
    tooltip(mixed ? "The instances' rules differ. Type a rule and press Enter to give it to every instance."
                  : "B/S (B36/S23), S/B (23/36) or a name; Enter applies it to every instance.");
    if (!rule_error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour::error);
      ImGui::TextWrapped("%s", rule_error_.c_str());
      ImGui::PopStyleColor();
    }
    bool first = true;
    for (const NamedRule& preset : named_rules()) {
      const float w = ImGui::CalcTextSize(preset.name.c_str()).x + style.FramePadding.x * 2;
      if (!first) {
        // Wrap the preset buttons onto a new line when the next one would not fit.
        if (ImGui::GetContentRegionAvail().x > w + style.ItemSpacing.x + ImGui::GetItemRectSize().x) {
          ImGui::SameLine();
        }
      }
      first = false;
      if (ImGui::SmallButton(preset.name.c_str())) {
        std::snprintf(rule_text_, sizeof rule_text_, "%s", preset.rule.to_string().c_str());
        rule_error_.clear();
        if (common == nullptr || preset.rule != *common) out.push_back(cmd::SetRule{kAll, preset.rule});
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preset.rule.to_string().c_str());
    }
  }

  // Lattice size: edited here, applied (resetting every instance) with the button.
  form_row("Size");
  {
    if (size_seen_[0] != model.width || size_seen_[1] != model.height) {
      size_edit_[0] = size_seen_[0] = model.width;
      size_edit_[1] = size_seen_[1] = model.height;
      size_error_.clear();
    }
    const float apply_w = ImGui::CalcTextSize("Apply").x + style.FramePadding.x * 2;
    const float presets_w =
        ImGui::CalcTextSize("presets").x + ImGui::GetFrameHeight() + style.FramePadding.x * 2;
    const float x_w = ImGui::CalcTextSize("\xC3\x97").x;
    const float field =
        (ImGui::GetContentRegionAvail().x - apply_w - presets_w - x_w - 4 * style.ItemInnerSpacing.x) * 0.5f;
    bool edited = false;
    ImGui::SetNextItemWidth(field);
    edited |= ImGui::InputInt("##width", &size_edit_[0], 0, 0);
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::TextUnformatted("\xC3\x97");  // multiplication sign
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::SetNextItemWidth(field);
    edited |= ImGui::InputInt("##height", &size_edit_[1], 0, 0);
    if (edited) check_size(size_edit_[0], size_edit_[1], size_error_);
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::SetNextItemWidth(presets_w);
    static constexpr int kSquares[] = {256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072};
    if (ImGui::BeginCombo("##size_presets", "presets")) {
      for (int side : kSquares) {
        char label[32];
        std::snprintf(label, sizeof label, "%d \xC3\x97 %d", side, side);
        if (ImGui::Selectable(label, size_edit_[0] == side && size_edit_[1] == side)) {
          size_edit_[0] = size_edit_[1] = side;
          size_error_.clear();
        }
      }
      ImGui::EndCombo();
    }
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    const bool changed = size_edit_[0] != model.width || size_edit_[1] != model.height;
    ImGui::BeginDisabled(!changed || !size_error_.empty());
    if (ImGui::Button("Apply##size") && check_size(size_edit_[0], size_edit_[1], size_error_)) {
      out.push_back(cmd::Size{size_edit_[0], size_edit_[1]});
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::SetTooltip("Multiples of 32. Applying resets every instance to a new soup of this size.");
    }
    if (!size_error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour::error);
      ImGui::TextWrapped("%s", size_error_.c_str());
      ImGui::PopStyleColor();
    }
  }

  form_row("Density");
  {
    double density = model.density;
    const double lo = 0.0, hi = 1.0;
    if (ImGui::SliderScalar("##density", ImGuiDataType_Double, &density, &lo, &hi, "%.3f",
                            ImGuiSliderFlags_AlwaysClamp) &&
        density != model.density) {
      out.push_back(cmd::Density{density});
    }
    tooltip("Fraction of live cells in new soups (added or reset instances).");
  }

  form_row("Seed");
  {
    const float check_w =
        ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize("same for all").x;
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - check_w - style.ItemSpacing.x);
    std::uint64_t seed = model.seed;
    if (ImGui::InputScalar("##seed", ImGuiDataType_U64, &seed) && seed != model.seed) {
      out.push_back(cmd::Seed{seed});
    }
    ImGui::SameLine();
    bool same = model.same_seed;
    if (ImGui::Checkbox("same for all", &same)) out.push_back(cmd::SameSeed{same});
    tooltip("On: every instance starts from the same soup, so the cross-check can compare them.");
  }

  form_row("Gens / frame");
  {
    int g = model.generations_per_frame;
    if (ImGui::SliderInt("##gpf", &g, 1, 1024, "%d",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp) &&
        g != model.generations_per_frame) {
      out.push_back(cmd::GensPerFrame{g});
    }
    tooltip("Generations every instance advances per displayed frame.");
  }

  form_row("Gens / launch");
  {
    int k = 0;
    for (const InstanceStatus& s : statuses_) {
      if (variant_iterates(s.variant)) {
        k = s.generations_per_launch;
        break;
      }
    }
    const bool any = k > 0;
    if (!any) k = count > 0 ? statuses_[0].generations_per_launch : 1;
    const int before = k;
    if (ImGui::SliderInt("##gpl", &k, 1, kMaxGenerationsPerLaunch, any ? "%d" : "%d (no iterate/bitpacked)",
                         ImGuiSliderFlags_AlwaysClamp) &&
        k != before) {
      out.push_back(cmd::GensPerLaunch{kAll, k});
    }
    tooltip("Generations per kernel launch for iterate and bitpacked (all instances).");
  }

  form_row("Run");
  {
    if (ImGui::Button(model.paused ? "Run###pause_run" : "Pause###pause_run")) {
      out.push_back(model.paused ? Command{cmd::Run{}} : Command{cmd::Pause{}});
    }
    tooltip("Space");
    ImGui::SameLine();
    if (ImGui::Button("Step##single")) out.push_back(cmd::Step{1});
    tooltip("One generation (N)");
    ImGui::SameLine();
    if (ImGui::Button("Reset all##reset")) out.push_back(cmd::Reset{kAll});
    tooltip("New soups from the density and seed; generation 0.");
  }

  form_row("Streams");
  {
    const StreamMode mode = engine.stream_mode();
    if (ImGui::RadioButton("one per instance", mode == StreamMode::per_instance) &&
        mode != StreamMode::per_instance) {
      out.push_back(cmd::SetStreamMode{StreamMode::per_instance});
    }
    ImGui::SameLine();
    if (ImGui::RadioButton("one shared", mode == StreamMode::shared) && mode != StreamMode::shared) {
      out.push_back(cmd::SetStreamMode{StreamMode::shared});
    }
    ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
    ImGui::TextWrapped(mode == StreamMode::per_instance ? "Watch concurrency: above 1, the streams overlap."
                                                        : "Instances run in turn: concurrency stays near 1.");
    ImGui::PopStyleColor();
  }

  form_row("Timed frames");
  {
    const int before = engine.timing_period();
    int p = before;
    if (ImGui::SliderInt("##timing", &p, 1, kMaxTimingPeriod, p == 1 ? "every frame" : "1 in %d",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp) &&
        p != before) {
      out.push_back(cmd::TimingPeriod{p});
    }
    tooltip(
        "Start and end events go around each instance's work on one frame in N.\n"
        "Each event costs the host about 1-1.6 us: with many small instances the events\n"
        "cost as much as the work; time fewer frames to see the streams' own speed.");
  }

  form_row("Display");
  {
    if (model.windowed) {
      bool vsync = model.vsync;
      if (ImGui::Checkbox("vsync", &vsync)) out.push_back(cmd::Vsync{vsync});
      ImGui::SameLine();
    }
    bool grid = model.grid;
    if (ImGui::Checkbox("grid lines", &grid)) out.push_back(cmd::Grid{grid});
    tooltip("Cell grid lines when zoomed in.");
    ImGui::SameLine();
    bool age = model.age;
    if (ImGui::Checkbox("age shading", &age)) out.push_back(cmd::Age{age});
    tooltip(
        "Cells that just died glow and fade to the dead colour over some 25 frames.\n"
        "After a zoom, pan or resize the old picture fades out the same way.");
    if (model.windowed && model.vsync) {
      text_coloured(colour::warn, "timings capped");
      tooltip("vsync on: frames wait for the display, so FPS and frame times are capped at its rate.");
    } else if (!model.windowed) {
      ImGui::TextDisabled("headless: frames are uncapped");
    }
  }
  ImGui::EndTable();
}

void Panel::draw_instances(const PanelModel& model, std::vector<Command>& out) {
  const int count = static_cast<int>(statuses_.size());
  ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg |
                          ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoPadOuterX |
                          ImGuiTableFlags_NoClip;
  if (count > kTableRowsShown) flags |= ImGuiTableFlags_ScrollY;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row_h = ImGui::GetFrameHeight() + 2 * style.CellPadding.y;
  const float head_h = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  const int shown = std::min(count, kTableRowsShown);
  const ImVec2 outer(0, count > kTableRowsShown ? head_h + row_h * static_cast<float>(shown) + 2 : 0.f);
  if (!ImGui::BeginTable("##instances", 7, flags, outer)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn(
      "variant", ImGuiTableColumnFlags_WidthFixed,
      ImGui::CalcTextSize("bitpacked").x + ImGui::GetFrameHeight() + style.FramePadding.x * 2);
  ImGui::TableSetupColumn("rule", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("k", ImGuiTableColumnFlags_WidthFixed,
                          ImGui::CalcTextSize("64").x + style.FramePadding.x * 2);
  ImGui::TableSetupColumn("check");
  ImGui::TableSetupColumn("live", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("999999").x);
  ImGui::TableSetupColumn("gen", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("999999").x);
  static constexpr const char* kHeaderTips[] = {
      "instance (click to select it for Patterns)",
      "variant (kernel)",
      "rule: type B/S or S/B, Enter applies",
      "generations per launch (iterate, bitpacked)",
      "cross-check: instances of one start state (group letter) must agree at equal generations",
      "population (live cells) of the newest summary",
      "generation of that summary",
  };
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < 7; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    tooltip(kHeaderTips[c]);
  }

  ImGuiListClipper clipper;
  clipper.Begin(count, row_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const std::size_t idx = static_cast<std::size_t>(i);
      const InstanceStatus& s = statuses_[idx];
      ImGui::TableNextRow(ImGuiTableRowFlags_None, row_h - 2 * style.CellPadding.y);
      if (i == model.hovered_instance) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, colour::hover_row);
      ImGui::PushID(i);

      ImGui::TableNextColumn();
      char label[16];
      std::snprintf(label, sizeof label, "%d", i);
      ImGui::AlignTextToFramePadding();
      if (ImGui::Selectable(label, i == selected_instance_)) selected_instance_ = i;
      tooltip("Select: pattern loads and saves go to this instance.");

      ImGui::TableNextColumn();
      ImGui::SetNextItemWidth(-FLT_MIN);
      Variant chosen{};
      if (variant_combo("##variant", variant_label(s.variant), &s.variant, chosen)) {
        out.push_back(cmd::SetVariant{one(idx), chosen});
      }

      ImGui::TableNextColumn();
      RuleField& f = rule_fields_[idx % rule_fields_.size()];
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
          if (*rule != s.rule) out.push_back(cmd::SetRule{one(idx), *rule});
        }
      }

      ImGui::TableNextColumn();
      if (variant_iterates(s.variant)) {
        int k = s.generations_per_launch;
        ImGui::SetNextItemWidth(-FLT_MIN);
        if (ImGui::DragInt("##k", &k, 0.2f, 1, kMaxGenerationsPerLaunch, "%d",
                           ImGuiSliderFlags_AlwaysClamp) &&
            k != s.generations_per_launch) {
          out.push_back(cmd::GensPerLaunch{one(idx), k});
        }
        tooltip("Generations per launch (drag or double-click to type)");
      } else {
        ImGui::AlignTextToFramePadding();
        ImGui::TextDisabled("1");
      }

      ImGui::TableNextColumn();
      draw_badge(idx, statuses_, checks_);

      char num[32];
      ImGui::TableNextColumn();
      ImGui::AlignTextToFramePadding();
      if (s.summary) {
        text_right(format_count(s.summary->population, num, sizeof num));
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip("%" PRIu64 " live cells at generation %" PRIu64, s.summary->population,
                            s.summary->generation);
        }
      } else {
        ImGui::TextDisabled("\xE2\x80\xA6");
      }

      ImGui::TableNextColumn();
      ImGui::AlignTextToFramePadding();
      // The generation of the summary the live count comes from, as on the tile labels: the
      // engine may already stand a frame or two further.
      const std::uint64_t shown = s.summary ? s.summary->generation : s.generation;
      text_right(format_count(shown, num, sizeof num));
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("generation %" PRIu64 " of the live count; the engine stands at %" PRIu64
                          " (%d \xC3\x97 %d)",
                          shown, s.generation, s.width, s.height);
      }
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
}

void Panel::draw_timings(const PanelModel& model) {
  const Engine& engine = *model.engine;
  const int count = static_cast<int>(statuses_.size());
  const ImGuiStyle& style = ImGui::GetStyle();
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                     ImGuiTableFlags_NoPadOuterX | ImGuiTableFlags_NoClip;
  const float row_h = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  const int shown = std::min(count, kTableRowsShown);
  const ImVec2 outer(0, row_h * static_cast<float>(shown + 1) + 2);
  char num[32];
  if (count > 0 && ImGui::BeginTable("##timings", 9, kFlags, outer)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // Fixed widths: the cells are drawn without items, so nothing auto-fits.
    const float num_w = ImGui::CalcTextSize("0.0000").x;
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("00").x);
    ImGui::TableSetupColumn("variant", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("bitpacked").x);
    ImGui::TableSetupColumn("last", ImGuiTableColumnFlags_WidthFixed, num_w);
    ImGui::TableSetupColumn("mean", ImGuiTableColumnFlags_WidthFixed, num_w);
    ImGui::TableSetupColumn("std", ImGuiTableColumnFlags_WidthFixed, num_w);
    ImGui::TableSetupColumn("min", ImGuiTableColumnFlags_WidthFixed, num_w);
    ImGui::TableSetupColumn("max", ImGuiTableColumnFlags_WidthFixed, num_w);
    ImGui::TableSetupColumn("disp", ImGuiTableColumnFlags_WidthFixed, num_w);
    ImGui::TableSetupColumn("cells/s", ImGuiTableColumnFlags_WidthStretch);
    // Header row by hand, so each header gets its tooltip.
    static constexpr const char* kHeaderTips[] = {
        "instance",
        "variant",
        "step ms, last timed frame",
        "step ms, mean over the last 120 timed frames",
        "step ms, standard deviation over 120 timed frames",
        "step ms, minimum over 120 timed frames",
        "step ms, maximum over 120 timed frames",
        "display ms (render kernel into the tile), mean over 120 timed frames",
        "cell updates per second from the mean step time",
    };
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < 9; ++c) {
      if (!ImGui::TableSetColumnIndex(c)) continue;
      ImGui::TableHeader(ImGui::TableGetColumnName(c));
      tooltip(kHeaderTips[c]);
    }

    // The rows are the panel's hottest part (issue 6: the timings must cost nothing visible), so
    // their cells are drawn straight into the draw list: no ImGui item, no printf.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const char* none = "-";
    auto cell = [&](const char* t, bool right, ImU32 col) {
      ImGui::TableNextColumn();
      ImVec2 p = ImGui::GetCursorScreenPos();
      if (right) p.x += std::max(0.f, ImGui::GetContentRegionAvail().x - ascii_width(t));
      dl->AddText(p, col, t);
    };
    ImGuiListClipper clipper;
    clipper.Begin(count, row_h);
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const InstanceStatus& s = statuses_[static_cast<std::size_t>(i)];
        ImGui::TableNextRow(ImGuiTableRowFlags_None, row_h);
        if (i == model.hovered_instance) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, colour::hover_row);
        cell(format_index(i, num, sizeof num), false, text);
        cell(variant_label(s.variant), false, text);
        const bool timed = s.step_ms.samples > 0;
        const double step[] = {s.step_ms.last, s.step_ms.mean, s.step_ms.std, s.step_ms.min, s.step_ms.max};
        for (double v : step) cell(timed ? format_ms(v, num, sizeof num) : none, true, timed ? text : dim);
        const bool shown = s.display_ms.samples > 0;
        cell(shown ? format_ms(s.display_ms.mean, num, sizeof num) : none, true, shown ? text : dim);
        cell(s.cups > 0 ? format_si(s.cups, num, sizeof num) : none, true, s.cups > 0 ? text : dim);
      }
    }
    ImGui::EndTable();
  }

  // Frame totals.
  const FrameTimings frame = engine.frame_timings();
  double total_cups = 0;
  for (const InstanceStatus& s : statuses_) total_cups += s.cups;
  ImGui::Spacing();
  if (!ImGui::BeginTable("##totals", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_NoPadOuterX))
    return;
  auto label = [](const char* text, const char* tip) {
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
    ImGui::TextUnformatted(text);
    ImGui::PopStyleColor();
    tooltip(tip);
    ImGui::TableNextColumn();
  };
  char a[32];
  char b[32];
  label("FPS", "Frames per second (window: after vsync, if on)");
  ImGui::Text("%.1f", model.fps);
  if (model.windowed && model.vsync) {
    ImGui::SameLine();
    text_coloured(colour::warn, "(vsync cap)");
    tooltip("vsync on: frames wait for the display, so FPS and frame times are capped at its rate.");
  }
  label("CPU frame", "Host time per frame: mean \xC2\xB1 std over 120 frames, ms");
  ImGui::Text("%s \xC2\xB1 %s ms", format_ms(model.cpu_frame_ms.mean, a, sizeof a),
              format_ms(model.cpu_frame_ms.std, b, sizeof b));
  label("GPU span", "Earliest start to latest end of the frame's GPU work over all streams");
  if (frame.valid) {
    ImGui::Text("%s ms", format_ms(frame.gpu_span_ms, a, sizeof a));
  } else {
    ImGui::TextDisabled("\xE2\x80\x94");
  }
  label("busy", "Sum of the streams' busy time in the frame");
  if (frame.valid) {
    ImGui::Text("%s ms", format_ms(frame.busy_ms, a, sizeof a));
  } else {
    ImGui::TextDisabled("\xE2\x80\x94");
  }
  label("concurrency", "busy / span: how many streams ran at once, on average");
  if (frame.valid) {
    ImGui::PushStyleColor(ImGuiCol_Text,
                          frame.concurrency > 1.05 ? colour::good : ImGui::GetColorU32(ImGuiCol_Text));
    ImGui::Text("%.2f\xC3\x97", frame.concurrency);
    ImGui::PopStyleColor();
  } else {
    ImGui::TextDisabled("\xE2\x80\x94");
  }
  label("host syncs", "Blocking host-device calls per frame (0 expected)");
  ImGui::PushStyleColor(ImGuiCol_Text, model.host_syncs_per_frame == 0 ? colour::good : colour::warn);
  ImGui::Text("%" PRIu64 " / frame", model.host_syncs_per_frame);
  ImGui::PopStyleColor();
  label("cells/s", "Sum over instances of cell updates per second");
  ImGui::TextUnformatted(format_si(total_cups, a, sizeof a));
  label("backend", "The engine that runs the instances (the device is named at the top)");
  ImGui::TextUnformatted(backend_.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", device_.c_str());
  ImGui::EndTable();
}

void Panel::draw_patterns(const PanelModel& model, std::vector<Command>& out) {
  const int count = static_cast<int>(statuses_.size());
  const ImGuiStyle& style = ImGui::GetStyle();
  if (count == 0) {
    ImGui::TextDisabled("No instance.");
    return;
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Into instance");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("000").x + ImGui::GetFrameHeight() * 2 +
                          style.ItemInnerSpacing.x * 2);
  int sel = selected_instance_;
  if (ImGui::InputInt("##selected", &sel)) selected_instance_ = std::clamp(sel, 0, count - 1);
  ImGui::SameLine();
  ImGui::TextDisabled("(or click a # above, or drop a file on a tile)");

  const std::size_t target = static_cast<std::size_t>(selected_instance_);
  if (!model.bundled_patterns.empty()) {
    const float lines = static_cast<float>(std::min<std::size_t>(model.bundled_patterns.size(), 6));
    const ImVec2 size(-FLT_MIN, lines * ImGui::GetTextLineHeightWithSpacing() + style.FramePadding.y * 2);
    if (ImGui::BeginListBox("##bundled", size)) {
      for (const std::string& name : model.bundled_patterns) {
        if (ImGui::Selectable(name.c_str(), false)) {
          out.push_back(cmd::Load{target, model.patterns_dir + "/" + name});
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Load into instance %d (centred)", selected_instance_);
      }
      ImGui::EndListBox();
    }
  }

  const float load_w = ImGui::CalcTextSize("Load").x + style.FramePadding.x * 2;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - load_w - style.ItemInnerSpacing.x);
  const bool enter = ImGui::InputTextWithHint("##path", "path to a .rle or .cells file", path_text_,
                                              sizeof path_text_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  ImGui::BeginDisabled(path_text_[0] == '\0');
  if ((ImGui::Button("Load##path") || enter) && path_text_[0] != '\0') {
    out.push_back(cmd::Load{target, path_text_});
  }
  ImGui::EndDisabled();

  char label[48];
  std::snprintf(label, sizeof label, "Save instance %d as RLE###save", selected_instance_);
  if (ImGui::Button(label)) out.push_back(cmd::Save{target, ""});
  tooltip("Saved under a numbered file name; never overwrites.");
  ImGui::SameLine();
  if (ImGui::Button("Screenshot##shot")) out.push_back(cmd::Screenshot{""});
  tooltip("PNG of the whole window, numbered (S)");
}

}  // namespace ls::ui
