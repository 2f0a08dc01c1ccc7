// cuda_tile_filler.hpp — the CUDA engine's TileFiller: CUDA–GL interop (each tile texture
// registered once, all mapped in one call per frame, a render kernel per tile on its instance's
// stream), the textbook path it is measured against, and that measurement.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "interop/interop_filler.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::interop {

class CudaTileFiller final : public InteropFiller {
 public:
  /// Fills the tiles from `engine`, which must outlive the filler. Touches no GL until tiles are
  /// made (attach), so it may be made before the GL context; that context must then share the
  /// engine's device (HeadlessContext(engine.device())).
  explicit CudaTileFiller(sim::CudaEngine& engine);
  ~CudaTileFiller() override;

  /// Registers the new tile's texture with CUDA (its graphics resource, owned by the tile).
  std::unique_ptr<render::TileAttachment> attach(const render::Tile& tile) override;

 protected:
  /// All tiles mapped in one call on the render stream, one render kernel per tile on its
  /// instance's stream (bracketed with begin_display/end_display on timed frames), one unmap.
  void fill_interop(render::Tiles tiles, const std::vector<view::Placement>& placements,
                    const render::DisplayOptions& options, const render::Palette& palette,
                    bool timed) override;
  cudaStream_t render_stream() const override;
  Counters counters() const override;

 private:
  struct State;
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

  sim::CudaEngine& engine_;
  std::unique_ptr<State> state_;
};

}  // namespace ls::interop
