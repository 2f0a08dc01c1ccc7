// test_counters.cpp — the app's hardware counters as a process sees them, through the fake source
// (no GPU needed): the report's per-GPU means and source, the CSV of every reading, what the report
// says with the counters off or no GPU in use, and the refused options.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "counters/fake_source.hpp"
#include "support/app_test_util.hpp"

namespace ls::app {
namespace {

using test::Bad;
using test::Outcome;
using test::run_app;
using test::ScratchDir;

constexpr const char* kSmall = "--headless --backend cpu --instances 1 --width 64 --height 64 --frames 30";

std::string number(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

TEST(Counters, TheReportGivesEachCountersMeanAndTheSourceAndTheCsvEveryReading) {
  ScratchDir dir;
  const Outcome r =
      run_app(dir, std::string(kSmall) + " --test-counters-fake --report r.json --counters-csv c.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string report = dir.read("r.json");
  EXPECT_NE(report.find("\"counters_source\": \"fake\""), std::string::npos) << report;
  for (const counters::Counter c : counters::kAllCounters) {
    std::string field = "\"";
    field += counters::counter_name(c);
    field += "\": ";
    field += number(counters::fake_value(c, 0));
    EXPECT_NE(report.find(field), std::string::npos) << field << "\n" << report;
  }
  std::istringstream csv(dir.read("c.csv"));
  std::string line;
  ASSERT_TRUE(std::getline(csv, line));
  EXPECT_EQ(line, "time_ms,gpu,counter,value");
  long readings = 0;
  while (std::getline(csv, line)) {
    ++readings;
    std::istringstream fields(line);
    std::string time, gpu, name, value;
    ASSERT_TRUE(std::getline(fields, time, ',') && std::getline(fields, gpu, ',') &&
                std::getline(fields, name, ',') && std::getline(fields, value))
        << line;
    EXPECT_EQ(gpu, "0") << line;
    for (const counters::Counter c : counters::kAllCounters) {
      if (name == counters::counter_name(c)) {
        EXPECT_EQ(std::stod(value), counters::fake_value(c, 0)) << line;
      }
    }
  }
  // Every read gives all eight counters of the one GPU.
  EXPECT_GT(readings, 0);
  EXPECT_EQ(readings % static_cast<long>(counters::kAllCounters.size()), 0) << readings;
}

TEST(Counters, OffOrWithoutAGpuTheReportSaysWhyInOneLine) {
  ScratchDir dir;
  ASSERT_EQ(run_app(dir, std::string(kSmall) + " --counters off --report off.json").status, 0);
  EXPECT_NE(dir.read("off.json").find("\"counters_source\": \"off\""), std::string::npos)
      << dir.read("off.json");
  // The command turns them off and on again: the report then has the fake's means again.
  dir.write("toggle.script", "counters off\nframes 5\ncounters on\nframes 30\nquit\n");
  ASSERT_EQ(run_app(dir,
                    "--headless --backend cpu --instances 1 --width 64 --height 64 --test-counters-fake "
                    "--script toggle.script --report toggled.json")
                .status,
            0);
  EXPECT_NE(dir.read("toggled.json").find("\"counters_source\": \"fake\""), std::string::npos)
      << dir.read("toggled.json");
  const Outcome cpu = run_app(dir, std::string(kSmall) + " --report cpu.json --counters-csv empty.csv");
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  EXPECT_NE(dir.read("cpu.json").find("\"counters_source\": \"none: no GPU in use"), std::string::npos)
      << dir.read("cpu.json");
  // Nor has an instance in host memory a point on the roofline.
  EXPECT_NE(dir.read("cpu.json").find("\"roofline\": null}"), std::string::npos) << dir.read("cpu.json");
  EXPECT_EQ(dir.read("cpu.json").find("\"wall\""), std::string::npos) << dir.read("cpu.json");
  // The CSV asked for still gets its header, and the user is told why nothing follows it.
  EXPECT_EQ(dir.read("empty.csv"), "time_ms,gpu,counter,value\n");
  EXPECT_NE(cpu.err.find("--counters-csv empty.csv gets no readings: no GPU in use"), std::string::npos)
      << cpu.err;
}

TEST(Counters, BadCounterOptionsAreRefusedWithOneLine) {
  for (const Bad& b : {Bad{"--headless --counters maybe", "--counters maybe: expected on or off"},
                       Bad{"--headless --counters off --counters-csv c.csv", "the counters are off"},
                       Bad{"--headless --backend cpu --counters-csv /nonexistent-dir/c.csv",
                           "--counters-csv /nonexistent-dir/c.csv: cannot write it"}})
    test::expect_refused(b);
}

}  // namespace
}  // namespace ls::app
