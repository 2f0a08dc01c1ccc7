// bench.cpp — `lifestreams bench` (bench.hpp): runs the CUDA engine over a sweep of variants, sizes,
// instance counts, stream modes and generations per launch; times each with CUDA events after a
// warm-up (median of repeats) and compares it with `naive` at the same size and with the memory
// roof, measured in the same run by a large device-to-device copy.
#include "bench/bench.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "bench/bench_devices.hpp"
#include "control/device_args.hpp"
#include "control/numbers.hpp"
#include "control/json_text.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "core/trace.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"

namespace ls {

namespace {

using app::json_string;
std::string number(double v) { return app::json_number(v); }

constexpr int kRepeats = 7;
constexpr double kTargetRepeatMs = 25.0;  // each repeat runs enough frames to take about this long
constexpr int kMaxFramesPerRepeat = 4000;
constexpr int kDefaultK = 16;
constexpr double kDensity = 0.35;

const char* const kUsage =
    "usage: lifestreams bench [--variants naive,global,shared,iterate,bitpacked] [--sizes "
    "1024,16384,65536x32768]\n"
    "                         [--instances 1,16,64] [--stream-mode per-instance,shared,graph]\n"
    "                         [--generations-per-launch 1,8,16,32] [--timing-period 1,8] [--rule R]\n"
    "                         [--json FILE] [--device N | --devices LIST]\n"
    "       mpirun -np R lifestreams bench --distributed ...   (one lattice over MPI ranks: see its --help)\n"
    "With no sweep option: every variant at 1024, 4096 and 16384, bitpacked at 65536; 64 instances of\n"
    "1024x1024 in all three stream modes, timing every frame and one in 8; a sweep of k for iterate and\n"
    "bitpacked at 16384. --timing-period N: the engine's timing events go around one frame in N (the\n"
    "app's --timing-period); default 1, every frame.\n"
    "--devices LIST (comma-separated CUDA devices, or all): with several, rows of one lattice split\n"
    "across them (--instances 1) and of instances spread over them (--instances N > 1), each against\n"
    "the same work on the first one; with no sweep option: every variant split at 16384, bitpacked at\n"
    "65536 and 131072, and 64 x 1024x1024 per GPU spread.\n";

struct Config {
  Variant variant = Variant::naive;
  int width = 0;
  int height = 0;
  int instances = 1;
  StreamMode mode = StreamMode::per_instance;
  int k = 1;
  int timing_period = 1;  // the engine times one frame in this many
  auto key() const {
    return std::tuple(static_cast<int>(variant), width, height, instances, static_cast<int>(mode), k,
                      timing_period);
  }
  /// Rows compared with one another: same lattice, instance count, stream mode and timing period.
  auto group() const { return std::tuple(width, height, instances, static_cast<int>(mode), timing_period); }
};

struct Row {
  Config config;
  double cups = 0;
  double median_ms = 0;  // one frame: one launch of k generations per instance
  double host_ms = 0;    // host time of one frame's step() (median)
  int frames = 0;        // frames per repeat
  std::optional<double> speedup;
  double roof_fraction = 0;
};

// ---- argument parsing -------------------------------------------------------------------------

struct Options {
  std::optional<std::vector<Variant>> variants;
  std::optional<std::vector<std::pair<int, int>>> sizes;
  std::optional<std::vector<int>> instances;
  std::optional<std::vector<StreamMode>> modes;
  std::optional<std::vector<int>> ks;
  std::optional<std::vector<int>> timing_periods;
  Rule rule = Rule::life();
  std::string json_path;
  int device = 0;
  std::optional<DeviceList> devices;  // --device N or --devices LIST as given
  bool help = false;
};

Options parse_options(int argc, char** argv) {
  Options o;
  std::set<std::string> seen;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    if (arg == "-h" || arg == "--help") {
      o.help = true;
      continue;
    }
    if (const std::size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    static const char* const known[] = {
        "--variants", "--sizes", "--instances", "--stream-mode",   "--generations-per-launch",
        "--rule",     "--json",  "--device",    "--timing-period", "--devices"};
    auto is_known = [&](const std::string& name) {
      return std::find_if(std::begin(known), std::end(known), [&](const char* k) { return name == k; }) !=
             std::end(known);
    };
    if (!is_known(arg)) {
      if (arg.size() > 1 && arg[0] == '-') throw InputError("unknown option " + arg + "; see --help");
      throw InputError("unexpected argument " + shown(arg) + "; see --help");
    }
    if (!seen.insert(arg).second) throw InputError(arg + " given twice");
    if (!has_value) {
      // The next word is the value unless it is another option ("--json --bogus": no file name).
      if (i + 1 >= argc || std::string_view(argv[i + 1]).rfind("--", 0) == 0)
        throw InputError(arg + " needs a value");
      value = argv[++i];
    }
    if (arg == "--variants") {
      std::vector<Variant> list;
      for (const auto& item : split_list(arg, value)) {
        const auto v = parse_variant(item);
        if (!v)
          throw InputError("--variants: unknown variant \"" + item +
                           "\" (naive, global, shared, iterate, bitpacked)");
        list.push_back(*v);
      }
      o.variants = list;
    } else if (arg == "--sizes") {
      std::vector<std::pair<int, int>> list;
      for (const auto& item : split_list(arg, value)) list.push_back(parse_lattice_size("--sizes", item));
      o.sizes = list;
    } else if (arg == "--instances") {
      std::vector<int> list;
      for (const auto& item : split_list(arg, value)) {
        list.push_back(static_cast<int>(parse_whole(arg, item, 1, 1024)));
      }
      o.instances = list;
    } else if (arg == "--stream-mode") {
      std::vector<StreamMode> list;
      for (const auto& item : split_list(arg, value)) {
        const auto m = parse_stream_mode(item);
        if (!m)
          throw InputError("--stream-mode: unknown mode \"" + item + "\" (per-instance, shared, graph)");
        list.push_back(*m);
      }
      o.modes = list;
    } else if (arg == "--generations-per-launch") {
      std::vector<int> list;
      for (const auto& item : split_list(arg, value)) {
        list.push_back(static_cast<int>(parse_whole(arg, item, 1, kMaxGenerationsPerLaunch)));
      }
      o.ks = list;
    } else if (arg == "--timing-period") {
      std::vector<int> list;
      for (const auto& item : split_list(arg, value))
        list.push_back(static_cast<int>(parse_whole(arg, item, 1, kMaxTimingPeriod)));
      o.timing_periods = list;
    } else if (arg == "--rule") {
      try {
        o.rule = parse_rule(value);
      } catch (const InputError& e) {
        throw InputError(std::string("--rule: ") + e.what());
      }
    } else if (arg == "--json") {
      if (value.empty()) throw InputError("--json needs a file name");
      o.json_path = value;
    } else if (arg == "--device") {
      o.device = static_cast<int>(parse_whole(arg, value, 0, kMaxDeviceOrdinal));
    } else if (arg == "--devices") {
      o.devices = parse_device_list(arg, value);
    }
  }
  if (seen.count("--device") && seen.count("--devices"))
    throw InputError("--device and --devices: give one of them (--device N means --devices N)");
  return o;
}

void add_unique(std::vector<Config>& configs, const Config& c) {
  if (std::none_of(configs.begin(), configs.end(), [&](const Config& o) { return o.key() == c.key(); }))
    configs.push_back(c);
}

std::vector<Config> sweep(const Options& o) {
  std::vector<Config> configs;
  const bool defaults = !o.variants && !o.sizes && !o.instances && !o.modes && !o.ks && !o.timing_periods;
  if (defaults) {
    for (const int n : {1024, 4096, 16384})
      for (Variant v : kAllVariants)
        add_unique(configs, {v, n, n, 1, StreamMode::per_instance, variant_iterates(v) ? kDefaultK : 1});
    add_unique(configs, {Variant::naive, 65536, 65536, 1, StreamMode::per_instance, 1});
    add_unique(configs, {Variant::bitpacked, 65536, 65536, 1, StreamMode::per_instance, kDefaultK});
    for (const int t : {1, 8})
      for (StreamMode m : kAllStreamModes)  // one run shows what each mode buys at 64 x 1024²
        for (Variant v : kAllVariants)
          for (const int k : {1, kDefaultK})
            if (k == 1 || variant_iterates(v)) add_unique(configs, {v, 1024, 1024, 64, m, k, t});
    for (Variant v : {Variant::iterate, Variant::bitpacked})
      for (const int k : {1, 2, 4, 8, 16, 32, 64})
        add_unique(configs, {v, 16384, 16384, 1, StreamMode::per_instance, k});
    return configs;
  }
  const std::vector<Variant> variants =
      o.variants.value_or(std::vector<Variant>(kAllVariants.begin(), kAllVariants.end()));
  const auto sizes =
      o.sizes.value_or(std::vector<std::pair<int, int>>{{1024, 1024}, {4096, 4096}, {16384, 16384}});
  const auto instances = o.instances.value_or(std::vector<int>{1});
  const auto modes = o.modes.value_or(std::vector<StreamMode>{StreamMode::per_instance});
  const auto ks = o.ks.value_or(std::vector<int>{kDefaultK});
  const auto periods = o.timing_periods.value_or(std::vector<int>{1});
  for (const int t : periods)
    for (const auto& [w, h] : sizes)
      for (const int n : instances)
        for (StreamMode m : modes) {
          // The baseline of every group: naive at the same size, instances, stream mode and timing.
          add_unique(configs, {Variant::naive, w, h, n, m, 1, t});
          for (Variant v : variants)
            for (const int k : ks) add_unique(configs, {v, w, h, n, m, variant_iterates(v) ? k : 1, t});
        }
  return configs;
}

// ---- measurement ------------------------------------------------------------------------------

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Device-to-device copy bandwidth, counting bytes read plus bytes written (GB/s, 1e9 bytes).
double measure_roof_gbps() {
  std::size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  std::size_t bytes = std::size_t{1} << 30;
  while (bytes > (std::size_t{64} << 20) && 2 * bytes + (std::size_t{256} << 20) > free_bytes) bytes /= 2;
  cuda::DeviceBuffer a(bytes), b(bytes);
  cuda::Stream stream(cuda::Stream::Create{});
  cuda::Event start(cuda::Event::Create{}), stop(cuda::Event::Create{});
  CUDA_CHECK(cudaMemsetAsync(a.get(), 1, bytes, stream.get()));
  std::vector<double> ms;
  for (int i = 0; i < 13; ++i) {
    start.record(stream.get());
    CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    stop.record(stream.get());
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start.get(), stop.get()));
    if (i >= 3) ms.push_back(t);
  }
  return 2.0 * static_cast<double>(bytes) / (median(ms) * 1e-3) / 1e9;
}

