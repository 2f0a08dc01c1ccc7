// test_recovery.cpp — nothing is lost to a fatal device error: after an injected fault the app saves
// every instance's newest snapshot as a new RLE file, says where and from which generation, and exits
// 3 (CPU here, CUDA on the device machine); the files load back to the state the instance had. The
// app is driven as a process; control/recovery's own tests are in tests/control.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "core/lattice.hpp"
#include "core/pattern.hpp"
#include "core/rule.hpp"
#include "support/app_test_util.hpp"

namespace ls::app {
namespace {

/// What loading `text` as an RLE file into an instance gives: the lattice the app would run.
Lattice load_rle_text(const std::string& text) {
  const Pattern p = parse_rle(text);
  const RuleSpec rs = parse_rule_spec(p.rule_text);
  EXPECT_TRUE(rs.torus_width && rs.torus_height) << "no torus size in the rule: " << p.rule_text;
  Lattice l(rs.torus_width.value_or(32), rs.torus_height.value_or(32));
  l.place_centred(p);
  return l;
}

/// Runs the app headless with a fault injected after `fault_frame` frames and checks what it
/// leaves: exit 3, the error line, one line per saved file, files that load back to the hash the
/// line names, and that hash equal to `lifestreams run`'s for that generation of the same soup.
void expect_recovery(const std::string& backend, int fault_frame) {
  test::ScratchDir dir;
  const std::string command =
      "env -u DISPLAY " + test::quoted_app() + " --test-fault-at-frame " + std::to_string(fault_frame) +
      " --headless --backend " + backend +
      " --width 256 --height 128 --instances 3 --size 640x360 --snapshot-max-cells 32768";
  ASSERT_EQ(test::shell(dir, command), 3) << dir.read("out.txt");
  const std::string out = dir.read("out.txt");
  EXPECT_EQ(out.rfind("lifestreams: injected fault after frame " + std::to_string(fault_frame), 0), 0u)
      << out;
  const std::regex saved(
      R"(lifestreams: saved instance ([0-9]+) from generation ([0-9]+) to (\S+) \(hash (0x[0-9a-f]+)\))");
  int files = 0;
  for (auto it = std::sregex_iterator(out.begin(), out.end(), saved); it != std::sregex_iterator(); ++it) {
    const std::string instance = (*it)[1], generation = (*it)[2], path = (*it)[3], hash = (*it)[4];
    SCOPED_TRACE("instance " + instance);
    ++files;
    const long long g = std::stoll(generation);
    EXPECT_GE(g, backend == "cpu" ? fault_frame : 1);
    EXPECT_LE(g, fault_frame);
    EXPECT_EQ(std::filesystem::path(path).parent_path(), dir.path());
    EXPECT_EQ(std::filesystem::path(path).filename().string(),
              "lifestreams-recovered-" + instance + "-gen" + generation + ".rle");
    std::ifstream f(path);
    std::ostringstream text;
    text << f.rdbuf();
    char loaded[32];
    std::snprintf(loaded, sizeof loaded, "0x%016llx",
                  static_cast<unsigned long long>(load_rle_text(text.str()).hash()));
    EXPECT_EQ(loaded, hash);
    test::ScratchDir ref;
    ASSERT_EQ(test::shell(ref, test::quoted_app() +
                                   " run --backend cpu --width 256 --height 128 --generations " + generation),
              0);
    EXPECT_NE(ref.read("out.txt").find("generation=" + generation + " population="), std::string::npos);
    EXPECT_NE(ref.read("out.txt").find("hash=" + hash), std::string::npos)
        << "the recovered state is not the soup at generation " << generation;
  }
  EXPECT_EQ(files, 3) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 4) << out;
}

TEST(Recovery, AfterAFatalErrorTheAppSavesSnapshotsAndExits3Cpu) { expect_recovery("cpu", 12); }

TEST(Recovery, AfterAFatalErrorTheAppSavesSnapshotsAndExits3Cuda) {
  test::ScratchDir probe;
  if (test::shell(probe, test::quoted_app() + " run --backend cuda --width 32 --height 32 --generations 0") !=
      0)
    GTEST_SKIP() << "no usable CUDA device: " << probe.read("out.txt");
  expect_recovery("cuda", 40);
}

// Above --snapshot-max-cells nothing is copied, and the app says which instance has no file.
TEST(Recovery, TheAppNamesInstancesAboveTheLimit) {
  test::ScratchDir dir;
  ASSERT_EQ(test::shell(dir, "env -u DISPLAY " + test::quoted_app() +
                                 " --test-fault-at-frame 2 --headless --backend cpu --width 256 --height 128 "
                                 "--instances 2 --size 640x360 "
                                 "--snapshot-max-cells 1000"),
            3);
  const std::string out = dir.read("out.txt");
  EXPECT_NE(out.find("instance 0 not saved: 256x128 is above --snapshot-max-cells 1000"), std::string::npos)
      << out;
  EXPECT_NE(out.find("instance 1 not saved"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("lifestreams-recovered-0-gen2.rle")));
}

// The fault hook is for tests: --help does not show it, and a value that is not a frame number is
// bad input (exit 2, one line) like any option's.
TEST(Recovery, TheFaultHookIsHiddenAndCheckedAsAnyOption) {
  test::ScratchDir dir;
  ASSERT_EQ(test::shell(dir, test::quoted_app() + " --help"), 0);
  EXPECT_EQ(dir.read("out.txt").find("--test-"), std::string::npos) << dir.read("out.txt");
  for (const char* bad : {"x", "-1", "2.5"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(test::shell(dir, "env -u DISPLAY " + test::quoted_app() + " --headless --backend cpu " +
                                   "--test-fault-at-frame=" + bad),
              2);
    const std::string out = dir.read("out.txt");
    EXPECT_EQ(out.rfind("lifestreams: --test-fault-at-frame", 0), 0u) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  }
}

}  // namespace
}  // namespace ls::app
