// test_scene.cpp — the command executor on the CPU engine: instances that stay keep their state,
// failing commands leave the scene exactly as it was, saves load back to the same hash and
// numbered saves never overwrite.
#include <gtest/gtest.h>

#include <filesystem>

#include "control/scene.hpp"
#include "control/scene_build.hpp"
#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "support/app_test_util.hpp"

namespace ls::app {
namespace {

struct Snapshot {
  std::vector<std::uint64_t> hashes;
  std::vector<Variant> variants;
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

Snapshot snapshot(Engine& e) {
  Snapshot s;
  for (std::size_t i = 0; i < e.size(); ++i) {
    s.hashes.push_back(e.summarize(i).hash);
    s.variants.push_back(e.status(i).variant);
  }
  return s;
}

Command line(const std::string& text) { return parse_command(text).value(); }

class SceneTest : public ::testing::Test {
 protected:
  SceneTest() : engine(2), scene(engine, settings()) {
    scene.populate(3, "");
    scene.execute(line("step 5"));
  }
  static SceneSettings settings() {
    SceneSettings s;
    s.width = 128;
    s.height = 64;
    return s;
  }
  CpuEngine engine;
  Scene scene;
};

TEST_F(SceneTest, InstancesGetTheDefaultVariantCycle) {
  scene.execute(line("instances 6"));
  const Variant expected[] = {Variant::global,    Variant::shared, Variant::iterate,
                              Variant::bitpacked, Variant::global, Variant::shared};
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(engine.status(i).variant, expected[i]) << i;
}

TEST_F(SceneTest, InstancesThatStayKeepTheirState) {
  const Snapshot before = snapshot(engine);
  scene.execute(line("instances 9"));
  scene.execute(line("instances 2"));
  scene.execute(line("instances 3"));
  const Snapshot after = snapshot(engine);
  EXPECT_EQ(after.hashes[0], before.hashes[0]);
  EXPECT_EQ(after.hashes[1], before.hashes[1]);
  EXPECT_EQ(engine.status(2).generation, 0u);  // a fresh instance
}

TEST_F(SceneTest, FailingCommandsLeaveTheSceneAsItWas) {
  test::ScratchDir dir;
  dir.write("binary.rle", std::string("\x01\x02\x00\xff", 4));
  const Snapshot before = snapshot(engine);
  const std::string bad[] = {"variant 7 naive",
                             "load 0 " + dir.file("missing.rle"),
                             "load 1 " + dir.path().string(),
                             "load 2 " + dir.file("binary.rle"),
                             "set 0 128 0 1",
                             "expect-hash 9 0x1",
                             "zoom 3 2",
                             "reset 3"};
  for (const std::string& b : bad) {
    EXPECT_THROW(scene.execute(line(b)), InputError) << b;
    EXPECT_EQ(snapshot(engine), before) << b;
  }
  EXPECT_THROW(scene.execute(line("expect-hash 0 0x1")), ExpectationFailed);
}

TEST_F(SceneTest, VariantChangesKeepTheHash) {
  const Snapshot before = snapshot(engine);
  scene.execute(line("variant all naive"));
  scene.execute(line("variant 1 bitpacked"));
  const Snapshot after = snapshot(engine);
  EXPECT_EQ(after.hashes, before.hashes);
  EXPECT_EQ(after.variants[1], Variant::bitpacked);
  EXPECT_EQ(after.variants[0], Variant::naive);
}

TEST_F(SceneTest, SavedInstanceLoadsBackToTheSameHashAndNumberedSavesNeverOverwrite) {
  test::ScratchDir dir;
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  scene.execute(line("set 1 3 4 1"));
  const std::uint64_t hash = engine.summarize(1).hash;
  const Effects a = scene.execute(line("save 1"));
  const Effects b = scene.execute(line("save 1"));
  EXPECT_TRUE(std::filesystem::exists("lifestreams-0001.rle"));
  EXPECT_TRUE(std::filesystem::exists("lifestreams-0002.rle"));
  EXPECT_NE(a.message, b.message);
  scene.execute(line("load 2 lifestreams-0001.rle"));
  std::filesystem::current_path(cwd);
  // Same size (the saved box fits), so the same cells give the same hash.
  EXPECT_EQ(engine.status(2).width, 128);
  EXPECT_EQ(engine.summarize(2).hash, hash);
}

TEST_F(SceneTest, SizeResetsEveryInstanceToANewSoupOfThatSize) {
  scene.execute(line("size 64 32"));
  for (std::size_t i = 0; i < engine.size(); ++i) {
    EXPECT_EQ(engine.status(i).width, 64);
    EXPECT_EQ(engine.status(i).height, 32);
    EXPECT_EQ(engine.status(i).generation, 0u);
  }
  scene.execute(line("expect-agree"));
}

TEST_F(SceneTest, AgeShadingIsOffUntilAskedFor) {
  EXPECT_FALSE(scene.age());
  scene.execute(line("age on"));
  EXPECT_TRUE(scene.age());
  EXPECT_TRUE(scene.grid());  // the grid is a separate choice
  scene.execute(line("age off"));
  EXPECT_FALSE(scene.age());
}

// --pattern with --rule: the given rule wins over the file's, as in `lifestreams run`; the file's
// torus size still counts, and a bad rule in the file does not matter. Without --rule the file's
// rule is used and a bad one is refused.
TEST(ScenePattern, AGivenRuleWinsOverThePatternFilesRuleAndKeepsItsTorusSize) {
  test::ScratchDir dir;
  const std::string glider = "bo$2bo$3o!\n";
  const std::string good = dir.file("good.rle"), bad = dir.file("bad.rle");
  dir.write("good.rle", "x = 3, y = 3, rule = B36/S23:T256,128\n" + glider);
  dir.write("bad.rle", "x = 3, y = 3, rule = B3/S29\n" + glider);
  SceneSettings settings;
  settings.width = 128;
  settings.height = 64;
  settings.rule = parse_rule("B3/S238");
  {
    CpuEngine engine(1);
    Scene scene(engine, settings);
    scene.populate(2, good, /*keep_rule=*/true);
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(engine.status(i).rule.to_string(), "B3/S238");
      EXPECT_EQ(engine.status(i).width, 256);
      EXPECT_EQ(engine.status(i).height, 128);
      EXPECT_EQ(engine.summarize(i).population, 5u);
    }
  }
  {
    CpuEngine engine(1);
    Scene scene(engine, settings);
    scene.populate(1, bad, /*keep_rule=*/true);
    EXPECT_EQ(engine.status(0).rule.to_string(), "B3/S238");
    EXPECT_EQ(engine.status(0).width, 128);
    EXPECT_EQ(engine.summarize(0).population, 5u);
  }
  {
    CpuEngine engine(1);
    Scene scene(engine, settings);
    scene.populate(1, good);
    EXPECT_EQ(engine.status(0).rule.to_string(), "B36/S23");
  }
  {
    CpuEngine engine(1);
    Scene scene(engine, settings);
    try {
      scene.populate(1, bad);
      ADD_FAILURE() << "a bad rule in the file was accepted without --rule";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("bad rule"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace ls::app

namespace ls::app {
namespace {

// After a load (panel, script, dropped file, --pattern) the tile shows the pattern, not the whole
// lattice: a glider in a 1024^2 lattice is 2 pixels at the whole lattice's fit.
TEST(ScenePattern, ALoadedPatternFillsItsTileWithAMarginAroundIt) {
  CpuEngine engine(1);
  SceneSettings settings;
  Scene scene(engine, settings);
  scene.populate(2, "");
  scene.set_area(view::Rect{0, 0, 1000, 500});
  const std::string glider = test::source_dir() + "/assets/patterns/glider.rle";
  scene.execute(parse_command("load 1 \"" + glider + "\"").value());
  const auto rects = scene.tile_rects();
  const auto placements = scene.placements();
  // The other instance still shows its whole lattice.
  EXPECT_DOUBLE_EQ(placements[0].pixels_per_cell, view::fit_pixels_per_cell(rects[0], 1024, 1024));
  const view::Placement& p = placements[1];
  EXPECT_GT(p.pixels_per_cell, 10 * view::fit_pixels_per_cell(rects[1], 1024, 1024));
  // Its five cells (the 3x3 box placed centred at (510, 510)) are live and inside the tile, with
  // dead cells around them.
  int live_on_screen = 0;
  for (int y = 505; y <= 518; ++y) {
    for (int x = 505; x <= 518; ++x) {
      const double px = p.quad.x + (x + 0.5 - p.origin_x) * p.pixels_per_cell;
      const double py = p.quad.y + (y + 0.5 - p.origin_y) * p.pixels_per_cell;
      const auto cell = scene.cell_at(1, px, py);
      if (x >= 510 && x <= 512 && y >= 510 && y <= 512) {
        ASSERT_TRUE(cell) << x << "," << y << " is off the tile";
        EXPECT_EQ(*cell, std::make_pair(x, y));
      }
      if (cell && engine.read(1).get(x, y)) ++live_on_screen;
    }
  }
  EXPECT_EQ(live_on_screen, 5);
  double left = 0, top = 0;
  view::screen_to_cell(p, p.quad.x, p.quad.y, left, top);
  EXPECT_LE(left, 510 - view::kRegionMarginCells + 1e-9);
  EXPECT_LE(top, 510 - view::kRegionMarginCells + 1e-9);
  // `fit` shows the whole lattice again.
  scene.execute(parse_command("fit 1").value());
  EXPECT_DOUBLE_EQ(scene.placements()[1].pixels_per_cell, view::fit_pixels_per_cell(rects[1], 1024, 1024));
}

}  // namespace
}  // namespace ls::app

namespace ls::app {
namespace {

// Every instance's origin: equal origins are one cross-check group.
std::vector<std::uint64_t> origins(const Engine& e) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < e.size(); ++i) out.push_back(e.status(i).origin);
  return out;
}

TEST_F(SceneTest, RuleAllKeepsInstancesThatStartedAlikeOneGroup) {
  ASSERT_EQ(origins(engine)[0], origins(engine)[1]);
  scene.execute(line("rule all B36/S23"));
  const auto after = origins(engine);
  EXPECT_EQ(after[0], after[1]);
  EXPECT_EQ(after[1], after[2]);
  // Still comparable, and still agreeing, generations later.
  scene.execute(line("step 7"));
  EXPECT_NO_THROW(scene.execute(line("expect-agree")));
  // One instance changed alone leaves the group.
  scene.execute(line("rule 2 B3/S23"));
  EXPECT_NE(origins(engine)[2], origins(engine)[0]);
}

TEST_F(SceneTest, InstancesChangingRuleAtDifferentGenerationsAreNotOneGroup) {
  scene.execute(line("rule 0 B36/S23"));
  scene.execute(line("step 1"));
  scene.execute(line("rule 1 B36/S23"));  // one generation later: another state when it changed
  EXPECT_NE(origins(engine)[0], origins(engine)[1]);
}

TEST_F(SceneTest, ASizeThatDoesNotFitIsRefusedNamingWhatIsAskedAndFreeAndChangesNothing) {
  const Snapshot before = snapshot(engine);
  // Three instances of 2^20 x 2^20 cells: 3 x 256 GiB, far beyond any test machine.
  try {
    scene.plan(line("size 1048576 1048576"));
    FAIL() << "the plan was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("free"), std::string::npos) << e.what();
  }
  EXPECT_THROW(scene.execute(line("size 1048576 1048576")), InputError);
  EXPECT_EQ(snapshot(engine), before);
  EXPECT_EQ(scene.settings().width, 128);
}

// A change built beside the frame loop: the old instances keep stepping while the new ones are
// made, and the committed ones equal what the change gives when made at once.
TEST_F(SceneTest, AChangeBuiltBesideTheLoopEqualsTheSameChangeMadeAtOnce) {
  CpuEngine direct(2);
  Scene reference(direct, settings());
  reference.populate(3, "");
  reference.execute(line("size 2048 1024"));

  SceneBuild build(engine, *scene.plan(line("size 2048 1024")));
  int frames = 0;
  while (!build.finished()) {
    engine.step(1);  // what the frame loop goes on doing meanwhile
    ++frames;
  }
  EXPECT_EQ(engine.status(0).width, 128) << "the old state changed before the commit";
  build.commit(scene);
  EXPECT_EQ(snapshot(engine), snapshot(direct));
  EXPECT_EQ(origins(engine), origins(direct));
  EXPECT_EQ(scene.settings().width, 2048);
  EXPECT_GE(frames, 1);
}

// What a person changes while a size is built stays changed: only the size comes from the plan.
// An instance count changed in between refuses the commit, changing nothing.
TEST_F(SceneTest, SettingsChangedWhileASizeIsBuiltStayAndACountChangeRefusesTheCommit) {
  {
    SceneBuild build(engine, *scene.plan(line("size 512 256")));
    scene.execute(line("generations-per-frame 8"));
    scene.execute(line("density 0.5"));
    scene.execute(line("rule 1 B36/S23"));
    while (!build.finished()) {
    }
    build.commit(scene);
    EXPECT_EQ(scene.settings().width, 512);
    EXPECT_EQ(scene.settings().generations_per_frame, 8);
    EXPECT_EQ(scene.settings().density, 0.5);
    EXPECT_EQ(engine.status(1).rule.to_string(), "B36/S23");
    EXPECT_EQ(engine.status(1).width, 512);
  }
  SceneBuild build(engine, *scene.plan(line("size 1024 256")));
  scene.execute(line("instances 2"));
  const Snapshot before = snapshot(engine);
  while (!build.finished()) {
  }
  EXPECT_THROW(build.commit(scene), InputError);
  EXPECT_EQ(snapshot(engine), before);
  EXPECT_EQ(scene.settings().width, 512);
}

TEST_F(SceneTest, ACancelledBuildChangesNothing) {
  const Snapshot before = snapshot(engine);
  // Large enough that the fill is still running when it is cancelled.
  SceneBuild build(engine, *scene.plan(line("size 16384 16384")));
  build.cancel();
  while (!build.finished()) {
  }
  EXPECT_THROW(build.commit(scene), InputError);
  EXPECT_EQ(snapshot(engine), before);
  EXPECT_EQ(scene.settings().width, 128);
}

TEST_F(SceneTest, DrawnCellsAndLoadedPatternsAreUnsavedUntilSaved) {
  EXPECT_FALSE(scene.unsaved());
  scene.execute(line("set 1 3 4 1"));
  EXPECT_TRUE(scene.unsaved());
  test::ScratchDir dir;
  scene.execute(line("save 1 " + dir.file("one.rle")));
  EXPECT_FALSE(scene.unsaved());
  scene.execute(line("load 0 " + dir.file("one.rle")));
  EXPECT_TRUE(scene.unsaved());
  scene.execute(line("reset 0"));
  EXPECT_FALSE(scene.unsaved()) << "a reset instance holds nothing to lose";
}

}  // namespace
}  // namespace ls::app
