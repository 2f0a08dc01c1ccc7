// bench_devices.cpp — `lifestreams bench --devices LIST` over several GPUs (bench_devices.hpp): split
// and spread rows, each with the same work on the first listed GPU measured in the same run, its
// speedup and whether every final hash agrees.
#include "bench/bench_devices.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>

#include "control/json_text.hpp"
#include "core/error.hpp"
#include "kernels/cuda_check.hpp"
#include "multi/multi_engine.hpp"
#include "multi/split_engine.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"

namespace ls {

namespace {

using app::json_string;
std::string number(double v) { return app::json_number(v); }

// As bench.cpp's one-GPU rows: a warm-up, then the median of kRepeats repeats of about
// kTargetRepeatMs each on the GPUs together (sized on the one-GPU run, so that both runs step the
// same generations).
constexpr int kRepeats = 7;
constexpr double kTargetRepeatMs = 25.0;
constexpr int kMaxFramesPerRepeat = 4000;
constexpr int kDefaultK = 16;
constexpr double kDensity = 0.35;
constexpr int kDefaultSpreadPerGpu = 64;  // the app's instance limit per GPU
constexpr int kMaxTestBands = 8;

// spread_one_thread: the spread rows' instances enqueued by the calling thread alone, GPU after GPU
// each frame (multi::SlotEnqueue::calling_thread), against one thread per GPU (per_slot_threads).
enum class Layout { split, spread, spread_one_thread };

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

struct Config {
  Layout layout = Layout::split;
  Variant variant = Variant::bitpacked;
  int width = 0;
  int height = 0;
  int instances = 1;
  StreamMode mode = StreamMode::per_instance;  // spread rows only: a split band has its own stream
  int k = 1;
  int timing_period = 1;  // the engine's timed frames: one in this many
  auto key() const {
    return std::tuple(static_cast<int>(layout), static_cast<int>(variant), width, height, instances,
                      static_cast<int>(mode), k, timing_period);
  }
};

struct Row {
  Config config;
  std::vector<int> devices;
  double cups = 0;
  double median_ms = 0;  // one frame: one launch of k generations on every instance
  double host_ms = 0;    // host time to enqueue one frame
  int frames = 0;
  std::optional<double> one_gpu_cups;  // the same work on devices.front() alone
  std::optional<bool> same_hashes;     // every instance's final hash equals the one-GPU run's
  std::string one_gpu_missing;         // why there is no one-GPU figure
};

// ---- the work of a row ------------------------------------------------------------------------

/// What a row runs: instances on one or several GPUs, enqueued frame by frame.
class Work {
 public:
  virtual ~Work() = default;
  /// Enqueues `frames` frames of `k` generations on every instance; returns once enqueued.
  virtual void enqueue(int frames, int k) = 0;
  /// Blocks until every GPU involved has finished all it was given.
  virtual void wait() = 0;
  /// Every instance's state hash, in instance order (blocking).
  virtual std::vector<std::uint64_t> hashes() = 0;
};

InstanceSpec spec_of(const Config& c, const Rule& rule, int instance) {
  InstanceSpec spec;
  spec.width = c.width;
  spec.height = c.height;
  spec.rule = rule;
  spec.variant = c.variant;
  spec.generations_per_launch = c.k;
  spec.init = RandomInit{kDensity, static_cast<std::uint64_t>(instance + 1)};
  return spec;
}

/// One lattice split into one band per device (multi::SplitEngine: a host thread per band).
class SplitWork final : public Work {
 public:
  SplitWork(const std::vector<int>& devices, const InstanceSpec& spec, int timing_period) : engine_(devices) {
    engine_.set_timing_period(timing_period);
    engine_.add(spec);
  }
  void enqueue(int frames, int k) override {
    for (int f = 0; f < frames; ++f) engine_.step(k);
  }
  void wait() override {
    for (const int d : std::set<int>(engine_.devices().begin(), engine_.devices().end())) {
      const cuda::DeviceGuard on(d);
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  std::vector<std::uint64_t> hashes() override { return {engine_.summarize(0).hash}; }

 private:
  multi::SplitEngine engine_;
};

/// The one-GPU app's way, every row's baseline: all instances on one CudaEngine stepped by the
/// calling thread.
class OneGpuWork final : public Work {
 public:
  OneGpuWork(int device, const Config& c, const Rule& rule) : engine_(device) {
    engine_.set_stream_mode(c.mode);
    engine_.set_timing_period(c.timing_period);
    for (int i = 0; i < c.instances; ++i) engine_.add(spec_of(c, rule, i));
  }
  void enqueue(int frames, int k) override {
    for (int f = 0; f < frames; ++f) engine_.step(k);
  }
  void wait() override {
    const cuda::DeviceGuard on(engine_.device());
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::vector<std::uint64_t> hashes() override {
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < engine_.size(); ++i) out.push_back(engine_.summarize(i).hash);
    return out;
  }

 private:
  sim::CudaEngine engine_;
};

/// Instances dealt round-robin over the devices, as the app does with several GPUs: a
/// multi::MultiEngine with one CudaEngine per device, whose step() hands each GPU's part of the
/// frame to that GPU's own host thread (spread), or, with `calling_thread`, enqueues every GPU's
/// part from the calling thread, GPU after GPU (spread-1t). A device listed twice (LS_TEST_BANDS)
/// gets a slot per listing.
class SpreadWork final : public Work {
 public:
  SpreadWork(const std::vector<int>& devices, const Config& c, const Rule& rule, bool calling_thread)
      : engine_(make_engine(devices, calling_thread)), devices_(devices.begin(), devices.end()) {
    engine_->set_stream_mode(c.mode);
    engine_->set_timing_period(c.timing_period);
    for (int i = 0; i < c.instances; ++i) engine_->add(spec_of(c, rule, i));  // round-robin
  }

  void enqueue(int frames, int k) override {
    for (int f = 0; f < frames; ++f) engine_->step(k);
  }
  void wait() override {
    for (const int d : devices_) {
      const cuda::DeviceGuard on(d);
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  std::vector<std::uint64_t> hashes() override {
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < engine_->size(); ++i) out.push_back(engine_->summarize(i).hash);
    return out;
  }

 private:
  static std::unique_ptr<multi::MultiEngine> make_engine(const std::vector<int>& devices,
                                                         bool calling_thread) {
    std::vector<multi::DeviceSlot> slots;
    for (const int d : devices)
      slots.push_back(
          multi::DeviceSlot{d, std::make_unique<sim::CudaEngine>(d), [d] { CUDA_CHECK(cudaSetDevice(d)); }});
    const auto enqueue =
        calling_thread ? multi::SlotEnqueue::calling_thread : multi::SlotEnqueue::per_slot_threads;
    const bool repeats = std::set<int>(devices.begin(), devices.end()).size() < devices.size();
    if (repeats)
      return std::make_unique<multi::MultiEngine>(std::move(slots), multi::RepeatedDevicesForTests{},
                                                  enqueue);
    return std::make_unique<multi::MultiEngine>(std::move(slots), enqueue);
  }

  std::unique_ptr<multi::MultiEngine> engine_;
  std::set<int> devices_;
};

// ---- timing -----------------------------------------------------------------------------------

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Timed {
  double ms = 0;       // per frame, from an idle start to every GPU done
  double host_ms = 0;  // per frame, enqueueing
};

/// Events of different GPUs cannot be compared, so a repeat is timed by the host clock from every
/// GPU idle to every GPU done (a final synchronization of each).
Timed time_frames(Work& work, int frames, int k) {
  work.wait();
  const auto t0 = std::chrono::steady_clock::now();
  work.enqueue(frames, k);
  const auto t1 = std::chrono::steady_clock::now();
  work.wait();
  const auto t2 = std::chrono::steady_clock::now();
  const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
  return {ms(t2 - t0) / frames, ms(t1 - t0) / frames};
}

struct Measured {
  double ms = 0;
  double host_ms = 0;
  int frames = 0;
  std::vector<std::uint64_t> hashes;
};

/// Warm-up, then kRepeats repeats of `frames` frames (0: sized to about `target_ms`), then every
/// instance's hash.
Measured measure(Work& work, int k, int frames, double target_ms) {
  double one = time_frames(work, 2, k).ms;
  one = std::min(one, time_frames(work, 2, k).ms);
  if (frames == 0)
    frames = std::clamp(static_cast<int>(std::ceil(target_ms / std::max(one, 1e-4))), 1, kMaxFramesPerRepeat);
  std::vector<double> ms, host;
  for (int r = 0; r < kRepeats; ++r) {
    const Timed t = time_frames(work, frames, k);
    ms.push_back(t.ms);
    host.push_back(t.host_ms);
  }
  return {median(ms), median(host), frames, work.hashes()};
}

/// The row's work on `devices`; on one device, the baseline: the one-GPU app's way.
std::unique_ptr<Work> make_work(const Config& c, const Rule& rule, const std::vector<int>& devices) {
  if (devices.size() == 1) return std::make_unique<OneGpuWork>(devices.front(), c, rule);
  if (c.layout == Layout::split)
    return std::make_unique<SplitWork>(devices, spec_of(c, rule, 0), c.timing_period);
  return std::make_unique<SpreadWork>(devices, c, rule, c.layout == Layout::spread_one_thread);
}

Row measure_row(const Config& c, const Rule& rule, const std::vector<int>& devices) {
  Row row;
  row.config = c;
  row.devices = devices;
  const double cells = static_cast<double>(c.width) * c.height * c.instances * c.k;
  // The one-GPU run first, released before the multi-GPU run allocates: a lattice too large for
  // one GPU has no one-GPU figure, and the others' runs never share memory. Its repeats are sized
  // so that the multi-GPU run's, stepping as many generations, still take about kTargetRepeatMs.
  std::optional<Measured> one;
  try {
    auto work = make_work(c, rule, {devices.front()});
    one = measure(*work, c.k, 0, kTargetRepeatMs * static_cast<double>(devices.size()));
    row.one_gpu_cups = cells / (one->ms * 1e-3);
  } catch (const InputError& e) {
    row.one_gpu_missing = e.what();
  }
  auto work = make_work(c, rule, devices);
  const Measured many = measure(*work, c.k, one ? one->frames : 0, kTargetRepeatMs);
  row.median_ms = many.ms;
  row.host_ms = many.host_ms;
  row.frames = many.frames;
  row.cups = cells / (many.ms * 1e-3);
  if (one) row.same_hashes = one->hashes == many.hashes;
  return row;
}

// ---- the sweep --------------------------------------------------------------------------------

void add_unique(std::vector<Config>& configs, const Config& c) {
  if (std::none_of(configs.begin(), configs.end(), [&](const Config& o) { return o.key() == c.key(); }))
    configs.push_back(c);
}

std::vector<Config> sweep(const DevicesBench& b) {
  std::vector<Config> out;
  const int gpus = static_cast<int>(b.devices.size());
  const auto depth = [](Variant v, int k) { return variant_iterates(v) ? k : 1; };
  const bool defaults = !b.variants && !b.sizes && !b.instances && !b.modes && !b.ks && !b.timing_periods;
  if (defaults) {
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
  const auto variants = b.variants.value_or(std::vector<Variant>{Variant::bitpacked});
  const auto instances = b.instances.value_or(std::vector<int>{1});
  const auto modes = b.modes.value_or(std::vector<StreamMode>{StreamMode::per_instance});
  const auto ks = b.ks.value_or(std::vector<int>{kDefaultK});
  const auto periods = b.timing_periods.value_or(std::vector<int>{1});
  for (const int n : instances) {
    const bool split = n == 1;
    const auto sizes =
        b.sizes.value_or(split ? std::vector<std::pair<int, int>>{{16384, 16384}, {65536, 65536}}
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

// ---- output -----------------------------------------------------------------------------------

std::string device_list(const std::vector<int>& devices, char separator) {
  std::string out;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (i > 0) out += separator;
    out += std::to_string(devices[i]);
  }
  return out;
}

std::string mode_of(const Config& c) {
  return c.layout == Layout::split ? "per-band" : std::string(stream_mode_name(c.mode));
}

/// The table's stream mode cell: the mode, and "1/N" when one frame in N is timed.
std::string mode_cell(const Config& c) {
  return mode_of(c) + (c.timing_period > 1 ? " 1/" + std::to_string(c.timing_period) : "");
}

void write_json(const DevicesBench& b, const std::vector<std::string>& names, const std::vector<Row>& rows) {
  std::ostringstream out;
  out << "{\"devices\": [";
  for (std::size_t i = 0; i < b.devices.size(); ++i)
    out << (i ? ", " : "") << "{\"index\": " << b.devices[i] << ", \"name\": " << json_string(names[i])
        << "}";
  out << "], \"driver\": " << json_string(b.driver) << ", \"cuda\": " << json_string(b.cuda)
      << ", \"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const Config& c = r.config;
    out << (i ? ",\n  " : "\n  ") << "{\"layout\": " << json_string(layout_name(c.layout))
        << ", \"variant\": " << json_string(variant_name(c.variant)) << ", \"width\": " << c.width
        << ", \"height\": " << c.height << ", \"instances\": " << c.instances
        << ", \"stream_mode\": " << json_string(mode_of(c)) << ", \"generations_per_launch\": " << c.k
        << ", \"timing_period\": " << c.timing_period << ", \"rule\": " << json_string(b.rule.to_string())
        << ", \"devices\": [" << device_list(r.devices, ',') << "], \"cups\": " << number(r.cups)
        << ", \"one_gpu_cups\": " << (r.one_gpu_cups ? number(*r.one_gpu_cups) : "null")
        << ", \"speedup_vs_one_gpu\": " << (r.one_gpu_cups ? number(r.cups / *r.one_gpu_cups) : "null")
        << ", \"same_hash_as_one_gpu\": " << (r.same_hashes ? (*r.same_hashes ? "true" : "false") : "null")
        << ", \"repeats\": " << kRepeats << ", \"median_ms\": " << number(r.median_ms)
        << ", \"host_ms\": " << number(r.host_ms) << ", \"frames_per_repeat\": " << r.frames << "}";
  }
  out << "\n]}\n";
  std::ofstream file(b.json_path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError("--json: cannot write \"" + b.json_path + "\"");
  file << out.str();
  if (!file.flush()) throw InputError("--json: cannot write \"" + b.json_path + "\"");
}

}  // namespace

std::vector<int> with_test_bands(std::vector<int> devices) {
  const char* text = std::getenv("LS_TEST_BANDS");
  if (!text || devices.size() != 1) return devices;
  const int n = std::atoi(text);
  if (n < 2 || n > kMaxTestBands) return devices;
  return std::vector<int>(static_cast<std::size_t>(n), devices.front());
}

int run_devices_bench(const DevicesBench& b) {
  std::vector<std::string> names;
  std::string listed;
  for (const int d : b.devices) {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
    names.emplace_back(prop.name);
    listed += (listed.empty() ? "" : ", ") + std::to_string(d) + " " + prop.name;
  }
  std::printf("lifestreams bench: devices %s; driver %s, CUDA %s, rule %s\n", listed.c_str(),
              b.driver.c_str(), b.cuda.c_str(), b.rule.to_string().c_str());
  std::printf(
      "split: one lattice cut into horizontal bands, one per GPU, halo rows swapped by peer copies after\n"
      "  every launch, a host thread per GPU. spread: the instances dealt round-robin over the GPUs, one\n"
      "  CUDA engine per GPU (the app's MultiEngine), each frame handed to every GPU's own host thread;\n"
      "  spread-1t: the same, every GPU's part enqueued by the one calling thread instead. 1 GPU: the\n"
      "  same work on GPU %d alone (one CUDA engine stepped by the calling thread, as the one-GPU app),\n"
      "  measured in the same run; vs 1 GPU: the ratio of the cell update rates; same hash: every\n"
      "  instance's final state hash equals the 1-GPU run's (both step the same generations). A frame is\n"
      "  one launch of k generations on every instance; events of different GPUs cannot be compared, so\n"
      "  each repeat is timed by the host clock from every GPU idle to the end of a final synchronization\n"
      "  of each; the median of %d repeats after a warm-up. host ms: the enqueue time per frame.\n\n",
      b.devices.front(), kRepeats);
  std::fflush(stdout);

  std::vector<Row> rows;
  std::vector<std::string> skipped;
  for (const Config& c : sweep(b)) {
    const std::string what = std::string(layout_name(c.layout)) + " " + std::string(variant_name(c.variant)) +
                             " " + std::to_string(c.width) + "x" + std::to_string(c.height) + " x" +
                             std::to_string(c.instances) + " " + mode_of(c) + " k=" + std::to_string(c.k);
    std::fprintf(stderr, "bench: %s on %s ...\n", what.c_str(), device_list(b.devices, ',').c_str());
    try {
      Row row = measure_row(c, b.rule, b.devices);
      const std::string one_ms =
          row.one_gpu_cups ? number(row.cups / *row.one_gpu_cups * row.median_ms) + " ms" : std::string("-");
      std::fprintf(stderr, "bench:   %.4f ms per frame (1 GPU: %s), %d frames per repeat\n", row.median_ms,
                   one_ms.c_str(), row.frames);
      rows.push_back(row);
    } catch (const InputError& e) {
      skipped.push_back(what + ": " + e.what());
    }
  }

  std::printf("%-9s %-10s %-13s %9s %-8s %-12s %3s %15s %15s %8s %9s %9s\n", "layout", "variant", "lattice",
              "instances", "devices", "stream mode", "k", "cell updates/s", "1 GPU", "vs 1 GPU", "same hash",
              "host ms");
  for (const Row& r : rows) {
    const Config& c = r.config;
    const std::string lattice = std::to_string(c.width) + "x" + std::to_string(c.height);
    char one[32] = "-";
    if (r.one_gpu_cups) std::snprintf(one, sizeof one, "%.3e", *r.one_gpu_cups);
    const std::string speedup =
        r.one_gpu_cups ? number(std::round(r.cups / *r.one_gpu_cups * 100) / 100) + "x" : std::string("-");
    const char* same = r.same_hashes ? (*r.same_hashes ? "yes" : "NO") : "-";
    std::printf("%-9s %-10s %-13s %9d %-8s %-12s %3d %15.3e %15s %8s %9s %9.4f\n",
                std::string(layout_name(c.layout)).c_str(), std::string(variant_name(c.variant)).c_str(),
                lattice.c_str(), c.instances, device_list(r.devices, ',').c_str(), mode_cell(c).c_str(), c.k,
                r.cups, one, speedup.c_str(), same, r.host_ms);
  }
  for (const Row& r : rows)
    if (!r.one_gpu_missing.empty())
      std::printf("no 1-GPU figure for %s %dx%d: %s\n", std::string(variant_name(r.config.variant)).c_str(),
                  r.config.width, r.config.height, r.one_gpu_missing.c_str());
  for (const auto& s : skipped) std::printf("skipped (does not fit): %s\n", s.c_str());
  if (!b.json_path.empty()) write_json(b, names, rows);
  return 0;
}

}  // namespace ls
