// test_run.cpp — what `lifestreams run` does with good arguments: the CPU engine notes a --variant and
// prints the lines a run without it prints; gzipped patterns run like plain ones; --generations and
// --every above 2^31 land exactly; --rule wins over a pattern file's rule but keeps its torus size;
// --output is checked before running and written at the end.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "control/numbers.hpp"
#include "support/app_test_util.hpp"

namespace ls {
namespace {

using test::lines;
using test::Outcome;
using test::run_app;
using test::ScratchDir;
using test::shell;

// The CPU engine has no kernel variants: a --variant given says so once on stderr, and the
// output lines are the ones a run without it prints.
TEST(Cli, RunOnTheCpuSaysTheVariantIsForCuda) {
  ScratchDir dir;
  const std::string args = "run --backend cpu --width 64 --height 64 --generations 4 --every 2";
  const Outcome plain = run_app(dir, args);
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err, "");
  const Outcome with_variant = run_app(dir, args + " --variant bitpacked");
  ASSERT_EQ(with_variant.status, 0) << with_variant.err;
  EXPECT_EQ(with_variant.out, plain.out);
  EXPECT_NE(with_variant.out.find("variant=cpu"), std::string::npos) << with_variant.out;
  EXPECT_EQ(with_variant.err,
            "lifestreams run: note: --variant bitpacked applies to the CUDA backend; the CPU engine runs its "
            "reference code\n");
}

// `run --pattern` reads Golly's gzipped patterns: the same lines as the plain file.
TEST(Cli, RunLoadsAGzippedPatternLikeThePlainOne) {
  if (!test::have_program("gzip")) GTEST_SKIP() << "no gzip program to compress the test's file";
  ScratchDir dir;
  dir.write("glider.rle", "#N Glider\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  ASSERT_EQ(shell(dir, "gzip -c glider.rle >glider.rle.gz && gzip -c glider.rle >glider.RLE.GZ"), 0);
  const std::string args = "run --backend cpu --generations 8 --every 4 --pattern ";
  const Outcome plain = run_app(dir, args + "glider.rle");
  ASSERT_EQ(plain.status, 0) << plain.err;
  for (const char* packed : {"glider.rle.gz", "glider.RLE.GZ"}) {
    const Outcome r = run_app(dir, args + packed);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, plain.out) << packed;
    EXPECT_EQ(r.err, "") << packed;
  }
  // A damaged one: exit 2, one line naming it, nothing on stdout.
  ASSERT_EQ(shell(dir, "head -c 20 glider.rle.gz >cut.rle.gz"), 0);
  const Outcome cut = run_app(dir, args + "cut.rle.gz");
  EXPECT_EQ(cut.status, 2);
  EXPECT_EQ(cut.out, "");
  EXPECT_EQ(cut.err,
            "lifestreams run: cut.rle.gz: truncated gzip data (it ends before the compressed data does)\n");
}

// `run` steps through int-sized pieces: totals and --every above 2^31 land exactly (running 2^32
// real generations takes far too long for a test, so this drives the same loop with counters).
TEST(Cli, GenerationsAndEveryAbove2To31StepExactly) {
  const long long total = (1LL << 32) + 1, every = 1LL << 32;
  long long stepped = 0;
  int largest = 0;
  std::vector<long long> printed;
  step_in_chunks(
      total, every,
      [&](int n) {
        stepped += n;
        largest = std::max(largest, n);
      },
      [&](long long done) { printed.push_back(done == stepped ? done : -1); });
  EXPECT_EQ(stepped, total);
  EXPECT_LE(largest, 4096);
  EXPECT_EQ(printed, (std::vector<long long>{every, total}));

  printed.clear();
  stepped = 0;
  step_in_chunks(
      10, 5, [&](int n) { stepped += n; }, [&](long long done) { printed.push_back(done); });
  EXPECT_EQ(printed, (std::vector<long long>{5, 10}));
  printed.clear();
  step_in_chunks(
      0, 5, [&](int n) { stepped += n; }, [&](long long done) { printed.push_back(done); });
  EXPECT_TRUE(printed.empty());

  ScratchDir dir;
  const Outcome r =
      run_app(dir, "run --backend cpu --width 32 --height 32 --generations 3 --every 4294967296");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines(r.out), 3) << r.out;
  EXPECT_NE(r.out.find("\ngeneration=0 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ngeneration=3 "), std::string::npos) << r.out;
}

TEST(Cli, RuleOptionWinsOverThePatternFilesRuleButKeepsItsTorusSize) {
  ScratchDir dir;
  dir.write("bad.rle", "x = 3, y = 1, rule = B9/S23\n3o!\n");
  dir.write("torus.rle", "x = 3, y = 1, rule = B3/S23:T256,256\n3o!\n");
  Outcome r = run_app(dir, "run --backend cpu --generations 1 --pattern bad.rle --rule B36/S23");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("rule=B36/S23 size=96x96"), std::string::npos) << r.out;

  r = run_app(dir, "run --backend cpu --generations 1 --pattern torus.rle --rule B36/S23");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("rule=B36/S23 size=256x256"), std::string::npos) << r.out;

  r = run_app(dir, "run --backend cpu --generations 1 --pattern torus.rle --rule B36/S23 --width 64");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("rule=B36/S23 size=64x256"), std::string::npos) << r.out;
}

TEST(Cli, OutputThatCannotBeWrittenIsRefusedBeforeRunningAndAGoodOneIsWrittenAtTheEnd) {
  ScratchDir dir;
  dir.write("keep.rle", "old\n");
  Outcome r = run_app(dir, "run --backend cpu --width 32 --height 32 --generations 2 --output sub/x.rle");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(lines(r.err), 1) << r.err;
  // A failure after the check (bad rule) leaves no file behind and an existing one untouched.
  r = run_app(dir, "run --backend cpu --width 32 --height 32 --generations 2 --rule B9 --output new.rle");
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("new.rle")));
  r = run_app(dir, "run --backend cpu --width 32 --height 32 --generations 2 --rule B9 --output keep.rle");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(dir.read("keep.rle"), "old\n");
  r = run_app(dir, "run --backend cpu --width 32 --height 32 --generations 2 --output keep.rle");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(dir.read("keep.rle").find("#C generation 2"), std::string::npos) << dir.read("keep.rle");
}

}  // namespace
}  // namespace ls
