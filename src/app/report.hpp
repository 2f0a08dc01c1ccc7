// report.hpp — the --report JSON: frame-rate figures of the run and each instance's final state.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/engine.hpp"

namespace ls::app {

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
};

/// Writes {"device", "backend", "frames", "fps", "frame_ms": {"p50", "p95", "p99"}, "span_ms" (the
/// frame's span whatever the engine), "gpu_span_ms", "delivered_cups", "kernel_cups",
/// "busy_ms", "concurrency", "host_syncs_per_frame", "timing_period", "display": {...}, "ui": {...},
/// "gpus": [{"index", "name", "span_ms", "busy_ms", "concurrency", "memory_used_bytes",
/// "memory_free_bytes"}], "instances": [{..., "devices": [..], ...}]} to `path` (overwrites).
/// "gpus" lists the GPUs the engine and its instances use (none for the CPU engine), their memory
/// asked once, now; "devices" the GPU(s) each instance runs on (Engine::instance_devices). display.path is
/// figures.display.path for the CUDA engine and kHostUploadPath for any other. Blocks on the engine (finish +
/// summarize). Throws InputError when the file cannot be written.
void write_report(const std::string& path, Engine& engine, const RunFigures& figures);

/// The q-quantile (0..1) of `values` by nearest rank; 0 for none.
double percentile(std::vector<double> values, double q);

}  // namespace ls::app
