// test_script_runner.cpp — the script runner and the command executor without any screen (this
// binary links no GL, GLFW or ImGui): lines run in order up to the one that needs a frame, a
// `frames N` holds the script for N drawn frames and a screenshot for one still frame, a failing
// line gives its exit status and names its line, and the commands that need a screen are refused
// before anything runs.
#include <gtest/gtest.h>

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "control/scene.hpp"
#include "control/script_runner.hpp"
#include "core/command.hpp"
#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "multi/multi_engine.hpp"

namespace ls::app {
namespace {

SceneSettings small() {
  SceneSettings s;
  s.width = 64;
  s.height = 64;
  return s;
}

ScriptRunner runner(const std::string& text) {
  return ScriptRunner("t.script", parse_script(text, "t.script"));
}

TEST(ScriptRunner, LinesRunUpToTheOneThatAsksForFramesWhichThenHoldTheScript) {
  CpuEngine engine(1);
  Scene scene(engine, small());
  scene.populate(1, "");
  ScriptRunner script = runner("step 2\nframes 2\nstep 3\n");
  int lines = 0;
  script.advance(scene, [&](const Effects&) { ++lines; });
  EXPECT_EQ(lines, 2);
  EXPECT_EQ(engine.status(0).generation, 2u);
  EXPECT_FALSE(script.over());
  script.frame_drawn();
  script.advance(scene, [&](const Effects&) { ++lines; });
  EXPECT_EQ(lines, 2) << "one frame of two drawn: the script waits";
  script.frame_drawn();
  script.advance(scene, [&](const Effects&) { ++lines; });
  EXPECT_EQ(lines, 3);
  EXPECT_EQ(engine.status(0).generation, 5u);
  EXPECT_TRUE(script.over());
}

TEST(ScriptRunner, AScreenshotAsksForOneStillFrameBeforeTheNextLine) {
  CpuEngine engine(1);
  Scene scene(engine, small());
  scene.populate(1, "");
  ScriptRunner script = runner("screenshot a.png\nstep 1\n");
  script.advance(scene, [](const Effects&) {});
  EXPECT_TRUE(script.still_frame_due());
  EXPECT_EQ(engine.status(0).generation, 0u);
  script.frame_drawn();
  EXPECT_FALSE(script.still_frame_due());
  script.advance(scene, [](const Effects&) {});
  EXPECT_EQ(engine.status(0).generation, 1u);
  EXPECT_TRUE(script.over());
}

TEST(ScriptRunner, QuitEndsTheScriptThere) {
  CpuEngine engine(1);
  Scene scene(engine, small());
  scene.populate(1, "");
  ScriptRunner script = runner("step 1\nquit\nstep 1\n");
  script.advance(scene, [](const Effects&) {});
  EXPECT_TRUE(script.over());
  EXPECT_EQ(engine.status(0).generation, 1u);
}

TEST(ScriptRunner, AFailingLineGivesItsStatusAndNamesItsLine) {
  CpuEngine engine(1);
  Scene scene(engine, small());
  scene.populate(2, "");
  struct Case {
    const char* text;
    int status;
    const char* message;
  };
  for (const Case& c :
       {Case{"step 1\nexpect-hash 0 0x1\nstep 1\n", 1, "t.script:2:1: expect-hash 0: the hash"},
        Case{"step 1\n\n# two\n  variant 7 global\n", 2, "t.script:4:3: instance 7 does not exist"}}) {
    ScriptRunner script = runner(c.text);
    try {
      script.advance(scene, [](const Effects&) {});
      ADD_FAILURE() << c.text;
    } catch (const std::exception& e) {
      // A ScriptFailure is a std::exception that carries its exit status.
      const auto* failure = dynamic_cast<const ScriptFailure*>(&e);
      ASSERT_NE(failure, nullptr);
      EXPECT_EQ(failure->status(), c.status);
      EXPECT_EQ(std::string(e.what()).rfind(c.message, 0), 0u) << e.what();
    }
  }
}

TEST(ScriptRunner, EveryCommandThatNeedsAScreenIsRefusedNamingItsLine) {
  for (const char* line : {"zoom 0 2", "pan 0 1 1", "fit all", "frames 3", "screenshot x.png", "grid off",
                           "panel off", "age on", "vsync off", "counters off"}) {
    const ScriptRunner script = runner(std::string("pause\nstep 1\n") + line + "\n");
    try {
      script.refuse_screen_commands();
      ADD_FAILURE() << line << " was not refused";
    } catch (const InputError& e) {
      const std::string name = std::string(line).substr(0, std::string(line).find(' '));
      EXPECT_EQ(std::string(e.what()).rfind("t.script:3:1: " + name + " needs a screen", 0), 0u) << e.what();
    }
  }
  // Everything else runs without a screen.
  EXPECT_NO_THROW(runner("instances 2\nvariant all naive\nrule all B36/S23\npause\nrun\nstep 4\nset 0 1 1 1\n"
                         "stream-mode shared\nexpect-agree\nsize 64 64\ndensity 0.5\nseed 3\nsame-seed off\n"
                         "generations-per-frame 2\ngenerations-per-launch all 4\nreset all\ntiming-period 2\n"
                         "quit\n")
                      .refuse_screen_commands());
}

multi::MultiEngine two_cpu_slots() {
  std::vector<multi::DeviceSlot> slots;
  slots.push_back(multi::DeviceSlot{0, std::make_unique<CpuEngine>(1)});
  slots.push_back(multi::DeviceSlot{1, std::make_unique<CpuEngine>(1)});
  return multi::MultiEngine(std::move(slots));
}

// The instance limit is the run's (64 per GPU its engine runs on), stated by the executor alone: a
// count below 1 reads as one above the limit.
TEST(ScriptRunner, EveryBadInstanceCountNamesTheRunsRangeInOneWording) {
  CpuEngine engine(1);
  Scene scene(engine, small());
  scene.populate(2, "");
  std::string message;
  for (const char* count : {"-3", "0", "100", "65537"}) {
    ScriptRunner script = runner(std::string("step 1\n\tinstances ") + count + "\n");
    try {
      script.advance(scene, [](const Effects&) {});
      ADD_FAILURE() << count;
    } catch (const ScriptFailure& e) {
      EXPECT_EQ(e.status(), 2);
      EXPECT_EQ(std::string(e.what()),
                std::string("t.script:2:2: instance count must be 1..64, got ") + count);
    }
  }
  EXPECT_EQ(engine.size(), 2u);

  multi::MultiEngine two = two_cpu_slots();
  Scene two_scene(two, small());
  two_scene.populate(2, "");
  for (const char* count : {"-3", "129"}) {
    try {
      runner(std::string("instances ") + count + "\n").advance(two_scene, [](const Effects&) {});
      ADD_FAILURE() << count;
    } catch (const ScriptFailure& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("t.script:1:1: instance count must be 1..128, got ") + count);
    }
  }
}

int status_of(ScriptRunner script, Scene& scene, std::string& message) {
  try {
    script.advance(scene, [](const Effects&) {});
  } catch (const ScriptFailure& e) {
    message = e.what();
    return e.status();
  }
  return 0;
}

TEST(ScriptRunner, DevicesMovesAnInstanceKeepingItsStateAndTheOthersAsACleanRunHasThem) {
  multi::MultiEngine engine = two_cpu_slots();
  CpuEngine clean(1);
  Scene scene(engine, small());
  Scene clean_scene(clean, small());
  scene.populate(4, "");
  clean_scene.populate(4, "");
  EXPECT_EQ(engine.instance_devices(1), std::vector<int>{1});
  std::string message;
  ASSERT_EQ(status_of(runner("step 3\ndevices 1 0\nstep 2\ndevices all 1\nstep 1\n"), scene, message), 0)
      << message;
  ASSERT_EQ(status_of(runner("step 3\nstep 2\nstep 1\n"), clean_scene, message), 0) << message;
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(engine.instance_devices(i), std::vector<int>{1}) << i;
    EXPECT_EQ(engine.summarize(i).hash, clean.summarize(i).hash) << i;
    EXPECT_EQ(engine.status(i).generation, 6u);
  }
  EXPECT_NO_THROW(scene.execute(*parse_command("expect-agree")));
}

