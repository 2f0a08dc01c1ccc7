// pixel_math.hpp — the integer colour arithmetic of a tile's pixels, shared by the CUDA renderer
// (kernels/render_tile.cu) and the CPU one (render/tile_pixels.cpp), so that both draw the same
// bytes. Plain C++; compiled by nvcc the functions are also device functions.
#pragma once

#include <cstdint>

#include "core/host_device.hpp"

namespace ls::pixel {

/// Zoomed far out, a pixel covers many cells; beyond this many per axis it averages a regular
/// sample of them (the shade is the same to the eye, and the cost per pixel stays bounded).
inline constexpr int kMaxSamplesPerAxis = 32;

/// Age shading keeps kAgeKeep / kAgeScale of a dead pixel's distance from the dead colour per
/// frame: live to dead in about 25 frames.
inline constexpr int kAgeKeep = 13;
inline constexpr int kAgeScale = 16;

/// Integer square root, bit by bit.
LS_HOST_DEVICE std::uint32_t isqrt(std::uint32_t v) {
  std::uint32_t r = 0;
  std::uint32_t bit = 1u << 30;
  while (bit > v) bit >>= 2;
  while (bit != 0) {
    if (v >= r + bit) {
      v -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return r;
}

/// Dead and live (0xAABBGGRR) mixed by sqrt(n_live / total): the shade grows with the fraction of
/// live cells, and sparse ash stays visible when zoomed out.
LS_HOST_DEVICE std::uint32_t blend(std::uint32_t dead, std::uint32_t live, int n_live, int total) {
  const std::uint32_t t =
      isqrt((static_cast<std::uint32_t>(n_live) << 16) / static_cast<std::uint32_t>(total));
  std::uint32_t out = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    const std::uint32_t a = (dead >> shift) & 0xffu;
    const std::uint32_t b = (live >> shift) & 0xffu;
    out |= ((a * (256u - t) + b * t + 128u) >> 8) << shift;
  }
  return out;
}

/// `previous` faded towards `dead`, or `colour` if that is farther from dead (distances summed
/// over the channels).
LS_HOST_DEVICE std::uint32_t age_fade(std::uint32_t colour, std::uint32_t previous, std::uint32_t dead) {
  std::uint32_t faded = 0;
  int faded_distance = 0;
  int colour_distance = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    const int d = static_cast<int>((dead >> shift) & 0xffu);
    const int p = static_cast<int>((previous >> shift) & 0xffu);
    const int c = static_cast<int>((colour >> shift) & 0xffu);
    const int f = d + (p - d) * kAgeKeep / kAgeScale;
    faded |= static_cast<std::uint32_t>(f) << shift;
    faded_distance += f > d ? f - d : d - f;
    colour_distance += c > d ? c - d : d - c;
  }
  return faded_distance > colour_distance ? faded : colour;
}

}  // namespace ls::pixel
