// splitmix.hpp — the state-hash and random-fill formulas, shared by the CPU and CUDA code.
//
// These are contracts (scripts and tests compare hashes across backends):
//   hash   = splitmix64((W << 32) | H) + sum over live (x, y) of splitmix64((y << 32) | x)  (mod 2^64)
//   random = cell (x, y) is live iff splitmix64(seed ^ splitmix64((y << 32) | x)) < p * 2^64
// Header-only and usable from device code (LS_HOST_DEVICE is __host__ __device__ under nvcc).
#pragma once

#include <cstdint>

#include "core/host_device.hpp"

namespace ls {

LS_HOST_DEVICE constexpr std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// The term a live cell adds to the state hash.
LS_HOST_DEVICE constexpr std::uint64_t cell_hash(std::uint32_t x, std::uint32_t y) {
  return splitmix64((static_cast<std::uint64_t>(y) << 32) | x);
}

/// The hash of an empty W x H lattice (the base every live cell adds to).
LS_HOST_DEVICE constexpr std::uint64_t lattice_hash_base(std::uint32_t w, std::uint32_t h) {
  return splitmix64((static_cast<std::uint64_t>(w) << 32) | h);
}

/// Random fill threshold: a cell is live iff value < threshold, or always when `all` is set
/// (p >= 1 needs 2^64, which a uint64 cannot hold).
struct FillThreshold {
  std::uint64_t threshold = 0;
  bool all = false;
};

inline FillThreshold fill_threshold(double p) {
  if (!(p > 0.0)) return {0, false};
  if (p >= 1.0) return {0, true};
  // p * 2^64, exact for the doubles in [0, 1) after scaling by a power of two.
  return {static_cast<std::uint64_t>(p * 18446744073709551616.0), false};
}

LS_HOST_DEVICE constexpr bool random_cell_live(std::uint64_t seed, std::uint32_t x, std::uint32_t y,
                                               std::uint64_t threshold, bool all) {
  return all || splitmix64(seed ^ cell_hash(x, y)) < threshold;
}

}  // namespace ls