TEST(ScriptRunner, DevicesRefusalsExitTwoNamingTheLineAndChangeNothing) {
  multi::MultiEngine engine = two_cpu_slots();
  Scene scene(engine, small());
  scene.populate(2, "");
  std::string message;
  EXPECT_EQ(status_of(runner("step 1\ndevices 0 0,1\n"), scene, message), 2);
  EXPECT_EQ(message, "t.script:2:1: instance 0 on GPU 0,1: this engine cannot split an instance across GPUs");
  EXPECT_EQ(status_of(runner("devices 0 3\n"), scene, message), 2);
  EXPECT_EQ(message, "t.script:1:1: GPU 3 is not one of this run's devices (0,1)");
  // A device number past any run's is the run's to refuse too, in the same words.
  EXPECT_EQ(status_of(runner("devices 0 2048\n"), scene, message), 2);
  EXPECT_EQ(message, "t.script:1:1: GPU 2048 is not one of this run's devices (0,1)");
  EXPECT_EQ(status_of(runner("devices 2 0\n"), scene, message), 2);
  EXPECT_NE(message.find("t.script:1:1: instance 2 does not exist"), std::string::npos) << message;
  EXPECT_EQ(engine.instance_devices(0), std::vector<int>{0});
  EXPECT_EQ(engine.instance_devices(1), std::vector<int>{1});

  CpuEngine one(1);
  Scene one_scene(one, small());
  one_scene.populate(1, "");
  EXPECT_EQ(status_of(runner("devices 0 1\n"), one_scene, message), 2);
  EXPECT_EQ(message,
            "t.script:1:1: instance 0 cannot run on GPU 1: this engine runs on one device (host "
            "memory); list the GPUs with --devices");
}

TEST(ScriptRunner, MovingEveryInstanceOntoAFullDeviceIsUndoneWhole) {
  multi::MultiEngine engine = two_cpu_slots();
  SceneSettings settings = small();
  settings.width = settings.height = 32;
  Scene scene(engine, settings);
  scene.populate(1, "");
  // 64 per device: 100 fit on two, not on one.
  scene.execute(cmd::Instances{100});
  ASSERT_EQ(engine.size(), 100u);
  EXPECT_THROW(scene.execute(cmd::Instances{129}), InputError);
  scene.execute(cmd::Step{2});
  std::vector<std::uint64_t> hashes;
  std::vector<int> devices;
  for (std::size_t i = 0; i < engine.size(); ++i) {
    hashes.push_back(engine.summarize(i).hash);
    devices.push_back(engine.instance_devices(i)[0]);
  }
  try {
    scene.execute(*parse_command("devices all 0"));
    ADD_FAILURE() << "100 instances on one device";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("cannot move to GPU 0: 1 instance asked there; free: GPU 0: 0, GPU 1: "),
        std::string::npos)
        << e.what();
  }
  for (std::size_t i = 0; i < engine.size(); ++i) {
    EXPECT_EQ(engine.summarize(i).hash, hashes[i]) << i;
    EXPECT_EQ(engine.instance_devices(i)[0], devices[i]) << i;
  }
}

}  // namespace
}  // namespace ls::app
