// host_filler.cpp — the CPU engine's tiles: host pixels uploaded through GL, one tile at a time.
#include "render/host_filler.hpp"

#include <algorithm>
#include <utility>

namespace ls::render {
using view::Placement;

HostTileFiller::HostTileFiller(Engine& engine, LatticeView view) : engine_(engine), view_(std::move(view)) {}

void HostTileFiller::fill(Tiles tiles, const std::vector<Placement>& placements,
                          const DisplayOptions& options, const Palette& palette, DisplayPath) {
  const std::size_t n = std::min({tiles.size(), placements.size(), engine_.size()});
  for (std::size_t i = 0; i < n; ++i) {
    engine_.begin_display(i);
    if (view_) {
      upload_host_pixels(*tiles[i], view_(i), placements[i], options, palette);
    } else {
      upload_host_pixels(*tiles[i], engine_.read(i), placements[i], options, palette);
    }
    engine_.end_display(i);
  }
}

void upload_host_pixels(Tile& tile, const Lattice& lattice, const Placement& placement,
                        const DisplayOptions& options, const Palette& palette) {
  render_tile_host(lattice, tile.width, tile.height,
                   tile_sampling(placement, options, tile.drawn == Tile::Drawn::host), palette, tile.pixels);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTextureSubImage2D(tile.texture.get(), 0, 0, 0, tile.width, tile.height, GL_RGBA, GL_UNSIGNED_BYTE,
                      tile.pixels.data());
  tile.drawn = Tile::Drawn::host;
  tile.source = 0;  // drawn from its own texture again
}

}  // namespace ls::render