/// Bytes one generation must move per cell in the variant's layout: the lattice read and written once.
double compulsory_bytes_per_cell(Variant v) {
  switch (v) {
    case Variant::naive:
      return 8.0;
    case Variant::bitpacked:
      return 0.25;
    default:
      return 2.0;
  }
}

/// Times `frames` frames of the engine with events: from a mark recorded while the device is idle
/// to the last instance stream's end. Milliseconds.
double time_frames(sim::CudaEngine& engine, int frames, int generations_per_frame, const cuda::Stream& mark_stream,
                   const cuda::Event& start, std::vector<cuda::Event>& ends, double* host_ms = nullptr) {
  engine.finish();
  start.record(mark_stream.get());
  const auto t0 = std::chrono::steady_clock::now();
  for (int f = 0; f < frames; ++f) engine.step(generations_per_frame);
  if (host_ms)
    *host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::vector<cudaStream_t> streams;
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const cudaStream_t s = engine.device_view(i).stream;
    if (std::find(streams.begin(), streams.end(), s) == streams.end()) streams.push_back(s);
  }
  while (ends.size() < streams.size()) ends.emplace_back(cuda::Event::Create{});
  for (std::size_t i = 0; i < streams.size(); ++i) ends[i].record(streams[i]);
  double longest = 0;
  for (std::size_t i = 0; i < streams.size(); ++i) {
    CUDA_CHECK(cudaEventSynchronize(ends[i].get()));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start.get(), ends[i].get()));
    longest = std::max(longest, static_cast<double>(t));
  }
  return longest;
}

