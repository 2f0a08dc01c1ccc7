// kernel_costs.cpp — the kernels' cost table and the roofline it gives (kernel_costs.hpp).
#include "core/kernel_costs.hpp"

#include <algorithm>

namespace ls {

KernelCost kernel_cost(Variant v) {
  // H100 80GB HBM3, B3/S23 and B36/S23 on a 16384² soup (bench/NOTES.md, 2026-11-27).
  switch (v) {
    case Variant::naive:  // int32 cells, 8 neighbour loads per cell
      return {8.0, 69.0, 69.0};
    case Variant::global:  // byte cells, 16 per thread and row, SWAR sums; 4 rows a thread
      return {2.0, 2.36, 3.36};
    case Variant::shared:  // 4 rows a thread
      return {2.0, 2.88, 3.65};
    case Variant::iterate:  // k = 16, the tile in registers
      return {2.0, 2.38, 3.71};
    case Variant::bitpacked:  // 32 cells a word, k = 16 in registers and shuffles; other rules: the
                              // kernel compiled for the rule (B36/S23), from its SASS (bench/NOTES.md)
      return {0.25, 0.472, 0.511};
  }
  return {2.0, 1.0, 1.0};
}

RooflinePoint roofline_point(Variant variant, const Rule& rule, double generations_per_launch, double cups,
                             const GpuLimits& limits) {
  const KernelCost cost = kernel_cost(variant);
  const bool iterates = variant == Variant::iterate || variant == Variant::bitpacked;
  const double k = iterates ? std::max(1.0, generations_per_launch) : 1.0;
  RooflinePoint p;
  p.cups = cups;
  p.alu_per_cell = rule.is_life() ? cost.alu_per_cell_life : cost.alu_per_cell_other;
  p.bytes_per_cell = cost.bytes_per_cell_per_launch / k;
  p.memory_roof = limits.copy_gbps > 0 ? limits.copy_gbps * 1e9 / p.bytes_per_cell : 0;
  p.issue_roof = limits.alu_ops_per_s() / p.alu_per_cell;
  p.wall = p.memory_roof > 0 && p.memory_roof < p.issue_roof ? RoofWall::memory : RoofWall::issue;
  return p;
}

const char* wall_name(RoofWall wall) { return wall == RoofWall::memory ? "memory" : "issue"; }

}  // namespace ls
