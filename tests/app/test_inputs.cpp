// test_inputs.cpp — every input a person can give the running app, bad: dropped files of any kind
// (missing, a directory, empty, binary, huge, a FIFO, a device, text that is no pattern, patterns
// too large or with a bad rule), rule text, sizes, instance counts, script lines, and commands the
// panel builds directly. Each is refused with one line naming the problem, and the scene keeps
// exactly the state it had: every instance's cells, generation, variant, rule and view, and the
// settings new instances get.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "control/scene.hpp"
#include "core/command.hpp"
#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "multi/multi_engine.hpp"
#include "support/app_test_util.hpp"

namespace ls::app {
namespace {

/// Everything a command could change.
struct State {
  std::vector<std::uint64_t> hashes;
  std::vector<std::uint64_t> generations;
  std::vector<Variant> variants;
  std::vector<std::string> rules;
  std::vector<int> ks;
  std::vector<std::pair<int, int>> dims;
  std::vector<std::string> views;
  std::string settings;
  bool paused = false, grid = false, panel = false;
  int timing_period = 0;
  friend bool operator==(const State&, const State&) = default;
};

State state_of(CpuEngine& engine, const Scene& scene) {
  State s;
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus st = engine.status(i);
    s.hashes.push_back(engine.summarize(i).hash);
    s.generations.push_back(st.generation);
    s.variants.push_back(st.variant);
    s.rules.push_back(st.rule.to_string());
    s.ks.push_back(st.generations_per_launch);
    s.dims.emplace_back(scene.lattice_width(i), scene.lattice_height(i));
  }
  for (const view::Placement& p : scene.placements())
    s.views.push_back(std::to_string(p.origin_x) + "," + std::to_string(p.origin_y) + "," +
                      std::to_string(p.pixels_per_cell));
  const SceneSettings& st = scene.settings();
  s.settings = std::to_string(st.width) + " " + std::to_string(st.height) + " " + std::to_string(st.density) +
               " " + std::to_string(st.seed) + " " + std::to_string(st.same_seed) + " " +
               std::to_string(st.generations_per_frame) + " " + std::to_string(st.generations_per_launch) +
               " " + st.rule.to_string() + " " +
               (st.variant ? std::string(variant_name(*st.variant)) : "cycle");
  s.paused = scene.paused();
  s.grid = scene.grid();
  s.panel = scene.panel_visible();
  s.timing_period = engine.timing_period();
  return s;
}

class InputsTest : public ::testing::Test {
 protected:
  InputsTest() : engine(2), scene(engine, settings()) {
    scene.set_area(view::Rect{0, 0, 800, 600});
    scene.populate(3, "");
    run("step 6");
    run("rule 1 B36/S23");
    run("variant 2 naive");
    run("zoom 0 3");
    run("pan 0 5 -7");
    run("pause");
    run("timing-period 3");
    before = state_of(engine, scene);
  }
  static SceneSettings settings() {
    SceneSettings s;
    s.width = 96;
    s.height = 64;
    return s;
  }
  void run(const std::string& line) { scene.execute(parse_command(line).value()); }

