// test_run_script.cpp — `lifestreams run --script` against the app's --script: the same script on
// the CPU backend ends in the same hashes and exits with the same status (1 for an expectation, 2
// for a bad line) and the same "FILE:LINE:COLUMN: why" line; the commands that need a screen are
// refused with exit 2 and their line before anything runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "support/app_test_util.hpp"

namespace ls::test {
namespace {

std::vector<std::string> all_matches(const std::string& text, const std::regex& re) {
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1].str());
  return out;
}

// The scene test's script without its screen commands: instances come and go, variants switch, a
// glider is loaded; the expected hashes are the app's (tests/app/scene_test.script).
constexpr const char* kScript =
    "pause\n"
    "size 256 256\n"
    "instances 4\n"
    "step 8\n"
    "expect-agree\n"
    "expect-hash 0 0x2adf3324ca22bed1\n"
    "instances 7\n"
    "instances 2\n"
    "variant 0 naive\n"
    "variant all bitpacked\n"
    "step 4\n"
    "expect-hash 0 0x7d8b32f51f9ee853\n"
    "generations-per-launch all 3\n"
    "load 1 glider.rle\n"
    "step 4\n"
    "expect-hash 0 0x93aa62d882b4e0e2\n";

TEST(RunScript, GivesTheAppsFinalHashesOnTheCpuBackend) {
  ScratchDir dir;
  std::filesystem::copy_file(source_dir() + "/assets/patterns/glider.rle", dir.file("glider.rle"));
  dir.write("s.script", kScript);
  const Outcome run = run_app(dir, "run --backend cpu --script s.script");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out.rfind("# backend=cpu device=", 0), 0u) << run.out;
  EXPECT_NE(run.out.find(" script=s.script\n"), std::string::npos) << run.out;
  const std::vector<std::string> run_hashes =
      all_matches(run.out, std::regex("instance=\\d+ generation=\\d+ population=\\d+ hash=(0x[0-9a-f]{16})"));
  ASSERT_EQ(run_hashes.size(), 2u) << run.out;
  EXPECT_EQ(run_hashes[0], "0x93aa62d882b4e0e2");
  EXPECT_NE(run.out.find("instance=1 generation=4 population=5 "), std::string::npos) << run.out;

  const Outcome app = run_app(dir, "--headless --backend cpu --script s.script --report r.json");
  ASSERT_EQ(app.status, 0) << app.err;
  const std::vector<std::string> app_hashes =
      all_matches(dir.read("r.json"), std::regex("\"hash\": \"(0x[0-9a-f]{16})\""));
  EXPECT_EQ(run_hashes, app_hashes) << dir.read("r.json");
}

// `stream-mode graph` is a script command like the other modes: the same script ends on the same
// hashes, and the report names the mode.
TEST(RunScript, StreamModeGraphEndsOnTheSameHashes) {
  ScratchDir dir;
  std::filesystem::copy_file(source_dir() + "/assets/patterns/glider.rle", dir.file("glider.rle"));
  dir.write("s.script", std::string("stream-mode graph\n") + kScript);
  const Outcome run = run_app(dir, "run --backend cpu --script s.script");
  ASSERT_EQ(run.status, 0) << run.err;
  const std::vector<std::string> run_hashes =
      all_matches(run.out, std::regex("instance=\\d+ generation=\\d+ population=\\d+ hash=(0x[0-9a-f]{16})"));
  ASSERT_EQ(run_hashes.size(), 2u) << run.out;
  EXPECT_EQ(run_hashes[0], "0x93aa62d882b4e0e2");
  const Outcome app = run_app(dir, "--headless --backend cpu --script s.script --report r.json");
  ASSERT_EQ(app.status, 0) << app.err;
  const std::string report = dir.read("r.json");
  EXPECT_NE(report.find("\"stream_mode\": \"graph\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"host_enqueue_ms\": {\"last\": "), std::string::npos) << report;
  EXPECT_EQ(all_matches(report, std::regex("\"hash\": \"(0x[0-9a-f]{16})\"")), run_hashes);
}

