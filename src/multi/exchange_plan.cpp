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

int choose_exchange_every(Variant variant, int width, int thinnest, int generations,
                          double exchange_seconds) {
  const double row_seconds = static_cast<double>(width) * generations / nominal_rate(variant);
  int best = 1;
  double best_cost = 0;
  for (int m = 1; m <= kMaxExchangeEvery && 2 * m * generations <= thinnest; ++m) {
    const double cost = 2.0 * halo_holding(m * generations) * row_seconds + exchange_seconds / m;
    if (m == 1 || cost < best_cost) {
      best = m;
      best_cost = cost;
    }
  }
  return best;
}

bool launch_hides_exchange(Variant variant, int width, int rows, int generations) {
  const double seconds = static_cast<double>(width) * rows * generations / nominal_rate(variant);
  return seconds >= kEdgesFirstLaunchSeconds;
}

}  // namespace ls::multi
