// test_command_line.cpp — the app's command-line contract: bad arguments exit 2 with exactly one
// line on stderr in our own words and nothing on stdout, with or without a display (the app says
// "no display", exit 3, of good input only); --device N is --devices N; --help names each option's
// value and the subcommands. `lifestreams run`'s own are in tests/cli.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/app_test_util.hpp"

namespace ls {
namespace {

using test::quoted_app;
using test::ScratchDir;
using test::shell;

using test::lines;
using test::Outcome;
using test::run_app;

using test::Bad;
using test::expect_refused;

TEST(Cli, AppRefusesBadArgumentsWithOneLineOfOurOwn) {
  const Bad cases[] = {
      {"--headless --snapshot-max-cells -1",
       "lifestreams: --snapshot-max-cells -1: expected an unsigned 64-bit number"},
      {"--headless --rule ''", "lifestreams: --rule '': expected a value"},
      {"--headless --seed 18446744073709551616",
       "--seed 18446744073709551616: expected an unsigned 64-bit number"},
      {"--headless --instances 65", "--instances 65: expected a whole number 1..64"},
      {"--headless --frames 0", "--frames 0: expected a whole number 1.."},
      {"--headless --width abc", "--width abc: expected a whole number 32..1048576"},
      {"--headless --bogus", "lifestreams: unknown option --bogus; see --help"},
      {"--headless --pattern", "lifestreams: --pattern needs a value"},
      {"--headless --frames 1 --frames 2", "lifestreams: --frames given twice"},
      {"--headless=maybe", "lifestreams: --headless takes no value"},
      {"--headless --timing-period 0", "--timing-period 0: expected a whole number 1..1000"},
  };
  for (const Bad& b : cases) expect_refused(b);
}

// The app's --devices LIST / --display-device N: syntax, repeats, both --device and --devices, a
// display device outside the list, and the instance limit of 64 per listed GPU are refused before
// any device is used, so these hold with or without a GPU; a repeat or a device that is not there
// is refused with the GPUs present (or why there are none).
TEST(Cli, AppRefusesABadDeviceListWithOneLineListingTheGpusPresent) {
  const Bad cases[] = {
      {"--headless --devices 0,0", "lifestreams: --devices 0,0: device 0 is listed twice; "},
      {"--headless --devices 2,1,2", "--devices 2,1,2: device 2 is listed twice; "},
      {"--headless --devices 0,", "--devices 0,: expected `all` or device numbers"},
      {"--headless --devices 0,x", "--devices 0,x: 'x' is not a device number 0..1023"},
      {"--headless --device 0 --devices 0",
       "--device and --devices: give one of them (--device N means --devices N)"},
      {"--headless --devices 1000,1001", "--devices: device 1000 does not exist; "},
      {"--headless --devices 0,1 --backend cpu", "--devices with --backend cpu: the CPU engine uses no GPU"},
      {"--headless --instances 65", "--instances 65: expected a whole number 1..64"},
      {"--headless --device 0 --instances 65", "--instances 65: expected a whole number 1..64"},
      {"--headless --devices 0,1 --instances 129", "--instances 129: expected a whole number 1..128"},
      {"--headless --devices 0,1,2 --instances 193", "--instances 193: expected a whole number 1..192"},
      {"--headless --devices 0,1 --display-device 2",
       "lifestreams: --display-device 2: not one of --devices (0,1)"},
      {"--headless --display-device 1", "--display-device 1: not one of --device (0)"},
      {"--headless --device 3 --display-device 0", "--display-device 0: not one of --device (3)"},
      {"--headless --display-device x", "--display-device x: expected a whole number 0..1023"},
      {"--headless --split",
       "lifestreams: --split: a lattice splits across two or more GPUs; --device gives 0"},
      {"--headless --split --devices 1",
       "--split: a lattice splits across two or more GPUs; --devices gives 1"},
      {"--headless --split --devices 0,1 --instances 65", "--instances 65: expected a whole number 1..64"},
  };
  for (const Bad& b : cases) {
    expect_refused(b);
    const std::string message = b.message;
    if (message.find("listed twice") != std::string::npos || message.find("exist") != std::string::npos) {
      ScratchDir dir;
      const Outcome r = run_app(dir, b.args);
      EXPECT_TRUE(r.err.find("GPUs present: 0 ") != std::string::npos ||
                  r.err.find("no GPU present: ") != std::string::npos)
          << r.err;
    }
  }
}

/// The files the no-display cases below read: a pattern with a bad rule, one with a cell of a third
/// state, a script whose third line is bad, and good ones.
void write_inputs(const ScratchDir& dir) {
  dir.write("bad.rle", "x = 3, y = 1, rule = B9/S23\n3o!\n");
  dir.write("broken.rle", "x = 3, y = 1\noZo!\n");
  dir.write("s3.txt", "pause\nstep 1\nfly 3\n");
  dir.write("glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n");
  dir.write("good.script", "pause\nstep 2\n");
}

/// Each argument or file the app is given, bad, and the one line that names it.
const Bad kBadAppInput[] = {
    {"--backend gpu", "lifestreams: --backend gpu: expected auto, cpu or cuda\n"},
    {"--backend cpu --pattern missing.rle", "lifestreams: missing.rle: no such file\n"},
    {"--backend cpu --pattern bad.rle", "lifestreams: bad.rle: line 1, column 23: bad rule"},
    {"--backend cpu --pattern broken.rle", "lifestreams: broken.rle: line 2, column 2: cell state 'Z'"},
    {"--backend cpu --screenshot /nonexistent/x.png",
     "lifestreams: --screenshot /nonexistent/x.png: cannot open for writing: no directory /nonexistent\n"},
    {"--backend cpu --screenshot .", "lifestreams: --screenshot .: is a directory\n"},
    {"--backend cpu --report /nonexistent/r.json",
     "lifestreams: --report /nonexistent/r.json: cannot open for writing: no directory /nonexistent\n"},
    {"--backend cpu --script s3.txt", "lifestreams: s3.txt:3:1: unknown command 'fly'\n"},
    {"--backend cpu --script missing.txt", "lifestreams: --script missing.txt: no such file\n"},
};

// Every argument and file is checked before the display: without one (DISPLAY unset, or naming no
// server), bad input is exit 2 and the one line that names it, not "no display".
TEST(Cli, AppWithoutADisplayRefusesBadInputWithExitTwoAndItsOneLine) {
  ScratchDir dir;
  write_inputs(dir);
  for (const Bad& b : kBadAppInput) {
    for (const char* display :
         {"env -u DISPLAY -u WAYLAND_DISPLAY", "env -u WAYLAND_DISPLAY DISPLAY=:4099"}) {
      const int status =
          shell(dir, std::string(display) + " " + quoted_app() + " " + b.args + " >stdout.txt 2>stderr.txt");
      const std::string err = dir.read("stderr.txt");
      EXPECT_EQ(status, 2) << display << " " << b.args << "\n" << err;
      EXPECT_EQ(dir.read("stdout.txt"), "") << b.args;
      EXPECT_EQ(lines(err), 1) << b.args << "\n" << err;
      EXPECT_EQ(err.rfind(b.message, 0), 0u)
          << b.args << ": expected '" << b.message << "' at the start of: " << err;
    }
  }
}

// With a display the same input gives the same status and the same line.
TEST(Cli, AppWithADisplayRefusesBadInputWithTheSameLine) {
  ASSERT_TRUE(test::have_program("xvfb-run")) << "xvfb-run is missing: run scripts/setup.sh";
  ScratchDir dir;
  write_inputs(dir);
  // One X server for every case: each case's status and stderr go to files of their own. --frames 1:
  // input taken for good would end after one frame rather than keep a window open.
  std::string cases;
  for (std::size_t i = 0; i < std::size(kBadAppInput); ++i) {
    const std::string n = std::to_string(i);
    cases += quoted_app() + " " + kBadAppInput[i].args + " --frames 1 >out" + n + " 2>err" + n +
             "; echo $? >status" + n + "; ";
  }
  dir.write("cases.sh", cases);
  ASSERT_EQ(shell(dir, test::under_xvfb(240, "sh cases.sh")), 0) << dir.read("out.txt");
  for (std::size_t i = 0; i < std::size(kBadAppInput); ++i) {
    const Bad& b = kBadAppInput[i];
    const std::string n = std::to_string(i);
    const Outcome without = run_app(dir, b.args);
    EXPECT_EQ(dir.read("status" + n), "2\n") << b.args << "\n" << dir.read("err" + n);
    EXPECT_EQ(dir.read("out" + n), "") << b.args;
    EXPECT_EQ(dir.read("err" + n), without.err) << b.args;
  }
}

// Good input without a display: "no display", exit 3, the one line that says to use --headless, and
// no file of --screenshot or --report left behind by the checks before it.
TEST(Cli, AppWithoutADisplaySaysSoOfGoodInputOnly) {
  ScratchDir dir;
  write_inputs(dir);
  for (const char* display : {"env -u DISPLAY -u WAYLAND_DISPLAY", "env -u WAYLAND_DISPLAY DISPLAY=:4099"}) {
    const int status = shell(dir, std::string(display) + " " + quoted_app() +
                                      " --backend cpu --pattern glider.rle --script good.script --screenshot "
                                      "shot.png --report r.json >stdout.txt 2>stderr.txt");
    const std::string err = dir.read("stderr.txt");
    EXPECT_EQ(status, 3) << display << "\n" << err;
    EXPECT_EQ(err.rfind("lifestreams: no display (", 0), 0u) << err;
    EXPECT_NE(err.find("run with --headless"), std::string::npos) << err;
    EXPECT_EQ(lines(err), 1) << err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("shot.png")));
    EXPECT_FALSE(std::filesystem::exists(dir.file("r.json")));
  }
  // The same good input with --headless runs and writes both.
  const Outcome headless =
      run_app(dir,
              "--headless --backend cpu --width 64 --height 64 --pattern glider.rle --script "
              "good.script --screenshot shot.png --report r.json");
  EXPECT_EQ(headless.status, 0) << headless.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("shot.png")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("r.json")));
}

