// Facts about the panel drawn in a headless ImGui context (font atlas built, no GL backend):
// untouched, it emits no command; a pressed control emits exactly its command; an invalid rule
// shows its reason and emits nothing; the cross-check follows the engine's origins; HiDPI scales.
#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <variant>
#include <vector>

#include "panel_fixture.hpp"
#include "ui/cross_check.hpp"

namespace ls::ui {
namespace {

TEST_F(PanelTest, LoadsTheBundledFontAtFifteenPixels) {
  EXPECT_TRUE(fonts_loaded_);
  ASSERT_GT(ImGui::GetIO().Fonts->Fonts.Size, 0);
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 15.f);
  EXPECT_FLOAT_EQ(ImGui::GetIO().FontGlobalScale, 1.f);
}

TEST_F(PanelTest, UntouchedPanelEmitsNoCommand) {
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(frame().empty()) << "frame " << i;
  panel_.toggle_help();
  EXPECT_TRUE(panel_.help_visible());
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(frame().empty());
  // And with vsync off, shared streams, paused, headless and an error showing.
  model_.vsync = false;
  model_.paused = true;
  model_.windowed = false;
  model_.error = "rule: column 2: expected a digit";
  engine_.set_stream_mode(StreamMode::shared);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(frame().empty());
  // And with no instance at all, and with no engine.
  while (engine_.size() > 0) engine_.remove(engine_.size() - 1);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(frame().empty());
  with_engine_ = false;
  model_ = PanelModel{};
  EXPECT_TRUE(frame().empty());
}

TEST_F(PanelTest, PanelFillsTheWindowHeightAtItsWidth) {
  frame();
  ImGuiWindow* window = ImGui::FindWindowByName("lifestreams##panel");
  ASSERT_NE(window, nullptr);
  EXPECT_FLOAT_EQ(window->Pos.x, 0);
  EXPECT_FLOAT_EQ(window->Pos.y, 0);
  EXPECT_FLOAT_EQ(window->Size.x, panel_.width());
  EXPECT_FLOAT_EQ(window->Size.y, 900);
}

TEST_F(PanelTest, PlusButtonAsksForOneMoreInstance) {
  frame();
  ImGui::ActivateItem(scene_item("+##more"));
  std::vector<Command> out = frame();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Instances>(out[0]));
  EXPECT_EQ(std::get<cmd::Instances>(out[0]).count, 5);
  EXPECT_TRUE(frame().empty());
}

TEST_F(PanelTest, PauseButtonFollowsThePausedState) {
  frame();
  ImGui::ActivateItem(scene_item("Pause###pause_run"));
  std::vector<Command> out = frame();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<cmd::Pause>(out[0]));
  model_.paused = true;
  frame();
  ImGui::ActivateItem(scene_item("Run###pause_run"));
  out = frame();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<cmd::Run>(out[0]));
}

TEST_F(PanelTest, AgeShadingCheckboxFollowsTheScene) {
  frame();
  ImGui::ActivateItem(scene_item("age shading"));
  std::vector<Command> out = frame();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Age>(out[0]));
  EXPECT_TRUE(std::get<cmd::Age>(out[0]).on);
  model_.age = true;
  frame();
  ImGui::ActivateItem(scene_item("age shading"));
  out = frame();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Age>(out[0]));
  EXPECT_FALSE(std::get<cmd::Age>(out[0]).on);
}

TEST_F(PanelTest, StreamsRowOffersOneGraphPerFrame) {
  frame();
  ImGui::ActivateItem(scene_item("one graph per frame"));
  std::vector<Command> out = frame();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::SetStreamMode>(out[0]));
  EXPECT_EQ(std::get<cmd::SetStreamMode>(out[0]).mode, StreamMode::graph);
  engine_.set_stream_mode(StreamMode::graph);
  EXPECT_TRUE(frame().empty());
}

TEST_F(PanelTest, TimedFramesSliderAsksForTheTimingPeriodTyped) {
  frame();
  focus_text(scene_item("##timing"));
  type("8");
  std::vector<Command> out = press_enter();
  for (const Command& c : frame()) out.push_back(c);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::TimingPeriod>(out[0]));
  EXPECT_EQ(std::get<cmd::TimingPeriod>(out[0]).frames, 8);
}

