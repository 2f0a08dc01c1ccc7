// run_figures.cpp — implements run_figures.hpp.
#include "app/run_figures.hpp"

#include <vector>

#include "control/scene.hpp"
#include "render/tiles.hpp"

namespace ls::app {

void FrameFigures::add_frame(double ms, const FrameTimings& t) {
  frame_stats_.add(ms);
  run_.frame_ms.push_back(ms);
  ++run_.frames;
  if (t.valid) {
    ++valid_timings_;
    run_.gpu_span_ms += t.gpu_span_ms;
    run_.busy_ms += t.busy_ms;
    run_.concurrency += t.concurrency;
    for (const GpuFrameTimings& g : t.gpus) {
      GpuFrameTimings& sum = run_.gpus[g.device];
      sum.device = g.device;
      sum.span_ms += g.span_ms;
      sum.busy_ms += g.busy_ms;
      sum.concurrency += g.concurrency;
      ++gpu_frames_[g.device];
    }
  }
}

void FrameFigures::finish(double seconds, render::TileRenderer& renderer, const Simulation& engine,
                          const Scene& scene, const render::Palette& palette) {
  run_.seconds = seconds;
  if (valid_timings_ > 0) {
    run_.gpu_span_ms /= static_cast<double>(valid_timings_);
    run_.busy_ms /= static_cast<double>(valid_timings_);
    run_.concurrency /= static_cast<double>(valid_timings_);
  }
  for (auto& [device, g] : run_.gpus) {
    const double n = static_cast<double>(gpu_frames_[device]);
    g.span_ms /= n;
    g.busy_ms /= n;
    g.concurrency /= n;
  }
  run_.host_syncs_per_frame = run_.frames > 0 ? syncs_total_ / static_cast<double>(run_.frames) : 0;
  measure_display(renderer, engine, scene, palette);
}

void FrameFigures::measure_display(render::TileRenderer& renderer, const Simulation& engine,
                                   const Scene& scene, const render::Palette& palette) {
  const render::DisplayOptions display_options{scene.grid(), scene.age()};
  const StatSummary wait = renderer.map_wait_ms();
  if (wait.samples > 0) run_.display.map_wait_ms = wait.mean;
  run_.display.map_host_ms = renderer.map_host_ms();
  run_.display.unmap_host_ms = renderer.unmap_host_ms();
  if (engine.backend() != "cuda") return;
  const std::vector<view::Placement> placements = scene.placements();
  // Both paths in this run, on the same tiles and state. The textbook path copies every lattice
  // to the host per fill: past 2^31 cells in all it would take seconds, so it is left out then.
  long long cells = 0;
  for (std::size_t i = 0; i < engine.size(); ++i)
    cells += static_cast<long long>(scene.lattice_width(i)) * scene.lattice_height(i);
  const render::DisplayCost interop =
      renderer.measure(placements, display_options, palette, render::DisplayPath::interop, 0.25, 1000);
  run_.display.tiles = interop.tiles;
  if (interop.frames > 0) {
    run_.display.interop_ms_per_tile = interop.ms_per_tile;
    run_.display.interop_ms_per_frame = interop.ms_per_frame;
    run_.display.interop_map_host_ms = interop.map_host_ms;
    run_.display.interop_unmap_host_ms = interop.unmap_host_ms;
  }
  if (cells <= (1LL << 31)) {
    const render::DisplayCost textbook =
        renderer.measure(placements, display_options, palette, render::DisplayPath::textbook, 0.25, 100);
    if (textbook.frames > 0) {
      run_.display.textbook_ms_per_tile = textbook.ms_per_tile;
      run_.display.textbook_ms_per_frame = textbook.ms_per_frame;
    }
  }
}

}  // namespace ls::app