// A CUDA backend this build or machine does not have is the engine's refusal, the one `lifestreams
// run` gives (same status, same words), with a display or without, never "no display".
TEST(Cli, AppRefusesACudaBackendThisMachineLacksAsRunDoesWithOrWithoutADisplay) {
  ScratchDir dir;
  const Outcome run = run_app(dir, "run --backend cuda --width 32 --height 32 --generations 0");
  if (run.status == 0) GTEST_SKIP() << "a CUDA device is usable here";
  const std::string why = run.err.substr(std::string("lifestreams run: ").size());
  const Outcome app = run_app(dir, "--backend cuda");
  EXPECT_EQ(app.status, run.status) << app.err;
  EXPECT_EQ(app.err, "lifestreams: " + why);
  EXPECT_EQ(app.err.find("no display"), std::string::npos) << app.err;
  EXPECT_EQ(lines(app.err), 1) << app.err;
  ASSERT_TRUE(test::have_program("xvfb-run")) << "xvfb-run is missing: run scripts/setup.sh";
  dir.write("cuda.sh",
            quoted_app() + " --backend cuda --frames 1 >shown.out 2>shown.err; echo $? >shown.status");
  ASSERT_EQ(shell(dir, test::under_xvfb(240, "sh cuda.sh")), 0) << dir.read("out.txt");
  EXPECT_EQ(dir.read("shown.status"), std::to_string(run.status) + "\n");
  EXPECT_EQ(dir.read("shown.err"), app.err);
}

