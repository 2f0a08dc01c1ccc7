// Facts about the panel's typed fields, with ImGui's assertions on as in Debian's build: in every
// field — each instance's rule, Rule (all), width, height, seed, density, the other sliders' typed
// values, k, the GPU list, the pattern path — bad then good text, ended by Enter, Tab or Esc, keeps
// the panel alive; Enter or Tab with good text emits exactly the command with the typed value (a
// new seed or density followed by Reset all's command) and leaves the field; bad text emits
// nothing and says why, and Enter with it keeps the field active (the keys stay with the field,
// not the tiles); Esc emits nothing and shows the state again.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "panel_fixture.hpp"

namespace ls::ui {
namespace {

using Check = std::function<void(const Command&)>;

/// One typed field: how to find it, two bad texts, two good ones and the command each good one
/// asks for.
struct Field {
  const char* name;
  std::function<ImGuiID()> id;
  const char* bad[2];
  std::string good[2];
  Check expect[2];
  std::function<bool(const Panel&, const std::string&)> shows_error;
  bool resets = false;  // a good text's command is followed by Reset all's (new soups at once)
};

class PanelFieldsTest : public PanelTest {
 protected:
  void alive(const char* step) {
    ImGuiWindow* window = panel_window();
    ASSERT_NE(window, nullptr) << step;
    EXPECT_TRUE(window->Active) << step;
  }
  static std::string text_of(const std::vector<Command>& out) {
    return std::to_string(out.size()) + " commands";
  }

  /// Runs the six cases on `f`.
  void exercise(const Field& f) {
    SCOPED_TRACE(f.name);
    frame();
    const std::string state = shown_text(f.id());
    // Esc after bad text, and after good text: nothing, and the field shows the state again.
    for (const char* text : {f.bad[0], f.good[0].c_str()}) {
      focus_text(f.id());
      type(text);
      EXPECT_TRUE(frame().empty()) << text;  // typing alone changes nothing
      EXPECT_TRUE(press_escape().empty()) << "Esc after " << text;
      alive("Esc");
      EXPECT_TRUE(frame().empty());
      EXPECT_EQ(shown_text(f.id()), state) << "after Esc from " << text;
    }
    // Enter, then Tab, with bad text: nothing, and the reason shows. Enter keeps the field active
    // (the next keys still go to it), Tab leaves it.
    focus_text(f.id());
    type(f.bad[0]);
    EXPECT_TRUE(frame().empty());
    EXPECT_TRUE(press_enter().empty()) << "Enter after " << f.bad[0];
    alive("Enter, bad");
    EXPECT_EQ(ImGui::GetActiveID(), f.id()) << "Enter with " << f.bad[0] << " left the field";
    EXPECT_TRUE(frame().empty());
    EXPECT_EQ(ImGui::GetActiveID(), f.id());
    EXPECT_TRUE(ImGui::GetIO().WantCaptureKeyboard) << "the keys would go to the tiles";
    EXPECT_TRUE(ImGui::GetIO().WantTextInput);
    EXPECT_TRUE(f.shows_error(panel_, panel_text())) << "no error shown after Enter with " << f.bad[0];
    EXPECT_EQ(ImGui::GetActiveID(), f.id());
    focus_text(f.id());
    type(f.bad[1]);
    EXPECT_TRUE(frame().empty());
    EXPECT_TRUE(press_tab().empty()) << "Tab after " << f.bad[1];
    alive("Tab, bad");
    EXPECT_NE(ImGui::GetActiveID(), f.id()) << "Tab with " << f.bad[1] << " stayed in the field";
    EXPECT_TRUE(f.shows_error(panel_, panel_text())) << "no error shown after Tab with " << f.bad[1];
    // Tab, then Enter, with good text: exactly the command with the typed value.
    focus_text(f.id());
    type(f.good[0].c_str());
    EXPECT_TRUE(frame().empty());
    std::vector<Command> out = press_tab();
    alive("Tab, good");
    expect_commands(f, 0, out);
    focus_text(f.id());
    type(f.good[1].c_str());
    EXPECT_TRUE(frame().empty());
    out = press_enter();
    for (const Command& c : frame()) out.push_back(c);
    alive("Enter, good");
    expect_commands(f, 1, out);
    EXPECT_NE(ImGui::GetActiveID(), f.id()) << "Enter with " << f.good[1] << " stayed in the field";
    EXPECT_TRUE(frame().empty());
    EXPECT_FALSE(ImGui::GetIO().WantTextInput) << "the keys would not go back to the tiles";
  }

