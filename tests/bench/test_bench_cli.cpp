// test_bench_cli.cpp — the command-line contract of `lifestreams bench`: bad arguments exit 2 with
// exactly one line on stderr and nothing on stdout; a bad device list names the GPUs present; the
// multi-GPU rows end at the one-GPU run's hashes and name their devices.
#include <gtest/gtest.h>

#include <string>

#include "support/app_test_util.hpp"

namespace ls {
namespace {

using test::lines;
using test::Outcome;
using test::quoted_app;
using test::run_app;
using test::ScratchDir;
using test::shell;

using test::Bad;
using test::expect_refused;

TEST(Cli, BenchRefusesBadArgumentsWithOneLineOfOurOwn) {
  const Bad cases[] = {
      {"bench --bogus", "lifestreams bench: unknown option --bogus; see --help"},
      {"bench --sizes", "lifestreams bench: --sizes needs a value"},
      {"bench --sizes 64 --sizes 32", "lifestreams bench: --sizes given twice"},
      {"bench --json --bogus", "lifestreams bench: --json needs a value"},
      {"bench --instances 0", "--instances 0: expected a whole number 1..1024"},
      {"bench --device -1", "--device -1: expected a whole number 0..1023"},
      {"bench --sizes 99999999999", "--sizes 99999999999: expected a whole number 32..1048576"},
      {"bench --timing-period 1,1001", "--timing-period 1001: expected a whole number 1..1000"},
  };
  for (const Bad& b : cases) expect_refused(b);
}

// The hidden options of tests and tuning (docs/bench.md) are refused as the others are, before any
// device is used.
TEST(Cli, BenchRefusesBadTestAndTuningOptionsWithOneLine) {
  const Bad cases[] = {
      {"bench --test-bands 1", "lifestreams bench: --test-bands 1: expected a whole number 2..8"},
      {"bench --test-bands 9", "--test-bands 9: expected a whole number 2..8"},
      {"bench --test-bands 2 --devices 0,1",
       "--test-bands 2: runs one listed device as bands; list one device"},
      {"bench --test-bands 2 --devices all", "--test-bands 2: runs one listed device as bands"},
      {"bench --bitpacked-shape -1", "--bitpacked-shape -1: expected a whole number 0.."},
      // CLI11 names no hidden option whose value is missing: the line is ours, without the name.
      {"bench --bitpacked-shape", "lifestreams bench: "},
  };
  for (const Bad& b : cases) expect_refused(b);
}

// As run's: syntax and repeats are refused before any device is used; a device that does not
// exist is refused with the GPUs present (or why there are none).
TEST(Cli, BenchRefusesABadDeviceListWithOneLineListingTheGpusPresent) {
  const Bad cases[] = {
      {"bench --devices 0,0", "--devices 0,0: device 0 is listed twice; "},
      {"bench --devices 0,", "--devices 0,: expected `all` or device numbers"},
      {"bench --devices 0,x", "--devices 0,x: 'x' is not a device number 0..1023"},
      {"bench --device 0 --devices 0", "--device and --devices: give one of them"},
      {"bench --devices 1000,1001", "--devices: device 1000 does not exist; "},
  };
  for (const Bad& b : cases) {
    expect_refused(b);
    ScratchDir dir;
    const Outcome r = run_app(dir, b.args);
    if (std::string(b.message).find("give one") == std::string::npos) {
      EXPECT_TRUE(r.err.find("GPUs present: 0 ") != std::string::npos ||
                  r.err.find("no GPU present: ") != std::string::npos)
          << r.err;
    }
  }
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The multi-GPU rows on one GPU through the tests-only --test-bands 2 (two bands, or two engines
// each on its own host thread, of device 0): a split lattice and spread instances end at the very
// hashes of the same work on one GPU's engine, and each row names its devices and its speedup.
TEST(Cli, BenchDevicesRowsEndAtTheOneGpuRunsHashes) {
  ScratchDir dir;
  if (shell(dir, quoted_app() + " run --backend cuda --width 32 --height 32 --generations 0") != 0)
    GTEST_SKIP() << "no usable CUDA device: " << dir.read("out.txt");
  ASSERT_EQ(
      shell(dir,
            quoted_app() +
                " bench --devices 0 --test-bands 2 --variants naive,bitpacked --sizes 1024 --instances 1,5 "
                "--generations-per-launch 4 --json b.json"),
      0)
      << dir.read("out.txt");
  const std::string j = dir.read("b.json");
  // naive and bitpacked, each split (one lattice) and spread (5 instances) by a thread per GPU
  // and by the calling thread alone.
  EXPECT_EQ(count_of(j, "\"layout\": \"split\""), 2u) << j;
  EXPECT_EQ(count_of(j, "\"layout\": \"spread\""), 2u) << j;
  EXPECT_EQ(count_of(j, "\"layout\": \"spread-1t\""), 2u) << j;
  EXPECT_EQ(count_of(j, "\"devices\": [0,0]"), 6u) << j;
  EXPECT_EQ(count_of(j, "\"same_hash_as_one_gpu\": true"), 6u) << j;
  EXPECT_EQ(count_of(j, "\"speedup_vs_one_gpu\": null"), 0u) << j;
  EXPECT_EQ(count_of(j, "\"speedup_vs_one_gpu\": "), 6u) << j;
  const std::string out = dir.read("out.txt");
  EXPECT_NE(out.find("vs 1 GPU"), std::string::npos) << out;
  EXPECT_EQ(count_of(out, " yes "), 6u) << out;

  // One device without --test-bands: the one-GPU rows, each naming its device.
  ASSERT_EQ(shell(dir, quoted_app() + " bench --devices 0 --variants bitpacked --sizes 1024 --json one.json"),
            0)
      << dir.read("out.txt");
  const std::string one = dir.read("one.json");
  EXPECT_EQ(count_of(one, "\"devices\": [0]"), count_of(one, "\"variant\": ")) << one;
  EXPECT_EQ(count_of(one, "\"layout\""), 0u) << one;
}

}  // namespace
}  // namespace ls