/// The instances of a --report: each instance's line from "index" to "hash" (no timings).
std::vector<std::string> report_states(const std::string& report) {
  std::vector<std::string> out;
  for (std::size_t at = report.find("{\"index\""); at != std::string::npos;
       at = report.find("{\"index\"", at + 1)) {
    const std::size_t end = report.find("\"step_ms\"", at);
    out.push_back(report.substr(at, end - at));
  }
  return out;
}

// --device N means --devices N: the same engine, the same instances on that device, the same state.
TEST(Cli, AppDeviceNIsDevicesN) {
  ScratchDir dir;
  const std::string common =
      "--headless --backend cpu --width 64 --height 64 --instances 3 --frames 5 --size 320x200";
  ASSERT_EQ(run_app(dir, common + " --device 0 --report one.json").status, 0);
  ASSERT_EQ(run_app(dir, common + " --devices 0 --report list.json").status, 0);
  const std::vector<std::string> one = report_states(dir.read("one.json"));
  ASSERT_EQ(one.size(), 3u) << dir.read("one.json");
  EXPECT_EQ(report_states(dir.read("list.json")), one);
  EXPECT_NE(one[0].find("\"generation\": 5"), std::string::npos) << one[0];
}

// --help names each option's value the way the README does, exits 0 and writes only to stdout.
TEST(Cli, HelpNamesEachOptionsValue) {
  ScratchDir dir;
  const Outcome app = run_app(dir, "--help");
  EXPECT_EQ(app.status, 0);
  EXPECT_EQ(app.err, "");
  for (const char* shown : {"--instances N", "--timing-period N", "--size WxH", "--report FILE.json"})
    EXPECT_NE(app.out.find(shown), std::string::npos) << shown << " not in:\n" << app.out;
  const Outcome run = run_app(dir, "run --help");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("--generations N"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--output FILE.rle"), std::string::npos) << run.out;
  for (const Outcome* o : {&app, &run}) EXPECT_EQ(o->out.find(" TEXT"), std::string::npos) << o->out;
}

// A newcomer's `lifestreams --help` names the subcommands and --version, one line each, after the
// app's options.
TEST(Cli, HelpNamesTheRunAndBenchSubcommands) {
  ScratchDir dir;
  for (const char* args : {"--help", "-h", "--instances 2 --help"}) {
    const Outcome app = run_app(dir, args);
    EXPECT_EQ(app.status, 0) << args;
    EXPECT_EQ(app.err, "") << args;
    const std::size_t options = app.out.find("--display-path");
    const std::size_t run = app.out.find("\n  lifestreams run ...");
    const std::size_t bench = app.out.find("\n  lifestreams bench ...");
    ASSERT_NE(run, std::string::npos) << args << ":\n" << app.out;
    ASSERT_NE(bench, std::string::npos) << args << ":\n" << app.out;
    EXPECT_LT(options, run) << app.out;
    EXPECT_EQ(app.out.find('\n', run + 1), app.out.find("\n  lifestreams bench")) << "one line for run";
    EXPECT_NE(app.out.find("\n  lifestreams --version "), std::string::npos) << args << ":\n" << app.out;
  }
  // Not on a refusal (one line on stderr, nothing on stdout), nor in the subcommands' own help.
  const Outcome bad = run_app(dir, "--instances --help");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "");
  const Outcome run = run_app(dir, "run --help");
  EXPECT_EQ(run.out.find("lifestreams bench ..."), std::string::npos) << run.out;
}

}  // namespace
}  // namespace ls
