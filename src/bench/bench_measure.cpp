// bench_measure.cpp — the sweep's rows, the soup, the warm-up and the median of repeats
// (bench_measure.hpp), as every bench driver times its rows.
#include "bench/bench_measure.hpp"

#include <algorithm>
#include <cmath>

namespace ls::bench {

void add_unique(std::vector<Config>& configs, const Config& c) {
  if (std::none_of(configs.begin(), configs.end(), [&](const Config& o) { return o.key() == c.key(); }))
    configs.push_back(c);
}

InstanceSpec spec_of(const Config& c, const Rule& rule, int instance) {
  InstanceSpec spec;
  spec.width = c.width;
  spec.height = c.height;
  spec.rule = rule;
  spec.variant = c.variant;
  spec.generations_per_launch = c.k;
  spec.init = RandomInit{kDensity, static_cast<std::uint64_t>(instance + 1)};
  return spec;
}

Repeats measure_repeats(const TimeFrames& time, double target_ms, int frames) {
  (void)time(kWarmupFrames);
  double one = time(2).ms / 2;
  one = std::min(one, time(2).ms / 2);
  if (frames == 0)
    frames = std::clamp(static_cast<int>(std::ceil(target_ms / std::max(one, 1e-4))), 1, kMaxFramesPerRepeat);
  std::vector<double> ms, host;
  for (int r = 0; r < kRepeats; ++r) {
    const Timed t = time(frames);
    ms.push_back(t.ms / frames);
    host.push_back(t.host_ms / frames);
  }
  return {median(ms), median(host), frames};
}

double repeat_median(const TimeFrames& time, int frames) {
  std::vector<double> ms;
  for (int r = 0; r < kRepeats; ++r) ms.push_back(time(frames).ms / frames);
  return median(ms);
}

}  // namespace ls::bench