// Both front ends say one line, "lifestreams[ run]: FILE:LINE:COLUMN: why", FILE as given on the
// command line, COLUMN that of the offending word where the parser knows it, else of the command.
TEST(RunScript, ExitsWithTheAppsStatusAndTheSameFileLineColumnLine) {
  struct Case {
    const char* script;
    int status;
    const char* message;
  };
  const Case cases[] = {
      {"step 1\nexpect-hash 0 0x0000000000000001\n", 1,
       "bad.script:2:1: expect-hash 0: the hash at generation 1 is 0x"},
      {"pause\nvariant 0 turbo\n", 2, "bad.script:2:11: unknown variant 'turbo'"},
      {"pause\nfly\n", 2, "bad.script:2:1: unknown command 'fly'"},
      {"pause\ninstances 2\nvariant 5 global\n", 2, "bad.script:3:1: instance 5 does not exist"},
      {"pause\n load 0 missing.rle\n", 2, "bad.script:2:2: missing.rle: "},
      {"pause\nstep 0\n", 2, "bad.script:2:6: generation count must be 1..1000000000, got 0\n"},
      // The instance limit is the run's, 64 on one GPU or the CPU, whichever side of it the count is.
      {"pause\ninstances -3\n", 2, "bad.script:2:1: instance count must be 1..64, got -3\n"},
      {"pause\ninstances 0\n", 2, "bad.script:2:1: instance count must be 1..64, got 0\n"},
      {"pause\ninstances 100\n", 2, "bad.script:2:1: instance count must be 1..64, got 100\n"},
  };
  for (const Case& c : cases) {
    ScratchDir dir;
    dir.write("bad.script", c.script);
    const std::string common = "--backend cpu --width 64 --height 64 --script bad.script";
    const Outcome run = run_app(dir, "run " + common);
    const Outcome app = run_app(dir, "--headless " + common);
    EXPECT_EQ(run.status, c.status) << c.script << run.err;
    EXPECT_EQ(app.status, c.status) << c.script << app.err;
    EXPECT_EQ(run.err.rfind(std::string("lifestreams run: ") + c.message, 0), 0u) << run.err;
    EXPECT_EQ(app.err.rfind(std::string("lifestreams: ") + c.message, 0), 0u) << app.err;
    // The same line after the program's name.
    EXPECT_EQ(run.err.substr(std::string("lifestreams run: ").size()),
              app.err.substr(std::string("lifestreams: ").size()));
    for (const Outcome* o : {&run, &app}) EXPECT_EQ(lines(o->err), 1) << o->err;
  }
}

// FILE is the script's path as the user wrote it, whichever directory it names.
TEST(RunScript, NamesTheScriptAsGiven) {
  ScratchDir dir;
  std::filesystem::create_directory(dir.file("sub"));
  dir.write("sub/s4.txt", "pause\nstep x\n");
  const Outcome run = run_app(dir, "run --backend cpu --script ./sub/s4.txt");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "lifestreams run: ./sub/s4.txt:2:6: generation count must be an integer, got 'x'\n");
  const Outcome app = run_app(dir, "--headless --backend cpu --script ./sub/s4.txt");
  EXPECT_EQ(app.status, 2);
  EXPECT_EQ(app.err, "lifestreams: ./sub/s4.txt:2:6: generation count must be an integer, got 'x'\n");
}

TEST(RunScript, RefusesEachCommandThatNeedsAScreenWithItsLineBeforeAnythingRuns) {
  for (const char* line : {"zoom 0 2", "pan 0 1 1", "fit all", "frames 3", "screenshot x.png", "grid off",
                           "panel off", "age on", "vsync off", "counters off"}) {
    ScratchDir dir;
    dir.write("screen.script", std::string("pause\nsave 0 before.rle\n") + line + "\n");
    const Outcome r = run_app(dir, "run --backend cpu --width 64 --height 64 --script screen.script");
    const std::string name = std::string(line).substr(0, std::string(line).find(' '));
    EXPECT_EQ(r.status, 2) << line;
    EXPECT_EQ(r.out, "") << line;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("lifestreams run: screen.script:3:1: " + name + " needs a screen", 0), 0u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("before.rle"))) << line << ": a line ran before the check";
  }
}

TEST(RunScript, RefusesTheOptionsOfARunWithoutAScript) {
  ScratchDir dir;
  dir.write("s.script", "step 1\n");
  for (const char* extra : {"--generations 1", "--every 1", "--output x.rle"}) {
    const Outcome r = run_app(dir, std::string("run --backend cpu --script s.script ") + extra);
    EXPECT_EQ(r.status, 2) << extra;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("--script cannot be combined with --generations, --every or --output"),
              std::string::npos)
        << r.err;
  }
}

}  // namespace
}  // namespace ls::test