  /// `out` is good text k's command, followed by Reset all's where the field resets.
  static void expect_commands(const Field& f, int k, const std::vector<Command>& out) {
    const std::string& text = f.good[k];
    ASSERT_EQ(out.size(), f.resets ? 2u : 1u) << "after " << text;
    f.expect[k](out[0]);
    if (f.resets) {
      ASSERT_TRUE(std::holds_alternative<cmd::Reset>(out[1])) << "after " << text;
      EXPECT_TRUE(std::get<cmd::Reset>(out[1]).target.all);
    }
  }

  ImGuiID patterns_item(const char* label) {
    ImGuiWindow* window = panel_window();
    EXPECT_NE(window, nullptr);
    return ImHashStr(label, 0, window->ID);
  }
};

/// The panel's text holds `fragment`.
std::function<bool(const Panel&, const std::string&)> says(const char* fragment) {
  return
      [fragment](const Panel&, const std::string& text) { return text.find(fragment) != std::string::npos; };
}

template <class C>
const C& as(const Command& c) {
  EXPECT_TRUE(std::holds_alternative<C>(c)) << "another command";
  static const C none{};
  return std::holds_alternative<C>(c) ? std::get<C>(c) : none;
}

Check set_rule(bool all, std::size_t index, const char* rule) {
  return [=](const Command& c) {
    const cmd::SetRule& r = as<cmd::SetRule>(c);
    EXPECT_EQ(r.target.all, all);
    if (!all) {
      EXPECT_EQ(r.target.index, index);
    }
    EXPECT_EQ(r.rule, parse_rule(rule));
  };
}

TEST_F(PanelFieldsTest, EachInstanceRuleFieldFollowsEnterTabAndEsc) {
  for (int i = 0; i < 4; ++i) {
    const auto index = static_cast<std::size_t>(i);
    Field f{"instance rule",
            [i] { return instance_item(i, "##rule"); },
            {"B3/S2x", "xy"},
            {"B36/S23", "B2/S"},
            {set_rule(false, index, "B36/S23"), set_rule(false, index, "B2/S")},
            [index](const Panel& panel, const std::string&) {
              return !panel.instance_rule_error(index).empty();
            }};
    exercise(f);
  }
}

TEST_F(PanelFieldsTest, RuleAllFollowsEnterTabAndEsc) {
  exercise({"Rule (all)",
            [] { return scene_item("##rule_all"); },
            {"B3/S2x", "nonsense"},
            {"B36/S23", "B2/S"},
            {set_rule(true, 0, "B36/S23"), set_rule(true, 0, "B2/S")},
            says("column")});
}

// Size makes new soups itself (the app replaces every instance at the new size): a Reset after it
// would build a large lattice twice.
TEST_F(PanelFieldsTest, SizeFieldsFollowEnterTabAndEsc) {
  auto size = [](int w, int h) {
    return [=](const Command& c) {
      EXPECT_EQ(as<cmd::Size>(c).width, w);
      EXPECT_EQ(as<cmd::Size>(c).height, h);
    };
  };
  exercise({"width",
            [] { return scene_item("##width"); },
            {"100", "abc"},
            {"128", "256"},
            {size(128, 64), size(256, 64)},
            [](const Panel&, const std::string& text) {
              return text.find("32") != std::string::npos || text.find("whole number") != std::string::npos;
            }});
  exercise({"height",
            [] { return scene_item("##height"); },
            {"abc", "33"},
            {"96", "32"},
            {size(64, 96), size(64, 32)},
            [](const Panel&, const std::string& text) {
              return text.find("32") != std::string::npos || text.find("whole number") != std::string::npos;
            }});
}

TEST_F(PanelFieldsTest, SeedFollowsEnterTabAndEscAndMakesNewSoups) {
  auto seed = [](std::uint64_t v) { return [=](const Command& c) { EXPECT_EQ(as<cmd::Seed>(c).seed, v); }; };
  exercise({"seed",
            [] { return scene_item("##seed"); },
            {"-5", "12x"},
            {"42", "18446744073709551615"},
            {seed(42), seed(18446744073709551615ull)},
            says("seed: type a whole number"),
            true});
}

TEST_F(PanelFieldsTest, DensityTypedIntoItsSliderFollowsEnterTabAndEscAndMakesNewSoups) {
  auto density = [](double v) {
    return [=](const Command& c) { EXPECT_DOUBLE_EQ(as<cmd::Density>(c).p, v); };
  };
  exercise({"density",
            [] { return scene_item("##density"); },
            {"2", "1e"},
            {"0.5", "0.125"},
            {density(0.5), density(0.125)},
            says("density: type a number from 0 to 1"),
            true});
}

TEST_F(PanelFieldsTest, TheOtherSlidersTypedValuesFollowEnterTabAndEsc) {
  exercise({"instances",
            [] { return scene_item("##count"); },
            {"99", "0"},
            {"6", "2"},
            {[](const Command& c) { EXPECT_EQ(as<cmd::Instances>(c).count, 6); },
             [](const Command& c) { EXPECT_EQ(as<cmd::Instances>(c).count, 2); }},
            says("instances: type a whole number from 1 to 64")});
  exercise({"generations per frame",
            [] { return scene_item("##gpf"); },
            {"0", "5000"},
            {"8", "3"},
            {[](const Command& c) { EXPECT_EQ(as<cmd::GensPerFrame>(c).n, 8); },
             [](const Command& c) { EXPECT_EQ(as<cmd::GensPerFrame>(c).n, 3); }},
            says("generations per frame: type a whole number")});
  exercise({"generations per launch",
            [] { return scene_item("##gpl"); },
            {"65", "0"},
            {"8", "3"},
            {[](const Command& c) { EXPECT_EQ(as<cmd::GensPerLaunch>(c).k, 8); },
             [](const Command& c) { EXPECT_EQ(as<cmd::GensPerLaunch>(c).k, 3); }},
            says("generations per launch: type a whole number")});
  exercise({"timed frames",
            [] { return scene_item("##timing"); },
            {"0", "1001"},
            {"8", "50"},
            {[](const Command& c) { EXPECT_EQ(as<cmd::TimingPeriod>(c).frames, 8); },
             [](const Command& c) { EXPECT_EQ(as<cmd::TimingPeriod>(c).frames, 50); }},
            says("timed frames: type a whole number")});
}

TEST_F(PanelFieldsTest, AnInstancesKFollowsEnterTabAndEsc) {
  // Instance 2 iterates: its k is a drag with a typed mode. Its error is its tooltip (the rows
  // keep one height), so the test hovers nothing and looks for no text: the command is the fact.
  auto k = [](int v) {
    return [=](const Command& c) {
      const cmd::GensPerLaunch& g = as<cmd::GensPerLaunch>(c);
      EXPECT_FALSE(g.target.all);
      EXPECT_EQ(g.target.index, 2u);
      EXPECT_EQ(g.k, v);
    };
  };
  exercise({"k",
            [] { return instance_item(2, "##k"); },
            {"0", "65"},
            {"4", "32"},
            {k(4), k(32)},
            [](const Panel&, const std::string&) { return true; }});
}

// The "runs on" column on an engine over GPUs 0 and 1 (the model as the app fills it from a
// MultiEngine: instances round-robin): each row shows its instance's GPUs; Enter or Tab with
// another list emits exactly the command the script line `devices I LIST` is; a list the script
// parser refuses (a repeat, not a number) emits nothing and says the parser's reason.
TEST_F(PanelFieldsTest, AnInstancesGpuFieldIssuesTheDevicesCommand) {
  frame();
  with_engine_ = false;
  model_.instance_devices = {{0}, {1}, {0}, {1}};
  frame();
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(shown_text(instance_item(i, "##gpu")), std::to_string(i)) << "row " << i;
  }
  auto devices = [](std::size_t index, std::vector<int> want) {
    return [=](const Command& c) {
      const cmd::Devices& d = as<cmd::Devices>(c);
      EXPECT_FALSE(d.target.all);
      EXPECT_EQ(d.target.index, index);
      EXPECT_EQ(d.devices, want);
      EXPECT_EQ(format_command(c), "devices " + std::to_string(index) + " " + device_list_text(want));
      EXPECT_EQ(std::get<cmd::Devices>(parse_command(format_command(c)).value()).devices, want)
          << "the script line gives the same command";
    };
  };
  exercise({"instance GPU",
            [] { return instance_item(1, "##gpu"); },
            {"1,1", "x"},
            {"0", "0,1"},
            {devices(1, {0}), devices(1, {0, 1})},
            [](const Panel& panel, const std::string&) { return !panel.instance_devices_error(1).empty(); }});
  // The parser's own reason, without the script column.
  focus_text(instance_item(0, "##gpu"));
  type("1,1");
  frame();
  EXPECT_TRUE(press_enter().empty());
  EXPECT_EQ(panel_.instance_devices_error(0), "devices: device 1 is listed twice in '1,1'");
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The column says where each instance runs: "CPU" on the CPU engine, "GPU" and the device on a
// GPU engine ("GPUs" and the list for an instance over several).
TEST_F(PanelFieldsTest, TheRunsOnColumnSaysCpuOrTheGpus) {
  frame();
  const std::string cpu = panel_text();
  with_engine_ = false;
  model_.instance_devices = {{0}, {1}, {0, 1}, {1}};
  frame();
  const std::string gpus = panel_text();
  EXPECT_EQ(count_of(cpu, "CPU") - count_of(gpus, "CPU"), 4u) << cpu;
  EXPECT_EQ(count_of(gpus, "GPU {"), 3u) << gpus;
  EXPECT_EQ(count_of(gpus, "GPUs {"), 1u) << gpus;
  EXPECT_NE(cpu.find("runs on"), std::string::npos);
}

// The gen column shows what the tile labels show: a fresh summary's generation (the live count's),
// and where the summary is paced or late the engine's own, not the count's old one.
TEST_F(PanelFieldsTest, TheGenColumnShowsACurrentGenerationWhereTheLiveCountIsOld) {
  frame();
  with_engine_ = false;
  ASSERT_GE(model_.statuses.size(), 2u);
  // Fresh: counted at 4321, the engine a frame further.
  model_.statuses[0].generation = 4322;
  model_.statuses[0].summary = StateSummary{4321, 55555, 1};
  model_.statuses[0].summary_frames_ago = 1;
  // Paced: counted at 1, the engine at 987654.
  model_.statuses[1].generation = 987654;
  model_.statuses[1].summary = StateSummary{1, 77777, 2};
  model_.statuses[1].summary_frames_ago = 987653;
  frame();
  const std::string text = panel_text();
  EXPECT_NE(text.find("4321"), std::string::npos) << text;
  EXPECT_EQ(text.find("4322"), std::string::npos) << text;
  EXPECT_NE(text.find("987654"), std::string::npos) << text;
  EXPECT_NE(text.find("55555"), std::string::npos) << text;
  EXPECT_NE(text.find("77777"), std::string::npos) << text;
}

TEST_F(PanelFieldsTest, PatternPathFollowsEnterTabAndEsc) {
  // A tall display, so that the section at the bottom is not clipped; the section opened.
  ImGui::GetIO().DisplaySize = ImVec2(1600, 2400);
  frame();
  ImGui::ActivateItem(patterns_item("Patterns"));
  EXPECT_TRUE(frame().empty());
  const std::string dir = std::string(LS_SOURCE_DIR) + "/assets/patterns/";
  auto load = [](std::string path) {
    return [=](const Command& c) {
      EXPECT_EQ(as<cmd::Load>(c).index, 0u);
      EXPECT_EQ(as<cmd::Load>(c).path, path);
    };
  };
  exercise({"pattern path",
            [this] { return patterns_item("##path"); },
            {"/no/such/pattern.rle", "/no/such/other.rle"},
            {dir + "glider.rle", dir + "acorn.rle"},
            {load(dir + "glider.rle"), load(dir + "acorn.rle")},
            says("no such file")});
}

}  // namespace
}  // namespace ls::ui
