// rule_masks.hpp — RuleMasks, a rule as its birth and survival masks: the one type that both the
// host interface (life_kernels.hpp) and the device headers compiled at run time by NVRTC (which
// see no CUDA runtime header) need.
#pragma once

#include <cstdint>

namespace ls::kernels {

/// Rule masks: bit n set = born / survives with n live neighbours.
struct RuleMasks {
  std::uint32_t birth;
  std::uint32_t survive;
};

}  // namespace ls::kernels