TEST_F(PanelTest, InvalidRuleShowsItsReasonAndEmitsNothing) {
  frame();
  focus_text(scene_item("##rule_all"));
  type("B3/S2x");
  EXPECT_TRUE(frame().empty());
  EXPECT_NE(panel_.rule_error().find("column"), std::string::npos) << panel_.rule_error();
  EXPECT_TRUE(press_enter().empty());
  EXPECT_TRUE(frame().empty());
  EXPECT_FALSE(panel_.rule_error().empty());
}

TEST_F(PanelTest, ValidRuleIsAppliedToAllOnEnter) {
  frame();
  focus_text(scene_item("##rule_all"));
  type("B36/S23");
  EXPECT_TRUE(frame().empty());  // typing alone changes nothing
  EXPECT_TRUE(panel_.rule_error().empty());
  std::vector<Command> out = press_enter();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::SetRule>(out[0]));
  const cmd::SetRule& set = std::get<cmd::SetRule>(out[0]);
  EXPECT_TRUE(set.target.all);
  EXPECT_EQ(set.rule, parse_rule("B36/S23"));
}

// An error set by a first bad key, between the field colour's push and its pop, must not unbalance
// them (an ImGui assertion, an abort in Debian's build). Bad then good text, key by key.
TEST_F(PanelTest, TypingBadThenGoodTextIntoAnInstanceRuleKeepsThePanelAlive) {
  frame();
  focus_text(instance_rule_item(0));
  type("x");  // "B3/S23" is selected: the field now holds "x"
  EXPECT_TRUE(frame().empty());
  type("y");
  EXPECT_TRUE(frame().empty());
  EXPECT_TRUE(press_enter().empty());  // "xy" is no rule: nothing applied
  frame();
  focus_text(instance_rule_item(0));
  type("B36/S23");
  EXPECT_TRUE(frame().empty());
  std::vector<Command> out = press_enter();
  ASSERT_EQ(out.size(), 1u);
  const auto* set = std::get_if<cmd::SetRule>(&out[0]);
  ASSERT_NE(set, nullptr);
  EXPECT_FALSE(set->target.all);
  EXPECT_EQ(set->target.index, 0u);
  EXPECT_EQ(set->rule, parse_rule("B36/S23"));
}

TEST_F(PanelTest, EscInAnInstanceRuleFieldChangesNothing) {
  frame();
  focus_text(instance_rule_item(1));
  type("B2/S");
  EXPECT_TRUE(frame().empty());
  EXPECT_TRUE(press_escape().empty());
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(frame().empty());
}

// With the instances' rules differing, Rule (all) shows none (hint "mixed"): a key and Esc must not
// give a stale common rule to every instance.
TEST_F(PanelTest, RuleAllSaysMixedAndEscChangesNothing) {
  frame();
  EXPECT_STREQ(panel_.rule_all_text(), "B3/S23");
  engine_.set_rule(0, parse_rule("B36/S23"));
  frame();
  EXPECT_STREQ(panel_.rule_all_text(), "");  // shown as the hint "mixed"
  focus_text(scene_item("##rule_all"));
  type("q");
  EXPECT_TRUE(frame().empty());
  EXPECT_TRUE(press_escape().empty());
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(frame().empty());
  EXPECT_EQ(engine_.status(0).rule, parse_rule("B36/S23"));
  EXPECT_EQ(engine_.status(1).rule, parse_rule("B3/S23"));
  // Typing a rule over "mixed" and Enter gives it to all.
  focus_text(scene_item("##rule_all"));
  type("B3/S23");
  std::vector<Command> out = press_enter();
  ASSERT_EQ(out.size(), 1u);
  apply_rules(out);
  for (std::size_t i = 0; i < engine_.size(); ++i) EXPECT_EQ(engine_.status(i).rule, parse_rule("B3/S23"));
}

TEST_F(PanelTest, ResetAndStepEmitTheirCommands) {
  frame();
  ImGui::ActivateItem(scene_item("Step##single"));
  std::vector<Command> out = frame();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Step>(out[0]));
  EXPECT_EQ(std::get<cmd::Step>(out[0]).generations, 1);
  ImGui::ActivateItem(scene_item("Reset all##reset"));
  out = frame();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Reset>(out[0]));
  EXPECT_TRUE(std::get<cmd::Reset>(out[0]).target.all);
}

