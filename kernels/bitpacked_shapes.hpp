// bitpacked_shapes.hpp — the block shapes the bitpacked launcher chooses from (private to kernels/):
// shared by the launcher (step_bitpacked.cu) and the run-time compiler of rule kernels
// (rule_kernels.cpp), which instantiates the same shapes for one rule.
#pragma once

namespace ls::kernels::detail {

// Block shapes (rows per warp, warps): taller tiles waste fewer rows on the k-row halos, smaller
// ones fill the last wave of blocks better. The first kBaseShapes are the measured base set; the
// rest (20..30 rows per lane) are filling shapes, so that a lattice whose blocks would spill a
// little into one more round can take tiles that fill whole rounds.
struct Shape {
  int rows_per_warp, warps;
};
inline constexpr Shape kShapes[] = {{16, 4},  {32, 4},  {32, 8},  {32, 12}, {32, 16},
                                    {16, 16}, {20, 16}, {22, 16}, {24, 16}, {26, 16},
                                    {28, 16}, {30, 16}, {24, 8},  {26, 8},  {28, 8}};
inline constexpr int kShapeCount = static_cast<int>(sizeof(kShapes) / sizeof(kShapes[0]));
inline constexpr int kBaseShapes = 6;

}  // namespace ls::kernels::detail
