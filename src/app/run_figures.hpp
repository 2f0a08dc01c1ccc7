// run_figures.hpp — the figures of a run that --report writes (frame times, the engine's timings,
// host syncs, the display's and the ImGui layer's cost) and FrameFigures, which the frame loop adds
// them to frame by frame and which measures the display paths after the loop.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/kernel_costs.hpp"
#include "core/stats.hpp"
#include "counters/counter.hpp"

namespace ls::render {
class TileRenderer;
struct Palette;
}  // namespace ls::render

namespace ls::app {

class Scene;

/// The display's cost: the path the frame loop used and, measured after the loop in the same run,
/// what filling every tile costs by each path (ms_per_tile < 0: not measured).
struct DisplayFigures {
  std::string path = "interop";  // the frame loop's display path for a CUDA engine
  double update_ms = 0;          // host time of filling the tiles, total over all frames
  double map_wait_ms = -1;       // interop: the render stream's wait in the map call, mean (-1: none)
  double map_host_ms = 0;        // interop: host time in the map and unmap calls, total over all frames
  double unmap_host_ms = 0;
  int tiles = 0;
  double interop_ms_per_tile = -1;
  double textbook_ms_per_tile = -1;
  double interop_ms_per_frame = -1;
  double textbook_ms_per_frame = -1;
  double interop_map_host_ms = -1;  // host time in the map / unmap call per fill while measured
  double interop_unmap_host_ms = -1;
};

/// What the ImGui layer (panel, tile labels) cost the frame loop, host time.
struct UiFigures {
  std::string layer = "cached";  // drawn into a texture when rebuilt, blended over every frame
  long long rebuilds = 0;
  double build_ms = 0;  // NewFrame .. Render, total over the rebuilds
  double draw_ms = 0;   // the GL calls that put the layer on screen, total over all frames
};

/// The report's display path for an engine whose lattices are on the host (the CPU engine): its
/// tiles' pixels are made on the CPU and uploaded with glTextureSubImage2D.
inline constexpr const char* kHostUploadPath = "host-upload";

/// Figures gathered by the frame loop.
struct RunFigures {
  long long frames = 0;
  double seconds = 0;            // wall time of those frames
  std::vector<double> frame_ms;  // every frame's CPU time
  double gpu_span_ms = 0;        // means over frames with complete timings
  /// Cell updates per second: delivered (every generation advanced, over the run's wall time) and
  /// the kernel rate (the sum of the instances' step rates at the end).
  double delivered_cups = 0;
  double kernel_cups = 0;
  double busy_ms = 0;
  double concurrency = 0;
  /// Per GPU (FrameTimings::gpus): means of span, busy and concurrency over the frames that timed it.
  std::map<int, GpuFrameTimings> gpus;
  double host_syncs_per_frame = 0;
  DisplayFigures display;
  UiFigures ui;
  /// The hardware counters: the source's line (the API, or why there are none) and each (GPU,
  /// counter)'s mean over the run; a pair never read is absent.
  std::string counters_source;
  std::map<std::pair<int, counters::Counter>, double> counter_means;
  /// Each instance against its GPUs' roofs at the end (app/roofline_figures.hpp), by instance; an
  /// instance without a point (host memory, its GPU not measured yet) is absent.
  std::map<std::size_t, RooflinePoint> roofline;
};

class FrameFigures {
 public:
  /// The figures so far (the frame steps add their own host times to it).
  RunFigures& run() { return run_; }
  const RunFigures& run() const { return run_; }
  long long frames() const { return run_.frames; }
  /// The recent frames' CPU time, for the panel.
  StatSummary recent_frame_ms() const { return frame_stats_.summary(); }

  /// One frame drawn: its CPU time and the engine's timings for it (valid or not yet).
  void add_frame(double ms, const FrameTimings& timings);
  /// The blocking calls of the frame's engine step.
  void add_host_syncs(std::uint64_t syncs) { syncs_total_ += static_cast<double>(syncs); }

  /// After the loop, for --report: the loop's wall time, the means over frames with timings, and
  /// what filling every tile costs by each display path (the same tiles and state, measured now).
  void finish(double seconds, render::TileRenderer& renderer, const Simulation& engine, const Scene& scene,
              const render::Palette& palette);

 private:
  void measure_display(render::TileRenderer& renderer, const Simulation& engine, const Scene& scene,
                       const render::Palette& palette);

  RunFigures run_;
  RollingStats frame_stats_;
  long long valid_timings_ = 0;
  std::map<int, long long> gpu_frames_;  // frames that timed each GPU
  double syncs_total_ = 0;
};

}  // namespace ls::app
