// test_recovery.cpp — control/recovery without the app: exact-torus RLE gives back the very lattice
// it was written from; a save writes every instance's state as new files that load back (a second
// save never overwrites the first), names and skips lattices above the snapshot limit; an injected
// fault comes after the given frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "control/recovery.hpp"
#include "control/scene.hpp"
#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
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

std::string rle_of(const Lattice& l, const Rule& rule = Rule::life()) {
  std::ostringstream out;
  write_lattice_rle(out, l, rule, "test", {"a comment"});
  return out.str();
}

// Every lattice, dense or sparse, with runs across word boundaries, live edges, empty rows at
// either end, comes back cell for cell; lines stay within 70 columns as Golly writes them.
TEST(LatticeRle, LoadsBackToTheSameLattice) {
  std::vector<Lattice> cases;
  cases.push_back(Lattice(32, 32));  // empty
  Lattice full(64, 32);
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 64; ++x) full.set(x, y, true);
  cases.push_back(full);
  Lattice corners(96, 64);
  corners.set(0, 0, true);
  corners.set(95, 0, true);
  corners.set(0, 63, true);
  corners.set(95, 63, true);
  corners.set(31, 30, true);
  corners.set(32, 30, true);
  cases.push_back(corners);
  Lattice middle(128, 96);  // empty rows first and last
  for (int x = 20; x < 90; ++x) middle.set(x, 50, true);
  cases.push_back(middle);
  for (double density : {0.02, 0.25, 0.5, 0.97}) cases.push_back(Lattice::random(160, 96, density, 7));
  for (const Lattice& l : cases) {
    const std::string text = rle_of(l, parse_rule("B36/S23"));
    const Lattice back = load_rle_text(text);
    EXPECT_TRUE(back == l) << text;
    EXPECT_EQ(back.hash(), l.hash());
    EXPECT_EQ(parse_rle(text).rule_text,
              "B36/S23:T" + std::to_string(l.width()) + "," + std::to_string(l.height()));
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 70u) << line;
  }
}

// A glider that has moved away from the centre is saved (save I FILE) and loaded back into another
// instance: the same cells at the same place, so the same hash.
TEST(LatticeRle, SaveAndLoadKeepAMovedPatternInPlace) {
  test::ScratchDir dir;
  dir.write("glider.rle", "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  CpuEngine engine(1);
  SceneSettings settings;
  settings.width = 64;
  settings.height = 64;
  Scene scene(engine, settings);
  scene.populate(2, "");
  scene.execute(parse_command("load 0 " + dir.file("glider.rle")).value());
  scene.execute(parse_command("step 37").value());
  const StateSummary moved = engine.summarize(0);
  scene.execute(parse_command("save 0 " + dir.file("moved.rle")).value());
  scene.execute(parse_command("load 1 " + dir.file("moved.rle")).value());
  EXPECT_EQ(engine.status(1).width, 64);
  EXPECT_EQ(engine.status(1).height, 64);
  EXPECT_EQ(engine.summarize(1).hash, moved.hash);
  EXPECT_TRUE(engine.read(1) == engine.read(0));
}

class RecoveryTest : public ::testing::Test {
 protected:
  RecoveryTest() : engine(1), scene(engine, settings()) {
    scene.populate(3, "");
    scene.execute(parse_command("size 64 32").value());
    scene.execute(parse_command("step 9").value());
    scene.execute(parse_command("rule 1 B36/S23").value());
    scene.execute(parse_command("step 2").value());
  }
  static SceneSettings settings() {
    SceneSettings s;
    s.width = 64;
    s.height = 64;
    return s;
  }
  CpuEngine engine;
  Scene scene;
};

// On the CPU backend the lattices themselves are the snapshot: one file per instance, each
// loading back to that instance's state; a second save never overwrites the first.
TEST_F(RecoveryTest, SavesEveryInstanceAsNewFilesThatLoadBack) {
  test::ScratchDir dir;
  Recovery recovery(engine, RecoverySettings{});
  std::ostringstream log;
  const auto files = recovery.save(dir.path(), log);
  ASSERT_EQ(files.size(), 3u) << log.str();
  for (const RecoveredFile& f : files) {
    EXPECT_EQ(f.generation, 11u);
    EXPECT_EQ(f.path.filename().string(),
              "lifestreams-recovered-" + std::to_string(f.instance) + "-gen11.rle");
    EXPECT_EQ(f.hash, engine.summarize(f.instance).hash);
    EXPECT_NE(log.str().find("saved instance " + std::to_string(f.instance) + " from generation 11 to " +
                             f.path.string()),
              std::string::npos)
        << log.str();
  }
  const std::string lines = log.str();
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 3) << lines;
  // Loaded into a fresh instance: the same state, the rule included.
  scene.execute(parse_command("instances 4").value());
  scene.execute(parse_command("load 3 " + files[1].path.string()).value());
  EXPECT_EQ(engine.summarize(3).hash, files[1].hash);
  EXPECT_EQ(engine.status(3).rule, parse_rule("B36/S23"));

  std::ostringstream again;
  const auto second = recovery.save(dir.path(), again);
  ASSERT_EQ(second.size(), 4u);
  EXPECT_EQ(second[0].path.filename().string(), "lifestreams-recovered-0-gen11-2.rle");
  EXPECT_EQ(load_rle_text(dir.read("lifestreams-recovered-0-gen11.rle")).hash(), files[0].hash);
}

// Lattices above the limit are not copied, and the log says so.
TEST_F(RecoveryTest, LatticesAboveTheLimitAreNamedAndSkipped) {
  scene.execute(parse_command("instances 4").value());
  test::ScratchDir dir;
  dir.write("big.rle", "x = 3, y = 3, rule = B3/S23:T64,64\nbo$2bo$3o!\n");
  scene.execute(parse_command("load 3 " + dir.file("big.rle")).value());
  RecoverySettings s;
  s.snapshot_max_cells = 64 * 32;
  Recovery recovery(engine, s);
  std::ostringstream log;
  const auto files = recovery.save(dir.path(), log);
  EXPECT_EQ(files.size(), 3u) << log.str();
  EXPECT_NE(log.str().find("instance 3 not saved: 64x64 is above --snapshot-max-cells 2048"),
            std::string::npos)
      << log.str();
}

TEST(Recovery, InjectedFaultAfterTheGivenFrame) {
  CpuEngine engine(1);
  RecoverySettings s;
  s.fault_at_frame = 3;
  Recovery recovery(engine, s);
  EXPECT_NO_THROW(recovery.after_frame(1, 0.0));
  EXPECT_NO_THROW(recovery.after_frame(2, 0.1));
  EXPECT_THROW(recovery.after_frame(3, 0.2), DeviceError);
}

}  // namespace
}  // namespace ls::app
