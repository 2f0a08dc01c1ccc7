// scene_settings.hpp — SceneSettings: what new and reset instances get (size, soup, seeds,
// generations per frame and per launch, rule, variant). The scene holds them and the panel shows
// them, so they live below both.
#pragma once

#include <cstdint>
#include <optional>

#include "core/instance_spec.hpp"
#include "core/rule.hpp"

namespace ls {

/// What new and reset instances get.
struct SceneSettings {
  int width = 1024;
  int height = 1024;
  double density = 0.25;
  std::uint64_t seed = 1;
  bool same_seed = true;
  int generations_per_frame = 1;
  int generations_per_launch = 16;
  Rule rule;
  std::optional<Variant> variant;  // every new instance gets it; unset: the default cycle
};

}  // namespace ls
