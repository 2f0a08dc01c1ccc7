// tile_atlas.hpp — the one shared texture every tile of a frame is drawn into (mapped once per
// frame: the map's cost goes with the textures mapped), how tiles are packed into it, and how a
// tile samples its lattice in the render kernel's terms (cuda_tile_filler.hpp draws into it).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "interop/graphics_resource.hpp"
#include "kernels/life_kernels.hpp"
#include "render/tile_filler.hpp"

namespace ls::interop {

/// Every tile's pixels in one registered texture, each at its own place. The map's cost goes with
/// the textures mapped (64 tile textures: ~2.8 ms per fill on an H200, bench/NOTES.md "The display
/// as one texture").
struct TileAtlas {
  render::GlTexture texture;  // declared first: destroyed after its registration
  GraphicsResource resource;
  Surface surface;
  std::vector<std::pair<int, int>> sizes;   // the tiles' sizes it was packed for
  std::vector<std::pair<int, int>> places;  // each tile's top-left texel

  /// Packs the first `n` tiles, the texture made again when their sizes changed (after waiting for
  /// `writes`, the stream whose work last wrote it); returns whether it was (its pixels are then
  /// new). Every frame: compared in place, no allocation unless the layout changed. Needs the GL
  /// context current; DeviceError when the tiles do not fit in one texture.
  bool fit(render::Tiles tiles, std::size_t n, cudaStream_t writes);
};

/// How `tile` samples its lattice for `placement`, in the render kernel's terms (surface_x/y 0).
kernels::TileView tile_view(const render::Tile& tile, const view::Placement& placement,
                            const render::DisplayOptions& options, const render::Palette& palette);

}  // namespace ls::interop
