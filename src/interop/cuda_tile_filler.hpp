// cuda_tile_filler.hpp — the CUDA engine's TileFiller: CUDA–GL interop (each tile texture
// registered once, all mapped in one call per frame, a render kernel per tile on its instance's
// stream), the textbook path it is measured against, and that measurement.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "render/tile_filler.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::interop {

class CudaTileFiller final : public render::TileFiller {
 public:
  /// Fills the tiles from `engine`, which must outlive the filler. Touches no GL until tiles are
  /// made (attach), so it may be made before the GL context; that context must then share the
  /// engine's device (HeadlessContext(engine.device())).
  explicit CudaTileFiller(CudaEngine& engine);
  ~CudaTileFiller() override;

  /// Registers the new tile's texture with CUDA (its graphics resource, owned by the tile).
  std::unique_ptr<render::TileAttachment> attach(const render::Tile& tile) override;
  /// Waits for the render stream: the last fill's kernels and unmap are done.
  void finish_writes() override;
  /// interop: all tiles mapped in one call on the render stream, one render kernel per tile on
  /// its instance's stream (bracketed with begin_display/end_display on timed frames), one unmap.
  /// textbook: each lattice read to the host, its pixels made there and uploaded.
  void fill(render::Tiles tiles, const std::vector<view::Placement>& placements,
            const render::DisplayOptions& options, const render::Palette& palette,
            render::DisplayPath path) override;
  render::DisplayCost measure(render::Tiles tiles, const std::vector<view::Placement>& placements,
                              const render::DisplayOptions& options, const render::Palette& palette,
                              render::DisplayPath path, double min_seconds, int max_frames) override;
  render::InteropStats interop_stats() const override;

 private:
  struct State;
  void fill_interop(render::Tiles tiles, const std::vector<view::Placement>& placements,
                    const render::DisplayOptions& options, const render::Palette& palette, bool timed);
  /// The interop fill's render kernels: on the instances' streams (per-instance and shared modes),
  /// or as one display graph on the engine's frame stream (stream mode graph).
  void fill_streams(render::Tiles tiles, const std::vector<view::Placement>& placements,
                    const render::DisplayOptions& options, const render::Palette& palette, bool timed,
                    std::size_t n);
  void fill_graph(render::Tiles tiles, const std::vector<view::Placement>& placements,
                  const render::DisplayOptions& options, const render::Palette& palette, bool timed,
                  std::size_t n);
  /// Packs the first `n` tiles into the shared texture, made again when their sizes changed;
  /// returns whether it was (its pixels are then new).
  bool pack_atlas(render::Tiles tiles, std::size_t n);
  void fill_textbook(render::Tiles tiles, const std::vector<view::Placement>& placements,
                     const render::DisplayOptions& options, const render::Palette& palette);

  CudaEngine& engine_;
  std::unique_ptr<State> state_;
};

}  // namespace ls::interop
