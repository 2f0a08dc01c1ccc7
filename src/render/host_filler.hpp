// host_filler.hpp — the tiles filled from host pixels: each lattice sampled on the CPU
// (render_tile_host) and uploaded with glTextureSubImage2D. The CPU engine's filler, and the
// upload step of the CUDA engine's textbook path.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "core/engine.hpp"
#include "core/lattice.hpp"
#include "render/tile_filler.hpp"

namespace ls::render {

/// Instance `index`'s current cells without a copy, valid until the engine's next mutating call
/// (CpuEngine::lattice is one).
using LatticeView = std::function<const Lattice&(std::size_t index)>;

/// Fills every tile from host pixels, each bracketed with engine.begin_display/end_display.
/// Ignores the display path: the host has one way.
class HostTileFiller final : public TileFiller {
 public:
  /// `view`: where to read an instance's cells without a copy, when the engine has such a view
  /// (the engine factory passes CpuEngine::lattice); empty: each fill copies each lattice through
  /// Engine::read. The engine must outlive the filler.
  explicit HostTileFiller(Engine& engine, LatticeView view = {});

  void fill(Tiles tiles, const std::vector<view::Placement>& placements, const DisplayOptions& options,
            const Palette& palette, DisplayPath path) override;

 private:
  Engine& engine_;
  LatticeView view_;
};

/// Makes `tile`'s pixels from `lattice` on the host (fading from its last host pixels under age
/// shading) and uploads them to its texture.
void upload_host_pixels(Tile& tile, const Lattice& lattice, const view::Placement& placement,
                        const DisplayOptions& options, const Palette& palette);

}  // namespace ls::render
