// interop_filler.hpp — what the one-GPU and the several-GPU tile fillers share: the choice between
// the interop fill and the textbook path, the textbook path itself (each lattice read to the host,
// its pixels made there and uploaded through GL), the isolated measurement of either
// (fill_measure.hpp) and the interop figures for the report. Each filler brings its interop fill,
// its render stream and its map counters.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "core/engine.hpp"
#include "interop/fill_measure.hpp"
#include "interop/map_wait.hpp"
#include "kernels/life_kernels.hpp"
#include "render/tile_filler.hpp"
#include "render/tiles.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {

class InteropFiller : public render::TileFiller {
 public:
  /// Waits for the render stream: the last fill's kernels, copies and unmap are done.
  void finish_writes() override;
  void fill(render::Tiles tiles, const std::vector<view::Placement>& placements,
            const render::DisplayOptions& options, const render::Palette& palette,
            render::DisplayPath path) override;
  render::DisplayCost measure(render::Tiles tiles, const std::vector<view::Placement>& placements,
                              const render::DisplayOptions& options, const render::Palette& palette,
                              render::DisplayPath path, double min_seconds, int max_frames) override;
  /// The map wait, map and unmap host times.
  render::InteropStats interop_stats() const override;

 protected:
  /// `engine`: whose instances the tiles show (its size, read() for the textbook path, finish()).
  explicit InteropFiller(Engine& engine) : shown_(engine) {}

  /// The interop fill of the first min(tiles, placements, engine) tiles; `timed`: the frame
  /// loop's fill (display brackets on timed frames), not a measurement's.
  virtual void fill_interop(render::Tiles tiles, const std::vector<view::Placement>& placements,
                            const render::DisplayOptions& options, const render::Palette& palette,
                            bool timed) = 0;
  /// The display GPU's render stream, which waits for every render and copy of a fill.
  virtual cudaStream_t render_stream() const = 0;
  /// The filler's map counters (kept on its display side).
  struct Counters {
    const MapWaitTimer& map_wait;
    MapTotals totals;
  };
  virtual Counters counters() const = 0;

 private:
  void fill_textbook(render::Tiles tiles, const std::vector<view::Placement>& placements,
                     const render::DisplayOptions& options, const render::Palette& palette);
  Engine& shown_;
};

/// The events a tile drawn on its instance's stream keeps: `rendered` orders the render stream
/// after its kernel; `handoff` is recorded between the wait for the map and the kernel where no
/// display bracket is (a timing event there hurries the driver's CUDA-GL handoff: bench/NOTES.md,
/// "the event that hurries the CUDA-GL handoff").
struct TileEvents {
  const cuda::Event& rendered;
  const cuda::Event& handoff;
};

/// Draws instance `local` of `engine` into `surface` at the view's place with the render kernel on
/// the instance's own stream, after its step work and once `mapped` (recorded on the render stream
/// after the map) has passed; bracketed by the engine's display events on timed frames (`timed`);
/// then makes `render_stream` wait for it. The tile counts as drawn on the device.
void draw_on_instance_stream(sim::CudaEngine& engine, std::size_t local, render::Tile& tile,
                             const kernels::TileView& view, cudaSurfaceObject_t surface,
                             const cuda::Event& mapped, TileEvents events, cudaStream_t render_stream,
                             bool timed);

}  // namespace ls::interop