  /// `command` is refused with an InputError of one line containing `fragment`; nothing changed.
  void expect_refused(const Command& command, const std::string& what, const std::string& fragment) {
    SCOPED_TRACE(what);
    try {
      scene.execute(command);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_NE(message.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << message;
      EXPECT_LT(message.size(), 400u) << message;
    }
    EXPECT_TRUE(state_of(engine, scene) == before);
  }

  /// A script line refused by the parser (so it never reaches the scene) with one line naming it.
  void expect_bad_line(const std::string& line, const std::string& fragment) {
    SCOPED_TRACE(line.substr(0, 80));
    try {
      const auto parsed = parse_command(line);
      ADD_FAILURE() << "parsed";
      if (parsed) scene.execute(*parsed);
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_NE(message.find(fragment), std::string::npos)
          << "'" << fragment << "' not in: " << message.substr(0, 400);
    }
  }

  CpuEngine engine;
  Scene scene;
  State before;
};

// Files dropped on a tile (the drop becomes `load I PATH`), of every kind that is not a pattern
// the app can hold.
TEST_F(InputsTest, DroppedFilesOfAnyKind) {
  test::ScratchDir dir;
  namespace fs = std::filesystem;
  dir.write("empty.rle", "");
  dir.write("nul.rle", std::string("x = 3, y = 3\n\0bo$2bo$3o!", 24));
  dir.write("photo.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  dir.write("high-bytes.cells", "\xc3\xa9\xff\xfe\x80 not a pattern\n");
  dir.write("prose.txt", "Dear diary, today I dropped a letter on a Life lattice.\n");
  dir.write("json.rle", "{\"x\": 3, \"y\": 3}\n");
  dir.write("bad-rule.rle", "x = 3, y = 3, rule = B9/S\nbo$2bo$3o!\n");
  dir.write("odd-torus.rle", "x = 3, y = 3, rule = B3/S23:T100,100\nbo$2bo$3o!\n");
  dir.write("other-topology.rle", "x = 3, y = 3, rule = B3/S23:K64,64\nbo$2bo$3o!\n");
  dir.write("three-states.rle", "x = 3, y = 3, rule = B3/S23\nbB$2bo$3o!\n");
  dir.write("outside.rle", "x = 2, y = 2\n3o!\n");
  dir.write("absurd.rle", "x = 2000000, y = 2000000\no!\n");
  dir.write("too-wide.rle", "x = 1048576, y = 3\no!\n");
  dir.write("overflow.rle", "x = 3, y = 3\n99999999999999999999o!\n");
  dir.write("bad.cells", "..O\n.X.\n");
  // A sparse file past the 64 MiB limit: no disk used, and the app must not read it all.
  { std::ofstream(dir.file("huge.rle")) << "x = 1, y = 1\no!\n"; }
  fs::resize_file(dir.file("huge.rle"), (std::uintmax_t{64} << 20) + 1);
  ASSERT_EQ(mkfifo(dir.file("fifo.rle").c_str(), 0600), 0);
  fs::create_directory(dir.file("folder.rle"));

  const std::pair<std::string, std::string> cases[] = {
      {dir.file("missing.rle"), "no such file"},
      {dir.file("folder.rle"), "is a directory"},
      {dir.path().string(), "is a directory"},
      {dir.file("empty.rle"), "empty file"},
      {dir.file("nul.rle"), "binary file"},
      {dir.file("photo.png"), "binary file"},
      {dir.file("high-bytes.cells"), "high-bytes.cells: line 1"},
      {dir.file("prose.txt"), "prose.txt: line 1"},
      {dir.file("json.rle"), "json.rle: line 1"},
      {dir.file("bad-rule.rle"), "bad-rule.rle: line 1, column 23: bad rule"},
      {dir.file("odd-torus.rle"), "100x100"},
      {dir.file("other-topology.rle"), "other-topology.rle"},
      {dir.file("three-states.rle"), "three-states.rle: line 2"},
      {dir.file("outside.rle"), "outside.rle: line 2"},
      {dir.file("absurd.rle"), "absurd.rle"},
      {dir.file("too-wide.rle"), "not allowed"},
      {dir.file("overflow.rle"), "overflow.rle: line 2"},
      {dir.file("bad.cells"), "bad.cells: line 2"},
      {dir.file("huge.rle"), "file too large"},
      {dir.file("fifo.rle"), "not a regular file"},
      {"/dev/zero", "not a regular file"},
      {"", "no such file"},
  };
  for (const auto& [path, fragment] : cases) expect_refused(cmd::Load{1, path}, "load " + path, fragment);
  // Dropped on a tile that went away (the drop and a removal in one frame).
  expect_refused(cmd::Load{3, dir.file("empty.rle")}, "load into instance 3", "instance 3 does not exist");
}

// Script files that are not scripts: one line naming the file and why, before any line is read.
TEST(ScriptFiles, RefusedWithOneLineNamingWhy) {
  test::ScratchDir dir;
  dir.write("empty.script", "");
  const char gzip[] =
      "\x1f\x8b\x08\x00T\x8b\xa7"
      "frames 3\n";
  dir.write("gzip.script", std::string(gzip, sizeof gzip - 1));
  dir.write("nul.script", std::string("pause\n\0quit\n", 13));
  dir.write("huge.script", std::string((16u << 20) + 1, '#'));
  std::filesystem::create_directory(dir.file("folder.script"));
  const std::pair<std::string, std::string> cases[] = {
      {dir.file("missing.script"), "no such file"}, {dir.file("folder.script"), "is a directory"},
      {dir.file("empty.script"), "empty file"},     {dir.file("gzip.script"), "binary file"},
      {dir.file("nul.script"), "binary file"},      {dir.file("huge.script"), "file too large"},
      {"/dev/zero", "not a regular file"},
  };
  for (const auto& [path, fragment] : cases) {
    SCOPED_TRACE(path);
    try {
      read_script_file(path);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
      EXPECT_NE(message.find(fragment), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
  // Text with tabs, CRLF and UTF-8 comments is a script.
  const std::string text = "pause\r\n\tframes 2 # \xc2\xbd frame\r\nquit\n";
  dir.write("ok.script", text);
  EXPECT_EQ(read_script_file(dir.file("ok.script")), text);
  EXPECT_EQ(parse_script(read_script_file(dir.file("ok.script")), "ok.script").size(), 3u);
}

// Requests beyond the host memory left (here an address-space limit, `ulimit -v`) are refused at
// once with what is asked and what is free, before any instance is built: all of them together
// for the app, the one lattice for `run`.
TEST(HostMemory, RequestsBeyondWhatIsLeftAreRefusedAtOnce) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no `ulimit -v` under it";
#else
  test::ScratchDir dir;
  // 8 x 65536^2: 8 GiB of lattices, each 1 GiB (which alone would fit).
  EXPECT_EQ(
      test::shell(dir, "ulimit -v 4000000; env -u DISPLAY " + test::quoted_app() +
                           " --headless --backend cpu --width 65536 --height 65536 --instances 8 --frames 1"),
      2);
  const std::string app = dir.read("out.txt");
  EXPECT_EQ(app.rfind("lifestreams: 8 instances of 65536x65536 need 8192 MiB of host memory; ", 0), 0u)
      << app;
  EXPECT_NE(app.find(" MiB free\n"), std::string::npos) << app;
  EXPECT_EQ(std::count(app.begin(), app.end(), '\n'), 1) << app;
  EXPECT_EQ(test::shell(dir, "ulimit -v 3000000; " + test::quoted_app() +
                                 " run --backend cpu --width 131072 --height 131072 --generations 0"),
            2);
  const std::string run = dir.read("out.txt");
  EXPECT_EQ(run.rfind("lifestreams run: lattice 131072x131072 needs 4096 MiB of host memory; ", 0), 0u)
      << run;
  EXPECT_EQ(std::count(run.begin(), run.end(), '\n'), 1) << run;
#endif
}

// A pattern whose torus does not fit in memory: refused with what was asked and what is free.
TEST_F(InputsTest, PatternTooLargeForMemory) {
  test::ScratchDir dir;
  dir.write("vast.rle", "x = 1, y = 1, rule = B3/S23:T1048576,1048576\no!\n");
  expect_refused(cmd::Load{0, dir.file("vast.rle")}, "vast torus", "MiB");
}

// A script asks for more instances than the engine takes (64 on one device): refused when run,
// with the engine's limit, changing nothing.
TEST_F(InputsTest, ScriptInstanceCountAboveTheEnginesLimit) {
  const auto parsed = parse_command("instances 65");
  ASSERT_TRUE(parsed.has_value()) << "the parser leaves the limit to the engine";
  expect_refused(*parsed, "instances 65", "instance count must be 1..64, got 65");
}

// Commands as the panel builds them, bypassing the script parser's range checks.
TEST_F(InputsTest, OutOfRangeCommandsFromThePanel) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_refused(cmd::Instances{0}, "instances 0", "1..64");
  expect_refused(cmd::Instances{65}, "instances 65", "1..64");
  expect_refused(cmd::Instances{-3}, "instances -3", "1..64");
  expect_refused(cmd::Size{100, 96}, "size 100 96", "multiples of 32");
  expect_refused(cmd::Size{0, 32}, "size 0 32", "multiples of 32");
  expect_refused(cmd::Size{-32, 32}, "size -32 32", "multiples of 32");
  expect_refused(cmd::Size{1 << 21, 32}, "size 2^21 32", "multiples of 32");
  expect_refused(cmd::Size{1 << 20, 1 << 20}, "size 2^20 2^20", "MiB");
  expect_refused(cmd::Density{1.5}, "density 1.5", "density");
  expect_refused(cmd::Density{-0.1}, "density -0.1", "density");
  expect_refused(cmd::Density{nan}, "density NaN", "density");
  expect_refused(cmd::GensPerFrame{0}, "generations per frame 0", "1..1024");
  expect_refused(cmd::GensPerFrame{1025}, "generations per frame 1025", "1..1024");
  expect_refused(cmd::GensPerLaunch{Target{true, 0}, 0}, "k 0", "1..64");
  expect_refused(cmd::GensPerLaunch{Target{false, 1}, 65}, "k 65", "1..64");
  expect_refused(cmd::Step{-5}, "step -5", "generation count must be 1..");
  expect_refused(cmd::Frames{-1}, "frames -1", "frame");
  expect_refused(cmd::Zoom{Target{false, 0}, 0.0}, "zoom 0", "zoom");
  expect_refused(cmd::Zoom{Target{false, 0}, -2.0}, "zoom -2", "zoom");
  expect_refused(cmd::Zoom{Target{true, 0}, nan}, "zoom NaN", "zoom");
  expect_refused(cmd::Zoom{Target{true, 0}, inf}, "zoom inf", "zoom");
  expect_refused(cmd::Pan{Target{false, 0}, nan, 0}, "pan NaN", "pan");
  expect_refused(cmd::Pan{Target{true, 0}, 0, inf}, "pan inf", "pan");
  expect_refused(cmd::SetCell{0, -1, 0, true}, "set -1 0", "outside");
  expect_refused(cmd::SetCell{0, 0, 64, true}, "set 0 64", "outside");
  expect_refused(cmd::SetCell{5, 0, 0, true}, "set on instance 5", "instance 5 does not exist");
  expect_refused(cmd::SetVariant{Target{false, 3}, Variant::naive}, "variant on instance 3",
                 "does not exist");
  expect_refused(cmd::SetRule{Target{false, 9}, Rule::life()}, "rule on instance 9", "does not exist");
  expect_refused(cmd::Reset{Target{false, 3}}, "reset 3", "does not exist");
  expect_refused(cmd::Save{7, ""}, "save 7", "does not exist");
  expect_refused(cmd::Fit{Target{false, 4}}, "fit 4", "does not exist");
  expect_refused(cmd::ExpectHash{3, 1}, "expect-hash 3", "does not exist");
  expect_refused(cmd::TimingPeriod{0}, "timing-period 0", "1..1000");
  expect_refused(cmd::TimingPeriod{1001}, "timing-period 1001", "1..1000");
}

// Saving where nothing can be written: refused, nothing changed.
TEST_F(InputsTest, SavesThatCannotBeWritten) {
  test::ScratchDir dir;
  expect_refused(cmd::Save{0, dir.path().string()}, "save to a directory", "cannot open");
  expect_refused(cmd::Save{0, dir.file("no/such/folder/x.rle")}, "save into a missing folder", "cannot open");
}

// Rule text as typed into the panel or a script, bad in every way.
TEST_F(InputsTest, BadRuleText) {
  for (const char* text : {"B9/S", "B3/S23/X", "Bx/S", "B3/S23:T0,0", "B3/S23:P64,64", "",
                           "B33333333333333333333/S", "Conway's", "B3/S2\xff"}) {
    SCOPED_TRACE(text);
    try {
      (void)parse_rule_spec(text);
      if (std::string(text) != "B3/S23:T0,0") ADD_FAILURE() << "parsed";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
    expect_bad_line(std::string("rule all ") + (*text ? text : "\"\""), "rule");
  }
  EXPECT_TRUE(state_of(engine, scene) == before);
}

// Script lines that are wrong: each names its column and reason in one line.
TEST_F(InputsTest, BadScriptLines) {
  const std::pair<std::string, std::string> cases[] = {
      {"instances 99999999999999999999999", "instance count"},
      {"instances 2.5", "integer"},
      {"instances", "missing"},
      {"instances 3 4", "extra"},
      {"size 100 96", "multiples of 32"},
      {"size 96", "missing height"},
      {"size -32 32", "width"},
      {"size 99999999999 32", "width"},
      {"step -1", "1..1000000000"},
      {"step 1e99", "integer"},
      {"frames 0", "1.."},
      {"zoom 0 0", "zoom must be 1/4096..4096 pixels per cell, got 0"},
      {"zoom 0 nan", "finite"},
      {"pan 0 inf 0", "finite"},
      {"density 2", "density must be 0..1, got 2"},
      {"seed -1", "seed"},
      {"set 0 0 0 2", "0 or 1"},
      {"expect-hash 0 0xZZ", "hash"},
      {"expect-hash 0 12", "0x"},
      {"variant 0 turbo", "unknown variant 'turbo'"},
      {"stream-mode sideways", "unknown stream mode"},
      {"load", "missing instance"},
      {"load 0", "missing file"},
      {"load 0 \"unterminated", "unterminated"},
      {"vsync maybe", "'on' or 'off'"},
      {"generations-per-launch all 65", "1..64"},
      {"teleport 0", "unknown command 'teleport'"},
      {std::string("step\0 3", 7), "step"},
      {"step " + std::string(1 << 20, '9'), "generation count must be 1..1000000000, got 999"},
  };
  for (const auto& [line, fragment] : cases) expect_bad_line(line, fragment);
  // Ranges that are the run's parse, and the executor refuses them with the run's range.
  for (const auto& [line, fragment] :
       {std::pair<const char*, const char*>{"instances 0", "instance count must be 1..64, got 0"},
        {"instances -1", "instance count must be 1..64, got -1"},
        {"instances 65537", "instance count must be 1..64, got 65537"},
        {"set 0 -1 0 1", "cell (-1, 0) is outside instance 0's"}}) {
    const auto parsed = parse_command(line);
    ASSERT_TRUE(parsed.has_value()) << line;
    expect_refused(*parsed, line, fragment);
  }
  // A whole script stops at its first bad line, naming it.
  try {
    (void)parse_script("pause\n\nstep 3\n# fine so far\nvariant 1 turbo\nstep 2\n", "s.script");
    ADD_FAILURE() << "parsed";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("s.script:5:11: unknown variant 'turbo'", 0), 0u) << e.what();
  }
  EXPECT_TRUE(state_of(engine, scene) == before);
}

// The same refusals leave the scene usable: good commands still work afterwards.
TEST_F(InputsTest, TheSceneWorksAfterRefusals) {
  expect_refused(cmd::Instances{0}, "instances 0", "1..64");
  expect_refused(cmd::Load{0, "/dev/zero"}, "load /dev/zero", "not a regular file");
  run("instances 4");
  run("step 2");
  EXPECT_EQ(engine.size(), 4u);
  EXPECT_EQ(engine.status(0).generation, 8u);
  EXPECT_EQ(engine.status(3).generation, 2u);
}

// On an engine over two devices the limit is 64 per device: 128 instances are taken, 129 refused
// with that limit and nothing changed (MultiEngine over CPU engines stands for two GPUs).
TEST(InstanceLimit, IsSixtyFourPerDeviceOfTheEngine) {
  std::vector<multi::DeviceSlot> slots;
  for (int d = 0; d < 2; ++d) slots.push_back(multi::DeviceSlot{d, std::make_unique<CpuEngine>(1)});
  multi::MultiEngine engine(std::move(slots));
  SceneSettings settings;
  settings.width = 32;
  settings.height = 32;
  Scene scene(engine, settings);
  scene.populate(1, "");
  scene.execute(parse_command("instances 128").value());
  EXPECT_EQ(engine.size(), 128u);
  EXPECT_EQ(engine.instance_devices(127), std::vector<int>{1}) << "round-robin over the devices";
  try {
    scene.execute(parse_command("instances 129").value());
    ADD_FAILURE() << "129 instances taken";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "instance count must be 1..128, got 129");
  }
  EXPECT_EQ(engine.size(), 128u);
}

// The panel's GPU field and the script's `devices I LIST` are one command: on an engine over two
// devices it moves the instance keeping its hash; a device not in the run, or a split on an engine
// that cannot split (CPU slots), is refused with one line and changes nothing.
TEST(DevicesCommand, MovesOrIsRefusedChangingNothing) {
  std::vector<multi::DeviceSlot> slots;
  for (int d = 0; d < 2; ++d) slots.push_back(multi::DeviceSlot{d, std::make_unique<CpuEngine>(1)});
  multi::MultiEngine engine(std::move(slots));
  SceneSettings settings;
  settings.width = 64;
  settings.height = 32;
  Scene scene(engine, settings);
  scene.populate(2, "");
  scene.execute(parse_command("step 9").value());
  const std::uint64_t hash = engine.summarize(0).hash;
  const auto refused = [&](const char* line, const std::string& message) {
    try {
      scene.execute(parse_command(line).value());
      ADD_FAILURE() << line << " taken";
    } catch (const InputError& e) {
      EXPECT_EQ(e.what(), message);
    }
    EXPECT_EQ(engine.instance_devices(0), std::vector<int>{0}) << line;
    EXPECT_EQ(engine.summarize(0).hash, hash) << line;
  };
  refused("devices 0 5", "GPU 5 is not one of this run's devices (0,1)");
  refused("devices 0 0,1", "instance 0 on GPU 0,1: this engine cannot split an instance across GPUs");
  scene.execute(cmd::Devices{Target{false, 0}, {1}});
  EXPECT_EQ(engine.instance_devices(0), std::vector<int>{1});
  EXPECT_EQ(engine.summarize(0).hash, hash);
  EXPECT_EQ(engine.status(0).generation, 9u);
}

}  // namespace
}  // namespace ls::app

namespace ls::app {
namespace {

// A range reads the same wherever it is checked: the script parser's refusal of a line and the
// executor's refusal of the same command from the panel give one message.
TEST(RangeWording, TheParserAndTheExecutorStateEachRangeAlike) {
  CpuEngine engine(1);
  SceneSettings settings;
  settings.width = 64;
  settings.height = 64;
  Scene scene(engine, settings);
  scene.populate(1, "");
  const Target all{true, 0};
  const std::pair<const char*, Command> cases[] = {
      {"step 0", cmd::Step{0}},
      {"frames 0", cmd::Frames{0}},
      {"zoom all 5000", cmd::Zoom{all, 5000}},
      {"density 2", cmd::Density{2}},
      {"generations-per-frame 2000", cmd::GensPerFrame{2000}},
      {"generations-per-launch all 65", cmd::GensPerLaunch{all, 65}},
      {"timing-period 1001", cmd::TimingPeriod{1001}},
  };
  for (const auto& [line, command] : cases) {
    SCOPED_TRACE(line);
    std::string parsed, executed;
    try {
      parse_command(line);
    } catch (const InputError& e) {
      parsed = e.what();
    }
    try {
      scene.execute(command);
    } catch (const InputError& e) {
      executed = e.what();
    }
    ASSERT_FALSE(parsed.empty());
    ASSERT_FALSE(executed.empty());
    // The parser's says where ("column C: "); what follows is the executor's message.
    EXPECT_EQ(parsed.substr(parsed.find(": ") + 2), executed);
  }
}

}  // namespace
}  // namespace ls::app
