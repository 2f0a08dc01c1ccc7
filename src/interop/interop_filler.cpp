// interop_filler.cpp — the fillers' shared half (interop_filler.hpp).
#include "interop/interop_filler.hpp"

#include "render/gl.hpp"

#include <algorithm>

#include "kernels/cuda_check.hpp"
#include "render/host_filler.hpp"

namespace ls::interop {

void InteropFiller::finish_writes() { CUDA_CHECK(cudaStreamSynchronize(render_stream())); }

render::InteropStats InteropFiller::interop_stats() const {
  const Counters c = counters();
  render::InteropStats stats;
  stats.map_wait_ms = c.map_wait.summary();
  stats.map_host_ms = c.totals.map_host_ms;
  stats.unmap_host_ms = c.totals.unmap_host_ms;
  return stats;
}

void InteropFiller::fill(render::Tiles tiles, const std::vector<view::Placement>& placements,
                         const render::DisplayOptions& options, const render::Palette& palette,
                         render::DisplayPath path) {
  if (path == render::DisplayPath::textbook)
    fill_textbook(tiles, placements, options, palette);
  else
    fill_interop(tiles, placements, options, palette, true);
}

render::DisplayCost InteropFiller::measure(render::Tiles tiles,
                                           const std::vector<view::Placement>& placements,
                                           const render::DisplayOptions& options,
                                           const render::Palette& palette, render::DisplayPath path,
                                           double min_seconds, int max_frames) {
  const std::size_t n = std::min({tiles.size(), placements.size(), shown_.size()});
  return measure_fill(
      n, [&] { shown_.finish(); },
      [&] {
        if (path == render::DisplayPath::textbook)
          fill_textbook(tiles, placements, options, palette);
        else
          fill_interop(tiles, placements, options, palette, false);
      },
      [&] {
        // The render stream waited for every render (and remote copy) of the fill.
        CUDA_CHECK(cudaStreamSynchronize(render_stream()));
        glFinish();
      },
      counters().totals, min_seconds, max_frames);
}

void draw_on_instance_stream(sim::CudaEngine& engine, std::size_t local, render::Tile& tile,
                             const kernels::TileView& view, cudaSurfaceObject_t surface,
                             const cuda::Event& mapped, TileEvents events, cudaStream_t render_stream,
                             bool timed) {
  const DeviceLatticeView v = engine.device_view(local);
  CUDA_CHECK(cudaStreamWaitEvent(v.stream, mapped.get(), 0));
  // On timed frames the engine's display start event is the event that hurries the handoff.
  const bool bracketed = timed && engine.begin_display(local);
  if (!bracketed) events.handoff.record(v.stream);
  kernels::launch_render_tile(v.layout, v.cells, v.width, v.height, surface, tile.width, tile.height, view,
                              v.stream);
  if (bracketed) engine.end_display(local);
  events.rendered.record(v.stream);
  tile.drawn = render::Tile::Drawn::device;
  CUDA_CHECK(cudaStreamWaitEvent(render_stream, events.rendered.get(), 0));
}

void InteropFiller::fill_textbook(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                  const render::DisplayOptions& options, const render::Palette& palette) {
  const std::size_t n = std::min({tiles.size(), placements.size(), shown_.size()});
  // Blocking host copies (the textbook path cannot avoid them): the path interop is measured
  // against, never the frame loop's default.
  for (std::size_t i = 0; i < n; ++i)
    render::upload_host_pixels(*tiles[i], shown_.read(i), placements[i], options, palette);
}

}  // namespace ls::interop
