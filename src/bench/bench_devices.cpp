// bench_devices.cpp — the several-GPU rows of `lifestreams bench --devices LIST` (bench_devices.hpp):
// the sweep's split and spread rows, each run first on the first listed GPU alone and then on all,
// both stepping the same generations; the table and JSON.
#include "bench/bench_devices.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "bench/bench_measure.hpp"
#include "bench/bench_report.hpp"
#include "bench/device_work.hpp"
#include "bench/gpu_versions.hpp"
#include "control/json_text.hpp"
#include "core/error.hpp"
#include "kernels/cuda_check.hpp"

namespace ls::bench {

namespace {

constexpr int kDefaultSpreadPerGpu = 64;  // the app's instance limit per GPU

struct Row {
  Config config;
  std::vector<int> devices;
  double cups = 0;
  Repeats timed;                       // ms: one frame on every GPU; host_ms: enqueueing one frame
  std::optional<double> one_gpu_cups;  // the same work on devices.front() alone
  std::optional<bool> same_hashes;     // every instance's final hash equals the one-GPU run's
  std::string one_gpu_missing;         // why there is no one-GPU figure
};

std::string_view layout_name(Layout l) {
  switch (l) {
    case Layout::split:
      return "split";
    case Layout::spread:
      return "spread";
    default:
      return "spread-1t";
  }
}

std::vector<Config> default_sweep(int gpus) {
  std::vector<Config> out;
  for (Variant v : kAllVariants)
    add_unique(out, {Layout::split, v, 16384, 16384, 1, StreamMode::per_instance, depth(v, kDefaultK), 1});
  for (const int n : {65536, 131072})
    add_unique(out, {Layout::split, Variant::bitpacked, n, n, 1, StreamMode::per_instance, kDefaultK, 1});
  for (StreamMode m : {StreamMode::per_instance, StreamMode::graph})
    for (const int k : {1, kDefaultK})
      for (Layout l : {Layout::spread, Layout::spread_one_thread})
        add_unique(out, {l, Variant::bitpacked, 1024, 1024, kDefaultSpreadPerGpu * gpus, m, k, 1});
  return out;
}

/// --instances 1: split rows (a band has its own stream); more: spread rows, by a thread per GPU
/// and by the calling thread alone.
std::vector<Config> sweep_of(const Sweep& s, int gpus) {
  if (s.defaults()) return default_sweep(gpus);
  std::vector<Config> out;
  const auto variants = s.variants.value_or(std::vector<Variant>{Variant::bitpacked});
  const auto modes = s.modes.value_or(std::vector<StreamMode>{StreamMode::per_instance});
  const auto ks = s.ks.value_or(std::vector<int>{kDefaultK});
  const auto periods = s.timing_periods.value_or(std::vector<int>{1});
  for (const int n : s.instances.value_or(std::vector<int>{1})) {
    const bool split = n == 1;
    const auto sizes =
        s.sizes.value_or(split ? std::vector<std::pair<int, int>>{{16384, 16384}, {65536, 65536}}
                               : std::vector<std::pair<int, int>>{{1024, 1024}});
    for (const auto& [w, h] : sizes)
      for (Variant v : variants)
        for (const int k : ks) {
          if (split) {
            for (const int t : periods)
              add_unique(out, {Layout::split, v, w, h, 1, StreamMode::per_instance, depth(v, k), t});
            continue;
          }
          for (StreamMode m : modes)
            for (const int t : periods)
              for (Layout l : {Layout::spread, Layout::spread_one_thread})
                add_unique(out, {l, v, w, h, n, m, depth(v, k), t});
        }
  }
  return out;
}

/// A warm-up, then the repeats (frames 0: sized to about target_ms), then every instance's hash.
Repeats measure(DeviceWork& work, int k, int frames, double target_ms, std::vector<std::uint64_t>& hashes) {
  const Repeats r = measure_repeats([&](int n) { return time_on_host_clock(work, n, k); }, target_ms, frames);
  hashes = work.hashes();
  return r;
}

Row measure_row(const Config& c, const Rule& rule, const std::vector<int>& devices,
                const multi::SplitTuning& split) {
  Row row;
  row.config = c;
  row.devices = devices;
  // The one-GPU run first, released before the multi-GPU run allocates: a lattice too large for
  // one GPU has no one-GPU figure, and the others' runs never share memory. Its repeats are sized
  // so that the multi-GPU run's, stepping as many generations, still take about kSeveralGpusRepeatMs.
  std::optional<Repeats> one;
  std::vector<std::uint64_t> one_hashes, hashes;
  try {
    auto work = make_device_work(c, rule, {devices.front()}, split);
    one = measure(*work, c.k, 0, kSeveralGpusRepeatMs * static_cast<double>(devices.size()), one_hashes);
    row.one_gpu_cups = c.cells_per_frame() / (one->ms * 1e-3);
  } catch (const InputError& e) {
    row.one_gpu_missing = e.what();
  }
  auto work = make_device_work(c, rule, devices, split);
  row.timed = measure(*work, c.k, one ? one->frames : 0, kSeveralGpusRepeatMs, hashes);
  row.cups = c.cells_per_frame() / (row.timed.ms * 1e-3);
  if (one) row.same_hashes = one_hashes == hashes;
  return row;
}

std::string device_list(const std::vector<int>& devices) {
  std::string out;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(devices[i]);
  }
  return out;
}

std::string mode_of(const Config& c) {
  return c.layout == Layout::split ? "per-band" : std::string(stream_mode_name(c.mode));
}

void print_header(const std::vector<int>& devices, const std::vector<std::string>& names, const Rule& rule) {
  std::string listed;
  for (std::size_t i = 0; i < devices.size(); ++i)
    listed += (i ? ", " : "") + std::to_string(devices[i]) + " " + names[i];
  std::printf("lifestreams bench: devices %s; driver %s, CUDA %s, rule %s\n", listed.c_str(),
              driver_version().c_str(), cuda_runtime_version().c_str(), rule.to_string().c_str());
  std::printf(
      "split: one lattice cut into horizontal bands, one per GPU, a host thread per GPU; halo rows\n"
      "  swapped by NCCL (peer copies where it is missing) every few launches, halos that deep, where\n"
      "  a band's launch is short, else by peer copies after every launch, edges first\n"
      "  (docs/multi-gpu.md). spread: the instances dealt round-robin over the GPUs, one\n"
      "  CUDA engine per GPU (the app's MultiEngine), each frame handed to every GPU's own host thread\n"
      "  where the host measures that faster than enqueueing it alone, as the app does; spread-1t: the\n"
      "  same, every GPU's part always enqueued by the one calling thread. 1 GPU: the\n"
      "  same work on GPU %d alone (one CUDA engine stepped by the calling thread, as the one-GPU app),\n"
      "  measured in the same run; vs 1 GPU: the ratio of the cell update rates; same hash: every\n"
      "  instance's final state hash equals the 1-GPU run's (both step the same generations). A frame is\n"
      "  one launch of k generations on every instance; events of different GPUs cannot be compared, so\n"
      "  each repeat is timed by the host clock from every GPU idle to the end of a final synchronization\n"
      "  of each; the median of %d repeats after a warm-up. host ms: the enqueue time per frame.\n\n",
      devices.front(), kRepeats);
  std::fflush(stdout);
}

std::vector<std::string> cells_of(const Row& r) {
  const Config& c = r.config;
  // The stream mode cell: the mode, and "1/N" when one frame in N is timed.
  const std::string mode = mode_of(c) + (c.timing_period > 1 ? " 1/" + std::to_string(c.timing_period) : "");
  const double ratio = r.one_gpu_cups ? r.cups / *r.one_gpu_cups : 0;
  return {std::string(layout_name(c.layout)),
          std::string(variant_name(c.variant)),
          c.lattice(),
          std::to_string(c.instances),
          device_list(r.devices),
          mode,
          std::to_string(c.k),
          formatted("%.3e", r.cups),
          r.one_gpu_cups ? formatted("%.3e", *r.one_gpu_cups) : "-",
          r.one_gpu_cups ? app::json_number(std::round(ratio * 100) / 100) + "x" : "-",
          r.same_hashes ? (*r.same_hashes ? "yes" : "NO") : "-",
          formatted("%.4f", r.timed.host_ms)};
}

void print_rows(const std::vector<Row>& rows) {
  print_table(columns_of("%-9s %-10s %-13s %9s %-8s %-12s %3s %15s %15s %8s %9s %9s",
                         {"layout", "variant", "lattice", "instances", "devices", "stream mode", "k",
                          "cell updates/s", "1 GPU", "vs 1 GPU", "same hash", "host ms"}),
              rows, cells_of);
  for (const Row& r : rows)
    if (!r.one_gpu_missing.empty())
      std::printf("no 1-GPU figure for %s %s: %s\n", std::string(variant_name(r.config.variant)).c_str(),
                  r.config.lattice().c_str(), r.one_gpu_missing.c_str());
}

JsonObject json_row(const Row& r, const Rule& rule) {
  const Config& c = r.config;
  JsonObject o;
  o.text("layout", layout_name(c.layout)).text("variant", variant_name(c.variant));
  o.whole("width", c.width).whole("height", c.height).whole("instances", c.instances);
  o.text("stream_mode", mode_of(c))
      .whole("generations_per_launch", c.k)
      .whole("timing_period", c.timing_period);
  o.text("rule", rule.to_string()).wholes("devices", r.devices).number("cups", r.cups);
  o.number("one_gpu_cups", r.one_gpu_cups);
  o.number("speedup_vs_one_gpu",
           r.one_gpu_cups ? std::optional<double>(r.cups / *r.one_gpu_cups) : std::nullopt);
  o.boolean("same_hash_as_one_gpu", r.same_hashes).whole("repeats", kRepeats);
  o.number("median_ms", r.timed.ms)
      .number("host_ms", r.timed.host_ms)
      .whole("frames_per_repeat", r.timed.frames);
  return o;
}

void write_rows_json(const std::string& path, const std::vector<int>& devices,
                     const std::vector<std::string>& names, const Rule& rule, const std::vector<Row>& rows) {
  std::string listed = "[";
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (i > 0) listed += ", ";
    listed += JsonObject().whole("index", devices[i]).text("name", names[i]).str();
  }
  JsonObject top;
  top.raw("devices", listed + "]").text("driver", driver_version()).text("cuda", cuda_runtime_version());
  std::vector<JsonObject> json_rows;
  for (const Row& r : rows) json_rows.push_back(json_row(r, rule));
  write_json(path, top, json_rows);
}

}  // namespace

