// test_retrying.cpp — a source that cannot open at first (a counter unit another profiler holds)
// is tried again every retry period and read once it opens; one whose reads fail is closed and
// reopened the same way; its reason is said meanwhile.
#include <gtest/gtest.h>

#include <memory>

#include "counters/fake_source.hpp"
#include "counters/retrying_source.hpp"

namespace ls::counters {
namespace {

TEST(RetryingSource, TriesAgainEveryPeriodUntilTheSourceOpensAndThenReadsIt) {
  int tries = 0;
  RetryingSource source(
      "fake",
      [&](std::string& why) -> std::unique_ptr<CounterSource> {
        if (++tries < 3) {
          why = "the counter unit is busy";
          return nullptr;
        }
        return std::make_unique<FakeSource>(std::vector<int>{0});
      },
      100);
  EXPECT_EQ(tries, 1);
  std::vector<Sample> out;
  EXPECT_FALSE(source.read(50, out));  // before the period: not tried again
  EXPECT_EQ(tries, 1);
  EXPECT_EQ(source.why(), "the counter unit is busy (tried again every 0 s)");
  EXPECT_FALSE(source.read(100, out));
  EXPECT_EQ(tries, 2);
  EXPECT_FALSE(source.open());
  EXPECT_TRUE(source.read(200, out));
  EXPECT_EQ(tries, 3);
  EXPECT_TRUE(source.open());
  EXPECT_EQ(out.size(), kAllCounters.size());
  EXPECT_EQ(source.why(), "");
}

TEST(RetryingSource, ASourceWhoseReadsFailIsClosedAndReopenedAfterThePeriod) {
  int opened = 0;
  RetryingSource source(
      "fake",
      [&](std::string&) -> std::unique_ptr<CounterSource> {
        ++opened;
        // The first one fails its first read; the second reads.
        return std::make_unique<FakeSource>(std::vector<int>{0}, 1.0, opened == 1 ? 1 : 0);
      },
      1000);
  std::vector<Sample> out;
  EXPECT_FALSE(source.read(10, out));
  EXPECT_FALSE(source.open());
  EXPECT_NE(source.why().find("the fake counter unit is busy"), std::string::npos) << source.why();
  EXPECT_FALSE(source.read(500, out));
  EXPECT_EQ(opened, 1);
  EXPECT_TRUE(source.read(1010, out));
  EXPECT_EQ(opened, 2);
}

}  // namespace
}  // namespace ls::counters
