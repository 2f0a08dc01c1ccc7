// test_composite.cpp — sources read as one: every part's readings, the names joined, and a part
// that cannot read named in why() while the others still give theirs.
#include <gtest/gtest.h>

#include <memory>

#include "counters/composite_source.hpp"
#include "counters/fake_source.hpp"

namespace ls::counters {
namespace {

TEST(CompositeSource, ReadsEveryPartAndNamesTheOnesThatCannot) {
  std::vector<std::unique_ptr<CounterSource>> parts;
  parts.push_back(std::make_unique<FakeSource>(std::vector<int>{0}, 4.0));
  parts.push_back(std::make_unique<FakeSource>(std::vector<int>{1}, 2.0, 1));  // busy once
  CompositeSource both(std::move(parts));
  EXPECT_EQ(both.name(), "fake + fake");
  EXPECT_EQ(both.period_ms(), 2.0);
  EXPECT_EQ(both.counters().size(), kAllCounters.size());
  std::vector<Sample> out;
  ASSERT_TRUE(both.read(1.0, out));
  EXPECT_EQ(out.size(), kAllCounters.size());  // GPU 0's only
  for (const Sample& s : out) EXPECT_EQ(s.gpu, 0);
  EXPECT_EQ(both.why(), "fake: the fake counter unit is busy");
  out.clear();
  ASSERT_TRUE(both.read(2.0, out));
  EXPECT_EQ(out.size(), 2 * kAllCounters.size());
  EXPECT_EQ(both.why(), "");
}

}  // namespace
}  // namespace ls::counters
