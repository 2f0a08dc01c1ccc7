// bench_one_gpu.cpp — the one-GPU rows of `lifestreams bench` (bench_one_gpu.hpp): each row's
// frames timed with CUDA events from a mark recorded while the device is idle to the last stream's
// end; the roof by a large device-to-device copy.
#include "bench/bench_one_gpu.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bench/bench_measure.hpp"
#include "bench/bench_report.hpp"
#include "bench/device_work.hpp"
#include "bench/gpu_versions.hpp"
#include "control/json_text.hpp"
#include "core/error.hpp"
#include "core/trace.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"
#include "sim/gpu_limits.hpp"

namespace ls::bench {

namespace {

struct Row {
  Config config;
  double cups = 0;
  Repeats timed;  // ms: one frame on the device; host_ms: the host's step() per frame
  std::optional<double> speedup;
  double roof_fraction = 0;
  double issue_roof_fraction = 0;  // the rate over the issue roof (core/kernel_costs.hpp)
};

/// Rows compared with one another: same lattice, instance count, stream mode and timing period.
auto group_of(const Config& c) {
  return std::tuple(c.width, c.height, c.instances, static_cast<int>(c.mode), c.timing_period);
}

std::vector<Config> default_sweep() {
  std::vector<Config> configs;
  const auto row = [](Variant v, int w, int n, StreamMode m, int k, int t) {
    return Config{Layout::single, v, w, w, n, m, k, t};
  };
  for (const int n : {1024, 4096, 16384})
    for (Variant v : kAllVariants)
      add_unique(configs, row(v, n, 1, StreamMode::per_instance, depth(v, kDefaultK), 1));
  add_unique(configs, row(Variant::naive, 65536, 1, StreamMode::per_instance, 1, 1));
  add_unique(configs, row(Variant::bitpacked, 65536, 1, StreamMode::per_instance, kDefaultK, 1));
  for (const int t : {1, 8})
    for (StreamMode m : kAllStreamModes)  // one run shows what each mode buys at 64 x 1024²
      for (Variant v : kAllVariants)
        for (const int k : {1, kDefaultK})
          if (k == 1 || variant_iterates(v)) add_unique(configs, row(v, 1024, 64, m, k, t));
  for (Variant v : {Variant::iterate, Variant::bitpacked})
    for (const int k : {1, 2, 4, 8, 16, 32, 64})
      add_unique(configs, row(v, 16384, 1, StreamMode::per_instance, k, 1));
  return configs;
}

std::vector<Config> sweep_of(const Sweep& s) {
  if (s.defaults()) return default_sweep();
  std::vector<Config> configs;
  const auto variants = s.variants.value_or(std::vector<Variant>(kAllVariants.begin(), kAllVariants.end()));
  const auto sizes =
      s.sizes.value_or(std::vector<std::pair<int, int>>{{1024, 1024}, {4096, 4096}, {16384, 16384}});
  for (const int t : s.timing_periods.value_or(std::vector<int>{1}))
    for (const auto& [w, h] : sizes)
      for (const int n : s.instances.value_or(std::vector<int>{1}))
        for (StreamMode m : s.modes.value_or(std::vector<StreamMode>{StreamMode::per_instance})) {
          // The baseline of every group: naive at the same size, instances, stream mode and timing.
          add_unique(configs, {Layout::single, Variant::naive, w, h, n, m, 1, t});
          for (Variant v : variants)
            for (const int k : s.ks.value_or(std::vector<int>{kDefaultK}))
              add_unique(configs, {Layout::single, v, w, h, n, m, depth(v, k), t});
        }
  return configs;
}

/// Times frames of one engine with events: from a mark recorded while the device is idle to the
/// last instance stream's end (ms), and the host's time in step().
class EventClock {
 public:
  explicit EventClock(sim::CudaEngine& engine) : engine_(engine) {}

