// exchange_plan.cpp — implements exchange_plan.hpp.
#include "multi/exchange_plan.hpp"

#include "multi/band_partition.hpp"

namespace ls::multi {

double nominal_rate(Variant variant) {
  switch (variant) {
    case Variant::naive:
      return 1.4e11;
    case Variant::global:
    case Variant::shared:
      return 1.4e12;
    case Variant::iterate:
      return 5.6e12;
    case Variant::bitpacked:
      return 2.8e13;
  }
  return 1.4e12;
}

double nominal_launch_seconds(Variant variant, int width, int rows, int generations) {
  return static_cast<double>(width) * rows * generations / nominal_rate(variant);
}

int choose_exchange_every(Variant variant, int width, int thinnest, int generations, double exchange_seconds,
                          const LaunchSeconds& launch_seconds) {
  const auto launch = [&](int rows) {
    return launch_seconds ? launch_seconds(rows) : nominal_launch_seconds(variant, width, rows, generations);
  };
  int best = 1;
  double best_cost = 0;
  for (int m = 1; m <= kMaxExchangeEvery && 2 * m * generations <= thinnest; ++m) {
    const double cost = launch(thinnest + 2 * halo_holding(m * generations)) + exchange_seconds / m;
    if (m == 1 || cost < best_cost) {
      best = m;
      best_cost = cost;
    }
  }
  return best;
}

bool launch_hides_exchange(Variant variant, int width, int rows, int generations) {
  return nominal_launch_seconds(variant, width, rows, generations) >= kEdgesFirstLaunchSeconds;
}

}  // namespace ls::multi
