// report.hpp — the --report JSON: frame-rate figures of the run and each instance's final state.
#pragma once

#include <string>
#include <vector>

#include "core/engine.hpp"

namespace ls::app {

/// Figures gathered by the frame loop.
struct RunFigures {
  long long frames = 0;
  double seconds = 0;            // wall time of those frames
  std::vector<double> frame_ms;  // every frame's CPU time
  double gpu_span_ms = 0;        // means over frames with complete timings
  double busy_ms = 0;
  double concurrency = 0;
  double host_syncs_per_frame = 0;
};

/// Writes {"device", "backend", "frames", "fps", "frame_ms": {"p50", "p95", "p99"}, "gpu_span_ms",
/// "busy_ms", "concurrency", "host_syncs_per_frame", "instances": [...]} to `path` (overwrites).
/// Blocks on the engine (finish + summarize). Throws InputError when the file cannot be written.
void write_report(const std::string& path, Engine& engine, const RunFigures& figures);

/// The q-quantile (0..1) of `values` by nearest rank; 0 for none.
double percentile(std::vector<double> values, double q);

}  // namespace ls::app
