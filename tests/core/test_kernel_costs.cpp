// The kernels' cost table and the roofline it gives (core/kernel_costs.hpp).
#include "core/kernel_costs.hpp"

#include <gtest/gtest.h>

namespace ls {
namespace {

/// An H100 SXM as the table was measured on: 132 SMs at 1980 MHz, a 3000 GB/s copy.
GpuLimits h100() { return GpuLimits{132, 1.98e9, 3000}; }

TEST(KernelCosts, TheIssueRateIsSmsTimesAluLanesTimesClock) {
  EXPECT_DOUBLE_EQ(h100().alu_ops_per_s(), 132.0 * 64 * 1.98e9);
}

TEST(KernelCosts, EachLayoutMovesItsCellsBytesOncePerLaunch) {
  EXPECT_EQ(kernel_cost(Variant::naive).bytes_per_cell_per_launch, 8.0);  // int32 read + written
  for (Variant v : {Variant::global, Variant::shared, Variant::iterate})
    EXPECT_EQ(kernel_cost(v).bytes_per_cell_per_launch, 2.0);                  // a byte read + written
  EXPECT_EQ(kernel_cost(Variant::bitpacked).bytes_per_cell_per_launch, 0.25);  // a bit read + written
}

TEST(KernelCosts, OtherRulesCostAtLeastLifeAndBitsCostLeastPerCell) {
  for (Variant v : {Variant::naive, Variant::global, Variant::shared, Variant::iterate, Variant::bitpacked})
    EXPECT_GE(kernel_cost(v).alu_per_cell_other, kernel_cost(v).alu_per_cell_life) << variant_name(v);
  for (Variant v : {Variant::naive, Variant::global, Variant::shared, Variant::iterate})
    EXPECT_LT(kernel_cost(Variant::bitpacked).alu_per_cell_life, kernel_cost(v).alu_per_cell_life);
}

TEST(KernelCosts, AByteKernelStepOnceALaunchMeetsTheMemoryWall) {
  const RooflinePoint p = roofline_point(Variant::global, Rule::life(), 16, 1.3e12, h100());
  EXPECT_DOUBLE_EQ(p.memory_roof, 3000e9 / 2.0);  // k is ignored: global steps once a launch
  EXPECT_DOUBLE_EQ(p.issue_roof, h100().alu_ops_per_s() / kernel_cost(Variant::global).alu_per_cell_life);
  EXPECT_EQ(p.wall, RoofWall::memory);
  EXPECT_NEAR(p.fraction(), 1.3e12 / 1.5e12, 1e-12);
}

TEST(KernelCosts, IteratingInALaunchSharesItsBytesAndMeetsTheIssueWall) {
  const RooflinePoint p = roofline_point(Variant::bitpacked, Rule::life(), 16, 2.76e13, h100());
  EXPECT_DOUBLE_EQ(p.bytes_per_cell, 0.25 / 16);
  EXPECT_DOUBLE_EQ(p.memory_roof, 3000e9 / (0.25 / 16));
  EXPECT_EQ(p.wall, RoofWall::issue);
  EXPECT_NEAR(p.fraction(),
              2.76e13 * kernel_cost(Variant::bitpacked).alu_per_cell_life / h100().alu_ops_per_s(), 1e-12);
}

TEST(KernelCosts, AnotherRuleCountsItsOwnKernelsInstructions) {
  const Rule b36 = parse_rule("B36/S23");
  const RooflinePoint p = roofline_point(Variant::bitpacked, b36, 16, 1e13, h100());
  EXPECT_DOUBLE_EQ(p.alu_per_cell, kernel_cost(Variant::bitpacked).alu_per_cell_other);
}

TEST(KernelCosts, WithoutAMeasuredBandwidthOnlyTheIssueWallStands) {
  GpuLimits g = h100();
  g.copy_gbps = 0;
  const RooflinePoint p = roofline_point(Variant::global, Rule::life(), 1, 1e12, g);
  EXPECT_EQ(p.memory_roof, 0);
  EXPECT_EQ(p.wall, RoofWall::issue);
  EXPECT_GT(p.fraction(), 0);
}

}  // namespace
}  // namespace ls
