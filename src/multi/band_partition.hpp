// band_partition.hpp — how a split lattice is cut into horizontal bands, one per device, and how
// deep each band's halo is (plain C++: no CUDA, so it is tested everywhere).
//
// A band's device buffer holds halo() rows above its own rows and halo() rows below. The kernels
// step a buffer as a torus of its own height; garbage enters at the buffer's top and bottom and
// moves one row per generation, so after g <= halo generations every own row is exact as long as
// the g halo rows next to the own rows were exact before. The bands then refresh those rows from
// their neighbours (HaloExchange).
#pragma once

#include <string>
#include <vector>

#include "core/engine.hpp"

namespace ls::multi {

/// Band heights are multiples of this: every layout's kernels need heights that are multiples of
/// 32 (kernels/life_kernels.hpp), and own rows plus two halos of a multiple of 16 stay one.
inline constexpr int kBandRowGranularity = 32;
/// Halos are this many rows deep at least, and a multiple of it (rows + 2 * halo stays a multiple of
/// 32 when rows is).
inline constexpr int kHaloGranularity = 16;

struct Band {
  int first_row = 0;  // in the whole lattice
  int rows = 0;
};

/// `rows` rounded up to a multiple of kHaloGranularity: the halo that holds that many rows.
int halo_holding(int rows);
/// Generations one launch of `variant` runs: k for iterate and bitpacked, 1 for the others. An
/// exchange after every launch refreshes this many halo rows each side (with deep halos, as many
/// times this as there are launches between exchanges).
int generations_per_exchange(Variant variant, int k);
/// Halo rows each side: generations_per_exchange rounded up to kHaloGranularity.
int halo_rows(Variant variant, int k);
/// The fewest own rows a band needs: 2 x generations_per_exchange (its upper and lower
/// neighbours' rows do not overlap, so each comes from one band), and one row granule.
int min_band_rows(Variant variant, int k);

/// `height` rows cut into `bands` bands, top to bottom, as equal as kBandRowGranularity allows
/// (the first height/32 % bands bands get one granule more). Throws InputError, naming the
/// lattice, the device count and the variant's need, when a band would be thinner than
/// min_band_rows(variant, k), or when bands < 1.
std::vector<Band> partition_rows(int height, int bands, Variant variant, int k);

/// The band holding lattice row y (0 <= y < height).
int band_of_row(const std::vector<Band>& bands, int y);

}  // namespace ls::multi