TEST_F(PanelTest, PatternsGoToTheSelectedInstance) {
  // A tall display, so that the section at the bottom is not clipped (clipped items take no input).
  ImGui::GetIO().DisplaySize = ImVec2(1600, 2000);
  frame();
  ImGuiWindow* window = ImGui::FindWindowByName("lifestreams##panel");
  ASSERT_NE(window, nullptr);
  ImGui::ActivateItem(ImHashStr("Patterns", 0, window->ID));  // open the collapsed section
  EXPECT_TRUE(frame().empty());
  // The selected instance is typed into the section's own field (clamped to the count).
  focus_text(ImHashStr("##selected", 0, window->ID));
  type("2");
  EXPECT_TRUE(frame().empty());
  EXPECT_TRUE(press_enter().empty());
  EXPECT_EQ(panel_.selected_instance(), 2);
  // A click on Load leaves the field (which then loads nothing) and loads once.
  const std::string glider = std::string(LS_SOURCE_DIR) + "/assets/patterns/glider.rle";
  focus_text(ImHashStr("##path", 0, window->ID));
  type(glider.c_str());
  EXPECT_TRUE(frame().empty());
  ImGui::ActivateItem(ImHashStr("Load##path", 0, window->ID));
  std::vector<Command> out = frame();
  for (const Command& c : frame()) out.push_back(c);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Load>(out[0]));
  EXPECT_EQ(std::get<cmd::Load>(out[0]).index, 2u);
  EXPECT_EQ(std::get<cmd::Load>(out[0]).path, glider);
  // Enter in the path field loads too.
  focus_text(ImHashStr("##path", 0, window->ID));
  out = press_enter();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Load>(out[0]));
  EXPECT_EQ(std::get<cmd::Load>(out[0]).index, 2u);
  EXPECT_EQ(std::get<cmd::Load>(out[0]).path, glider);
  ImGui::ActivateItem(ImHashStr("###save", 0, window->ID));
  out = frame();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Save>(out[0]));
  EXPECT_EQ(std::get<cmd::Save>(out[0]).index, 2u);
  EXPECT_EQ(std::get<cmd::Save>(out[0]).path, "");
  ImGui::ActivateItem(ImHashStr("Screenshot##shot", 0, window->ID));
  out = frame();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Screenshot>(out[0]));
  EXPECT_EQ(std::get<cmd::Screenshot>(out[0]).path, "");
}

TEST_F(PanelTest, CrossCheckFollowsTheEngineOrigins) {
  std::vector<InstanceStatus> st;
  for (std::size_t i = 0; i < engine_.size(); ++i) st.push_back(engine_.status(i));
  std::vector<CrossCheck> checks;
  cross_check(st, checks);
  // Four instances of one spec (variants differ, state is the same): one group, all agree.
  for (const CrossCheck& c : checks) {
    EXPECT_EQ(c.group, 0);
    EXPECT_EQ(c.state, CrossCheck::State::agree);
  }
  // Editing a cell gives instance 2 its own origin: it leaves the group.
  const bool alive = engine_.read(2).get(5, 5);
  engine_.set_cell(2, 5, 5, !alive);
  engine_.step(1);
  engine_.request_summaries();
  st.clear();
  for (std::size_t i = 0; i < engine_.size(); ++i) st.push_back(engine_.status(i));
  cross_check(st, checks);
  EXPECT_EQ(checks[2].state, CrossCheck::State::none);
  EXPECT_EQ(checks[0].state, CrossCheck::State::agree);
  EXPECT_TRUE(frame().empty());
}

TEST_F(PanelTest, ScaleMultipliesWidthAndStyleSizes) {
  // A display wide enough that the width's cap (a fraction of the display) does not bite.
  ImGui::GetIO().DisplaySize = ImVec2(4000, 900);
  const float width1 = panel_.width();
  const float padding1 = ImGui::GetStyle().FramePadding.x;
  panel_.set_scale(2.f);
  EXPECT_FLOAT_EQ(panel_.width(), 2 * width1);
  EXPECT_FLOAT_EQ(ImGui::GetStyle().FramePadding.x, 2 * padding1);
  // The font was loaded for scale 1: text is scaled to 30 px until load_fonts(…, 2) reloads it.
  EXPECT_FLOAT_EQ(ImGui::GetIO().FontGlobalScale, 2.f);
  // Applying a scale again does not compound.
  panel_.set_scale(2.f);
  EXPECT_FLOAT_EQ(ImGui::GetStyle().FramePadding.x, 2 * padding1);
  EXPECT_TRUE(frame().empty());
}

}  // namespace
}  // namespace ls::ui