Row measure(const Config& c, const Rule& rule, int device) {
  sim::CudaEngine engine(device);
  engine.set_stream_mode(c.mode);
  engine.set_timing_period(c.timing_period);
  for (int i = 0; i < c.instances; ++i) {
    InstanceSpec spec;
    spec.width = c.width;
    spec.height = c.height;
    spec.rule = rule;
    spec.variant = c.variant;
    spec.generations_per_launch = c.k;
    spec.init = RandomInit{kDensity, static_cast<std::uint64_t>(i + 1)};
    engine.add(spec);
  }
  const int gens_per_frame = c.k;  // one launch per instance per frame
  cuda::Stream mark_stream(cuda::Stream::Create{});
  cuda::Event start(cuda::Event::Create{});
  std::vector<cuda::Event> ends;
  // Warm up (kernels loaded, caches and clocks up), then size a repeat to about kTargetRepeatMs.
  double one = time_frames(engine, 2, gens_per_frame, mark_stream, start, ends) / 2;
  one = std::min(one, time_frames(engine, 2, gens_per_frame, mark_stream, start, ends) / 2);
  const int frames =
      std::clamp(static_cast<int>(std::ceil(kTargetRepeatMs / std::max(one, 1e-4))), 1, kMaxFramesPerRepeat);
  std::vector<double> per_frame, host_per_frame;
  for (int r = 0; r < kRepeats; ++r) {
    double host_ms = 0;
    per_frame.push_back(time_frames(engine, frames, gens_per_frame, mark_stream, start, ends, &host_ms) /
                        frames);
    host_per_frame.push_back(host_ms / frames);
  }
  Row row;
  row.config = c;
  row.median_ms = median(per_frame);
  row.host_ms = median(host_per_frame);
  row.frames = frames;
  row.cups = static_cast<double>(c.width) * c.height * c.instances * gens_per_frame / (row.median_ms * 1e-3);
  return row;
}

