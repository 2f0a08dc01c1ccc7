// test_run_arguments.cpp — `lifestreams run` refuses bad arguments before running: exit 2, exactly
// one line on stderr in our own words and nothing on stdout; numbers are checked strictly against
// their ranges; a bad device list names the GPUs present (or why there are none).
#include <gtest/gtest.h>

#include <string>

#include "support/app_test_util.hpp"

namespace ls {
namespace {

using test::lines;
using test::Outcome;
using test::run_app;
using test::ScratchDir;

using test::Bad;
using test::expect_refused;

TEST(Cli, RunRefusesBadArgumentsWithOneLineOfOurOwn) {
  const Bad cases[] = {
      {"run --generations 99999999999999999999",
       "lifestreams run: --generations 99999999999999999999: expected a whole number 0..4611686018427387904"},
      {"run --generations 4611686018427387905", "expected a whole number 0..4611686018427387904"},
      {"run --generations abc", "--generations abc: expected a whole number"},
      {"run --generations -1", "--generations -1: expected a whole number"},
      {"run --generations +1", "--generations +1: expected a whole number"},
      {"run --generations 1x", "--generations 1x: expected a whole number"},
      {"run", "--generations is required"},
      {"run --generations 1 --seed 18446744073709551616",
       "--seed 18446744073709551616: expected an unsigned 64-bit number"},
      {"run --generations 1 --seed -1", "--seed -1: expected an unsigned 64-bit number"},
      {"run --generations 1 --every 0", "--every 0: expected a whole number 1..4611686018427387904"},
      {"run --generations 1 --rule ''", "--rule '': expected a rule"},
      {"run --generations 1 --density 1.5", "--density 1.5: expected a value from 0 to 1"},
      {"run --generations 1 --width 99999999999", "--width 99999999999: expected a whole number 32..1048576"},
      {"run --generations 1 --generations-per-launch 65",
       "--generations-per-launch 65: expected a whole number 1..64"},
      {"run --generations 1 --bogus", "lifestreams run: unknown option --bogus; see --help"},
      {"run --generations 1 stray", "unexpected argument stray; see --help"},
      {"run --generations 1 --pattern", "lifestreams run: --pattern needs a value"},
      {"run --generations 1 --pattern --width 32", "--pattern needs a value"},
      {"run --generations 1 --generations 2", "lifestreams run: --generations given twice"},
      {"run --generations 1 --width 32 --height 32 --output /nonexistent/dir/x.rle",
       "--output /nonexistent/dir/x.rle: cannot open for writing"},
      {"run --generations 1 --width 32 --height 32 --output .", "--output .: is a directory"},
      {"run --generations 1 --pattern bad.rle", "bad.rle: line 1, column 23: bad rule"},
  };
  for (const Bad& b : cases) expect_refused(b);
}

TEST(Cli, RunRefusesABadDeviceListWithOneLineListingTheGpusPresent) {
  // Syntax and repeats are refused before any device is used, so these hold with or without a GPU.
  const Bad cases[] = {
      {"run --generations 1 --devices 0,0", "--devices 0,0: device 0 is listed twice; "},
      {"run --generations 1 --devices 1,0,1", "--devices 1,0,1: device 1 is listed twice; "},
      {"run --generations 1 --devices 0,", "--devices 0,: expected `all` or device numbers"},
      {"run --generations 1 --devices ''", "--devices : expected `all` or device numbers"},
      {"run --generations 1 --devices 0,x", "--devices 0,x: 'x' is not a device number 0..1023"},
      {"run --generations 1 --device 0 --devices 0", "--device and --devices: give one of them"},
      {"run --generations 1 --devices 0,1 --backend cpu", "--devices with --backend cpu"},
      {"run --generations 1 --devices 1000,1001", "--devices: device 1000 does not exist; "},
  };
  for (const Bad& b : cases) {
    expect_refused(b);
    ScratchDir dir;
    const Outcome r = run_app(dir, b.args);
    const std::string message = b.message;
    if (message.find("listed twice") != std::string::npos || message.find("exist") != std::string::npos) {
      EXPECT_TRUE(r.err.find("GPUs present: 0 ") != std::string::npos ||
                  r.err.find("no GPU present: ") != std::string::npos)
          << r.err;
    }
  }
}

}  // namespace
}  // namespace ls
