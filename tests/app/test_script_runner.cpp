// test_script_runner.cpp — the script runner and the command executor without any screen (this
// binary links no GL, GLFW or ImGui): lines run in order up to the one that needs a frame, a
// `frames N` holds the script for N drawn frames and a screenshot for one still frame, a failing
// line gives its exit status and names its line, and the commands that need a screen are refused
// before anything runs.
#include <gtest/gtest.h>

#include <exception>
#include <string>

#include "app/scene.hpp"
#include "app/script_runner.hpp"
#include "core/command.hpp"
#include "core/cpu_engine.hpp"
#include "core/error.hpp"

namespace ls::app {
namespace {

SceneSettings small() {
  SceneSettings s;
  s.width = 64;
  s.height = 64;
  return s;
}

ScriptRunner runner(const std::string& text) { return ScriptRunner("t.script", parse_script(text)); }

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
       {Case{"step 1\nexpect-hash 0 0x1\nstep 1\n", 1, "t.script line 2: expect-hash 0: the hash"},
        Case{"step 1\n\n# two\nvariant 7 global\n", 2, "t.script line 4: instance 7 does not exist"}}) {
    ScriptRunner script = runner(c.text);
    try {
      script.advance(scene, [](const Effects&) {});
      ADD_FAILURE() << c.text;
    } catch (const std::exception& e) {
      // A ScriptFailure is a std::exception that carries its exit status.
      const auto* failure = dynamic_cast<const ScriptFailure*>(&e);
      ASSERT_NE(failure, nullptr);
      EXPECT_EQ(failure->status(), c.status);
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

TEST(ScriptRunner, EveryCommandThatNeedsAScreenIsRefusedNamingItsLine) {
  for (const char* line : {"zoom 0 2", "pan 0 1 1", "fit all", "frames 3", "screenshot x.png", "grid off",
                           "panel off", "age on", "vsync off"}) {
    const ScriptRunner script = runner(std::string("pause\nstep 1\n") + line + "\n");
    try {
      script.refuse_screen_commands();
      ADD_FAILURE() << line << " was not refused";
    } catch (const InputError& e) {
      const std::string name = std::string(line).substr(0, std::string(line).find(' '));
      EXPECT_NE(std::string(e.what()).find("--script t.script: line 3: " + name + " needs a screen"),
                std::string::npos)
          << e.what();
    }
  }
  // Everything else runs without a screen.
  EXPECT_NO_THROW(runner("instances 2\nvariant all naive\nrule all B36/S23\npause\nrun\nstep 4\nset 0 1 1 1\n"
                         "stream-mode shared\nexpect-agree\nsize 64 64\ndensity 0.5\nseed 3\nsame-seed off\n"
                         "generations-per-frame 2\ngenerations-per-launch all 4\nreset all\ntiming-period 2\n"
                         "quit\n")
                      .refuse_screen_commands());
}

}  // namespace
}  // namespace ls::app