// ---- output -----------------------------------------------------------------------------------

std::string driver_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (std::getline(in, line)) {
    // "NVRM version: NVIDIA UNIX [Open ]Kernel Module [for x86_64]  580.65.06  Release Build ...":
    // the first word after "Kernel Module" that starts with a digit.
    const std::size_t at = line.find("Kernel Module");
    if (at != std::string::npos) {
      std::istringstream words(line.substr(at + 13));
      std::string word;
      while (words >> word)
        if (std::isdigit(static_cast<unsigned char>(word[0]))) return word;
    }
  }
  int v = 0;
  if (cudaDriverGetVersion(&v) == cudaSuccess)
    return "CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  return "unknown";
}

std::string cuda_runtime_version() {
  int v = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&v));
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

void write_json(const std::string& path, int ordinal, const std::string& device, const std::string& driver,
                const std::string& cuda, double roof, const Rule& rule, const std::vector<Row>& rows) {
  std::ostringstream out;
  out << "{\"device\": " << json_string(device) << ", \"driver\": " << json_string(driver)
      << ", \"cuda\": " << json_string(cuda) << ", \"roof_gbps\": " << number(roof) << ", \"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out << (i ? ",\n  " : "\n  ") << "{\"variant\": " << json_string(variant_name(r.config.variant))
        << ", \"width\": " << r.config.width << ", \"height\": " << r.config.height
        << ", \"instances\": " << r.config.instances
        << ", \"stream_mode\": " << json_string(stream_mode_name(r.config.mode))
        << ", \"generations_per_launch\": " << r.config.k << ", \"timing_period\": " << r.config.timing_period
        << ", \"rule\": " << json_string(rule.to_string()) << ", \"devices\": [" << ordinal << "]"
        << ", \"cups\": " << number(r.cups)
        << ", \"speedup_vs_naive\": " << (r.speedup ? number(*r.speedup) : "null")
        << ", \"roof_fraction\": " << number(r.roof_fraction) << ", \"repeats\": " << kRepeats
        << ", \"median_ms\": " << number(r.median_ms) << ", \"host_ms\": " << number(r.host_ms)
        << ", \"host_enqueue_ms\": " << number(r.host_ms) << ", \"frames_per_repeat\": " << r.frames << "}";
  }
  out << "\n]}\n";
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError("--json: cannot write \"" + path + "\"");
  file << out.str();
  if (!file.flush()) throw InputError("--json: cannot write \"" + path + "\"");
}