  Timed operator()(int frames, int generations_per_frame) {
    engine_.finish();
    start_.record(mark_stream_.get());
    const auto t0 = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f) engine_.step(generations_per_frame);
    const double host_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::vector<cudaStream_t> streams;
    for (std::size_t i = 0; i < engine_.size(); ++i) {
      const cudaStream_t s = engine_.device_view(i).stream;
      if (std::find(streams.begin(), streams.end(), s) == streams.end()) streams.push_back(s);
    }
    while (ends_.size() < streams.size()) ends_.emplace_back(cuda::Event::Create{});
    for (std::size_t i = 0; i < streams.size(); ++i) ends_[i].record(streams[i]);
    double longest = 0;
    for (std::size_t i = 0; i < streams.size(); ++i) {
      CUDA_CHECK(cudaEventSynchronize(ends_[i].get()));
      float t = 0;
      CUDA_CHECK(cudaEventElapsedTime(&t, start_.get(), ends_[i].get()));
      longest = std::max(longest, static_cast<double>(t));
    }
    return {longest, host_ms};
  }

 private:
  sim::CudaEngine& engine_;
  cuda::Stream mark_stream_{cuda::Stream::Create{}};
  cuda::Event start_{cuda::Event::Create{}};
  std::vector<cuda::Event> ends_;
};

Row measure(const Config& c, const Rule& rule, int device) {
  sim::CudaEngine engine(device);
  engine.set_stream_mode(c.mode);
  engine.set_timing_period(c.timing_period);
  for (int i = 0; i < c.instances; ++i) engine.add(spec_of(c, rule, i));
  EventClock clock(engine);
  Row row;
  row.config = c;
  row.timed =
      measure_repeats([&](int frames) { return clock(frames, c.k); });  // one launch per instance per frame
  row.cups = c.cells_per_frame() / (row.timed.ms * 1e-3);
  return row;
}

void print_header(const std::string& device, const std::string& driver, const std::string& cuda,
                  const Rule& rule, const GpuLimits& limits) {
  std::printf("lifestreams bench: %s, driver %s, CUDA %s, rule %s\n", device.c_str(), driver.c_str(),
              cuda.c_str(), rule.to_string().c_str());
  if (limits.copy_gbps > 0)
    std::printf("memory roof: %.0f GB/s (device-to-device copy, bytes read + written)\n", limits.copy_gbps);
  else
    std::printf("memory roof: not measured (no room for two 64 MiB buffers); roof fractions are 0\n");
  std::printf(
      "issue roof: %.3e ALU instructions/s (%d SMs x %d lanes x %.0f MHz); issue roof fraction: the\n"
      "  rate x the kernel's ALU instructions per cell and generation (docs/bench.md) over it\n",
      limits.alu_ops_per_s(), limits.sms, kAluLanesPerSm, limits.sm_clock_hz / 1e6);
  std::printf(
      "roof fraction: one generation's compulsory traffic (each cell read and written once: 8 B naive, 2 B\n"
      "  global/shared/iterate, 0.25 B bitpacked) at the measured rate, over the roof; above 1 needs "
      "several\n"
      "  generations per launch. A frame is one launch of k generations on every instance; cell updates/s\n"
      "  is the median over %d repeats (after a warm-up) timed with CUDA events. vs naive: same lattice,\n"
      "  instances, stream mode and timing. timed: the engine's per-instance timing events go around one\n"
      "  frame in N (1/1: every frame, as in the app by default).\n\n",
      kRepeats);
  std::fflush(stdout);
}

/// host ms: the host's enqueue time per frame (step()); at or above the device's ms per frame the
/// row is host-bound.
std::vector<std::string> cells_of(const Row& r) {
  const Config& c = r.config;
  return {std::string(variant_name(c.variant)),
          c.lattice(),
          std::to_string(c.instances),
          std::string(stream_mode_name(c.mode)),
          std::to_string(c.k),
          formatted("%.3e", r.cups),
          r.speedup ? app::json_number(std::round(*r.speedup * 10) / 10) + "x" : "-",
          formatted("%.3f", r.roof_fraction),
          formatted("%.3f", r.issue_roof_fraction),
          "1/" + std::to_string(c.timing_period),
          formatted("%.4f", r.timed.host_ms)};
}

JsonObject json_row(const Row& r, const Rule& rule, int device) {
  const Config& c = r.config;
  JsonObject o;
  o.text("variant", variant_name(c.variant)).whole("width", c.width).whole("height", c.height);
  o.whole("instances", c.instances).text("stream_mode", stream_mode_name(c.mode));
  o.whole("generations_per_launch", c.k).whole("timing_period", c.timing_period);
  o.text("rule", rule.to_string()).wholes("devices", {device});
  o.number("cups", r.cups).number("speedup_vs_naive", r.speedup).number("roof_fraction", r.roof_fraction);
  o.number("issue_roof_fraction", r.issue_roof_fraction);
  o.whole("repeats", kRepeats).number("median_ms", r.timed.ms).number("host_ms", r.timed.host_ms);
  o.number("host_enqueue_ms", r.timed.host_ms).whole("frames_per_repeat", r.timed.frames);
  return o;
}

}  // namespace

