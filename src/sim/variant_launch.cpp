// variant_launch.cpp — launch_variant_step: a Variant to its kernels/ launch function.
#include "sim/variant_launch.hpp"

#include <cstdint>

#include "kernels/life_kernels.hpp"

namespace ls::sim {

void launch_variant_step(Variant variant, const void* in, void* out, int width, int rows, const Rule& rule,
                         int generations, cudaStream_t stream, int side_by_side) {
  const kernels::RuleMasks masks{rule.birth, rule.survive};
  const auto* in8 = static_cast<const std::uint8_t*>(in);
  auto* out8 = static_cast<std::uint8_t*>(out);
  switch (variant) {
    case Variant::naive:
      kernels::launch_step_naive(static_cast<const std::int32_t*>(in), static_cast<std::int32_t*>(out), width,
                                 rows, masks, stream);
      break;
    case Variant::global:
      kernels::launch_step_global(in8, out8, width, rows, masks, stream);
      break;
    case Variant::shared:
      kernels::launch_step_shared(in8, out8, width, rows, masks, stream);
      break;
    case Variant::iterate:
      kernels::launch_step_iterate(in8, out8, width, rows, masks, generations, stream);
      break;
    case Variant::bitpacked:
      kernels::launch_step_bitpacked(static_cast<const std::uint32_t*>(in), static_cast<std::uint32_t*>(out),
                                     width, rows, masks, generations, stream, side_by_side);
      break;
  }
}

}  // namespace ls::sim