int run_devices_bench(const Sweep& sweep, const std::vector<int>& devices, const multi::SplitTuning& split) {
  std::vector<std::string> names;
  for (const int d : devices) {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
    names.emplace_back(prop.name);
  }
  print_header(devices, names, sweep.rule);
  std::vector<Row> rows;
  std::vector<std::string> skipped;
  const std::vector<Config> configs = sweep_of(sweep, static_cast<int>(devices.size()));
  if (std::any_of(configs.begin(), configs.end(),
                  [](const Config& c) { return c.variant == Variant::bitpacked; }))
    wait_for_rule_kernels(sweep.rule, devices);
  for (const Config& c : configs) {
    const std::string what = std::string(layout_name(c.layout)) + " " + std::string(variant_name(c.variant)) +
                             " " + c.lattice() + " x" + std::to_string(c.instances) + " " + mode_of(c) +
                             " k=" + std::to_string(c.k);
    std::fprintf(stderr, "bench: %s on %s ...\n", what.c_str(), device_list(devices).c_str());
    try {
      Row row = measure_row(c, sweep.rule, devices, split);
      const std::string one_ms =
          row.one_gpu_cups ? app::json_number(row.cups / *row.one_gpu_cups * row.timed.ms) + " ms" : "-";
      std::fprintf(stderr, "bench:   %.4f ms per frame (1 GPU: %s), %d frames per repeat\n", row.timed.ms,
                   one_ms.c_str(), row.timed.frames);
      rows.push_back(row);
    } catch (const InputError& e) {
      skipped.push_back(what + ": " + e.what());
    }
  }
  print_rows(rows);
  for (const auto& s : skipped) std::printf("skipped (does not fit): %s\n", s.c_str());
  if (!sweep.json_path.empty()) write_rows_json(sweep.json_path, devices, names, sweep.rule, rows);
  return 0;
}

}  // namespace ls::bench
