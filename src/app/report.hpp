// report.hpp — the --report JSON: frame-rate figures of the run and each instance's final state.
#pragma once

#include <string>
#include <vector>

#include "app/run_figures.hpp"
#include "core/engine.hpp"

namespace ls::app {

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
