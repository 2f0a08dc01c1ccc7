// band_partition.cpp — band heights and halo depths of a split lattice (band_partition.hpp).
#include "multi/band_partition.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ls::multi {

int generations_per_exchange(Variant variant, int k) { return variant_iterates(variant) ? k : 1; }

int halo_holding(int rows) { return (rows + kHaloGranularity - 1) / kHaloGranularity * kHaloGranularity; }

int halo_rows(Variant variant, int k) { return halo_holding(generations_per_exchange(variant, k)); }

int min_band_rows(Variant variant, int k) {
  return std::max(kBandRowGranularity, 2 * generations_per_exchange(variant, k));
}

std::vector<Band> partition_rows(int height, int bands, Variant variant, int k) {
  if (bands < 1) throw InputError("a split lattice needs at least one band, got " + std::to_string(bands));
  const int granules = height / kBandRowGranularity;
  const int base = granules / bands, extra = granules % bands;
  const int thinnest = base * kBandRowGranularity;
  const int need = min_band_rows(variant, k);
  if (thinnest < need) {
    std::string what = "lattice of height " + std::to_string(height) + " split over " +
                       std::to_string(bands) + " devices: the thinnest band would have " +
                       std::to_string(thinnest) + " rows; " + std::string(variant_name(variant));
    if (variant_iterates(variant)) what += " at " + std::to_string(k) + " generations per launch";
    throw InputError(what + " needs at least " + std::to_string(need) + " rows per band (" +
                     std::to_string(need * bands) + " rows in all)");
  }
  std::vector<Band> out(static_cast<std::size_t>(bands));
  int row = 0;
  for (int b = 0; b < bands; ++b) {
    out[static_cast<std::size_t>(b)] = Band{row, (base + (b < extra ? 1 : 0)) * kBandRowGranularity};
    row += out[static_cast<std::size_t>(b)].rows;
  }
  return out;
}

int band_of_row(const std::vector<Band>& bands, int y) {
  const auto it = std::upper_bound(bands.begin(), bands.end(), y,
                                   [](int row, const Band& b) { return row < b.first_row; });
  return static_cast<int>(it - bands.begin()) - 1;
}

}  // namespace ls::multi