int run_bench(const Options& o) {
  // A JSON path that cannot be written is a bad argument: say so before minutes of measuring.
  if (!o.json_path.empty() && !std::ofstream(o.json_path, std::ios::app))
    throw InputError("--json: cannot write \"" + o.json_path + "\"");
  std::string why;
  const int count = cuda_device_count(&why);
  if (count == 0 && !o.devices) throw DeviceError("needs a CUDA device (" + why + ")");
  // Several GPUs (or, in tests, LS_TEST_BANDS bands of one): the rows of bench_devices.cpp.
  const std::vector<int> devices = with_test_bands(resolve_devices(
      o.devices ? "--devices" : "--device", o.devices.value_or(DeviceList{false, {o.device}})));
  if (devices.size() > 1)
    return run_devices_bench({devices, o.variants, o.sizes, o.instances, o.modes, o.ks, o.timing_periods,
                              o.rule, o.json_path, driver_version(), cuda_runtime_version()});
  const int ordinal = devices.front();
  CUDA_CHECK(cudaSetDevice(ordinal));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  const std::string device = prop.name, driver = driver_version(), cuda = cuda_runtime_version();
  const double roof = measure_roof_gbps();

  std::printf("lifestreams bench: %s, driver %s, CUDA %s, rule %s\n", device.c_str(), driver.c_str(),
              cuda.c_str(), o.rule.to_string().c_str());
  std::printf("memory roof: %.0f GB/s (device-to-device copy, bytes read + written)\n", roof);
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

  const std::vector<Config> configs = sweep(o);
  std::vector<Row> rows;
  std::vector<std::string> skipped;
  std::map<decltype(Config{}.group()), double> naive_cups;
  for (const Config& c : configs) {
    std::fprintf(stderr, "bench: %s %dx%d x%d %s k=%d timed 1/%d ...\n",
                 std::string(variant_name(c.variant)).c_str(), c.width, c.height, c.instances,
                 std::string(stream_mode_name(c.mode)).c_str(), c.k, c.timing_period);
    try {
      const trace::Scope row_range("bench " + std::string(variant_name(c.variant)) + " " +
                                   std::to_string(c.width) + "x" + std::to_string(c.height) + " x" +
                                   std::to_string(c.instances) + " " + std::string(stream_mode_name(c.mode)) +
                                   " k=" + std::to_string(c.k));
      Row row = measure(c, o.rule, ordinal);
      row.roof_fraction = row.cups * compulsory_bytes_per_cell(c.variant) / (roof * 1e9);
      if (c.variant == Variant::naive) naive_cups[c.group()] = row.cups;
      std::fprintf(stderr,
                   "bench:   %.4f ms per frame on the device, %.4f ms of host time in step(), %d frames\n",
                   row.median_ms, row.host_ms, row.frames);
      rows.push_back(row);
    } catch (const InputError& e) {
      skipped.push_back(std::string(variant_name(c.variant)) + " " + std::to_string(c.width) + "x" +
                        std::to_string(c.height) + " x" + std::to_string(c.instances) + ": " + e.what());
    }
  }
  for (Row& r : rows)
    if (const auto it = naive_cups.find(r.config.group()); it != naive_cups.end())
      r.speedup = r.cups / it->second;

  // host ms: the host's enqueue time per frame (step()); at or above the device's ms per frame
  // the row is host-bound.
  std::printf("%-10s %-13s %9s  %-12s %3s %15s %9s %14s %7s %9s\n", "variant", "lattice", "instances",
              "stream mode", "k", "cell updates/s", "vs naive", "roof fraction", "timed", "host ms");
  for (const Row& r : rows) {
    const std::string lattice = std::to_string(r.config.width) + "x" + std::to_string(r.config.height);
    const std::string speedup = r.speedup ? number(std::round(*r.speedup * 10) / 10) + "x" : "-";
    const std::string timed = "1/" + std::to_string(r.config.timing_period);
    std::printf("%-10s %-13s %9d  %-12s %3d %15.3e %9s %14.3f %7s %9.4f\n",
                std::string(variant_name(r.config.variant)).c_str(), lattice.c_str(), r.config.instances,
                std::string(stream_mode_name(r.config.mode)).c_str(), r.config.k, r.cups, speedup.c_str(),
                r.roof_fraction, timed.c_str(), r.host_ms);
  }
  for (const auto& s : skipped) std::printf("skipped (does not fit): %s\n", s.c_str());
  if (!o.json_path.empty()) write_json(o.json_path, ordinal, device, driver, cuda, roof, o.rule, rows);
  return 0;
}

}  // namespace

int bench_main(int argc, char** argv) {
  return exit_status_of("lifestreams bench", [&] {
    const Options options = parse_options(argc, argv);
    if (options.help) {
      std::cout << kUsage;
      return 0;
    }
    return run_bench(options);
  });
}

}  // namespace ls
