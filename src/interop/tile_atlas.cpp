// tile_atlas.cpp — implements tile_atlas.hpp.
#include "interop/tile_atlas.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include "core/error.hpp"

namespace ls::interop {
namespace {

/// Places for tiles of these sizes in one texture: left to right on shelves `row_width` wide
/// (wider where a tile is), each shelf as tall as its tallest tile. Returns the texture's size.
std::pair<int, int> pack(const std::vector<std::pair<int, int>>& sizes, int row_width,
                         std::vector<std::pair<int, int>>& places) {
  places.clear();
  int x = 0, y = 0, shelf = 0, width = 1;
  for (const auto& [w, h] : sizes) {
    if (x > 0 && x + w > row_width) {
      x = 0;
      y += shelf;
      shelf = 0;
    }
    places.emplace_back(x, y);
    x += w;
    width = std::max(width, x);
    shelf = std::max(shelf, h);
  }
  return {width, std::max(1, y + shelf)};
}

}  // namespace

bool TileAtlas::fit(render::Tiles tiles, std::size_t n, cudaStream_t writes) {
  bool same = resource && sizes.size() == n;
  for (std::size_t i = 0; same && i < n; ++i)
    same = sizes[i] == std::pair<int, int>(tiles[i]->width, tiles[i]->height);
  if (same) return false;
  std::vector<std::pair<int, int>> new_sizes;
  for (std::size_t i = 0; i < n; ++i) new_sizes.emplace_back(tiles[i]->width, tiles[i]->height);
  // Only when the layout changes: the last fill's kernels (the unmap waited for them) must be done
  // before their texture goes.
  CUDA_CHECK(cudaStreamSynchronize(writes));
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  std::vector<std::pair<int, int>> new_places;
  auto [w, h] = pack(new_sizes, std::min(4096, static_cast<int>(max_size)), new_places);
  if (h > max_size) std::tie(w, h) = pack(new_sizes, max_size, new_places);
  if (w > max_size || h > max_size)
    throw DeviceError("the tiles (" + std::to_string(n) + ") do not fit in one " + std::to_string(max_size) +
                      "-pixel texture");
  surface = Surface{};
  resource = GraphicsResource{};
  texture = render::make_rgba8_texture(w, h);
  resource = GraphicsResource(texture.get());
  sizes = std::move(new_sizes);
  places = std::move(new_places);
  return true;
}

kernels::TileView tile_view(const render::Tile& tile, const view::Placement& placement,
                            const render::DisplayOptions& options, const render::Palette& palette) {
  const render::Sampling smp =
      render::tile_sampling(placement, options, tile.drawn == render::Tile::Drawn::device);
  kernels::TileView tv;
  tv.origin_x = smp.origin_x;
  tv.origin_y = smp.origin_y;
  tv.cells_per_pixel = smp.cells_per_pixel;
  tv.grid_lines = smp.grid_lines;
  tv.age_shading = smp.age_shading;
  tv.live_rgba = palette.live;
  tv.dead_rgba = palette.dead;
  tv.grid_rgba = palette.grid;
  return tv;
}

}  // namespace ls::interop