int run_one_gpu_bench(const Sweep& sweep, int device) {
  CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const std::string name = prop.name, driver = driver_version(), cuda = cuda_runtime_version();
  const GpuLimits limits = sim::measure_gpu_limits(device);
  const double roof = limits.copy_gbps;
  print_header(name, driver, cuda, sweep.rule, limits);

  std::vector<Row> rows;
  std::vector<std::string> skipped;
  std::map<decltype(group_of(Config{})), double> naive_cups;
  const std::vector<Config> configs = sweep_of(sweep);
  if (std::any_of(configs.begin(), configs.end(),
                  [](const Config& c) { return c.variant == Variant::bitpacked; }))
    wait_for_rule_kernels(sweep.rule, {device});
  for (const Config& c : configs) {
    const std::string variant(variant_name(c.variant)), mode(stream_mode_name(c.mode));
    std::fprintf(stderr, "bench: %s %dx%d x%d %s k=%d timed 1/%d ...\n", variant.c_str(), c.width, c.height,
                 c.instances, mode.c_str(), c.k, c.timing_period);
    try {
      const trace::Scope row_range("bench " + variant + " " + c.lattice() + " x" +
                                   std::to_string(c.instances) + " " + mode + " k=" + std::to_string(c.k));
      Row row = measure(c, sweep.rule, device);
      if (roof > 0)
        row.roof_fraction = row.cups * kernel_cost(c.variant).bytes_per_cell_per_launch / (roof * 1e9);
      row.issue_roof_fraction =
          row.cups / roofline_point(c.variant, sweep.rule, c.k, row.cups, limits).issue_roof;
      if (c.variant == Variant::naive) naive_cups[group_of(c)] = row.cups;
      std::fprintf(stderr,
                   "bench:   %.4f ms per frame on the device, %.4f ms of host time in step(), %d frames\n",
                   row.timed.ms, row.timed.host_ms, row.timed.frames);
      rows.push_back(row);
    } catch (const InputError& e) {
      skipped.push_back(variant + " " + c.lattice() + " x" + std::to_string(c.instances) + ": " + e.what());
    }
  }
  for (Row& r : rows)
    if (const auto it = naive_cups.find(group_of(r.config)); it != naive_cups.end())
      r.speedup = r.cups / it->second;

  print_table(columns_of("%-10s %-13s %9s  %-12s %3s %15s %9s %14s %14s %7s %9s",
                         {"variant", "lattice", "instances", "stream mode", "k", "cell updates/s", "vs naive",
                          "roof fraction", "issue fraction", "timed", "host ms"}),
              rows, cells_of);
  for (const auto& s : skipped) std::printf("skipped (does not fit): %s\n", s.c_str());
  if (!sweep.json_path.empty()) {
    JsonObject top;
    top.text("device", name).text("driver", driver).text("cuda", cuda).number("roof_gbps", roof);
    std::vector<JsonObject> json_rows;
    for (const Row& r : rows) json_rows.push_back(json_row(r, sweep.rule, device));
    write_json(sweep.json_path, top, json_rows);
  }
  return 0;
}

}  // namespace ls::bench
