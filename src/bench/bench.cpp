// bench.cpp — `lifestreams bench` (bench.hpp): its options through CLI11, then the one-GPU driver,
// or the several-GPU driver when --devices lists more than one GPU.
#include "bench/bench.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_devices.hpp"
#include "bench/bench_one_gpu.hpp"
#include "bench/bench_options.hpp"
#include "control/device_args.hpp"
#include "control/numbers.hpp"
#include "core/error.hpp"
#include "core/lattice.hpp"
#include "kernels/life_kernels.hpp"
#include "multi/band_partition.hpp"
#include "multi/exchange_plan.hpp"
#include "multi/split_tuning.hpp"
#include "sim/cuda_engine.hpp"

namespace ls {

namespace {

constexpr int kMaxTestBands = 8;

const char* const kFooter =
    "With no sweep option: every variant at 1024, 4096 and 16384, bitpacked at 65536; 64 instances of\n"
    "1024x1024 in all three stream modes, timing every frame and one in 8; a sweep of k for iterate and\n"
    "bitpacked at 16384. --timing-period N: the engine's timing events go around one frame in N (the\n"
    "app's --timing-period); default 1, every frame.\n"
    "--devices LIST (comma-separated CUDA devices, or all): with several, rows of one lattice split\n"
    "across them (--instances 1) and of instances spread over them (--instances N > 1), each against\n"
    "the same work on the first one; with no sweep option: every variant split at 16384, bitpacked at\n"
    "65536 and 131072, and 64 x 1024x1024 per GPU spread.\n"
    "mpirun -np R lifestreams bench --distributed ...: one lattice over MPI ranks (see its --help).";

/// The options of tests and tuning, hidden from --help (docs/bench.md).
struct TuningArgs {
  std::optional<std::string> test_bands, bitpacked_shape, split_trim, split_exchange_every;
  bool split_whole_buffer = false;
  bool split_edges_first = false;
  bool split_peer = false;
};

void add_tuning_options(CLI::App& app, TuningArgs& t) {
  app.add_option("--test-bands", t.test_bands, "tests: one listed device runs as N bands or engines (2..8)")
      ->type_name("N")
      ->group("");
  app.add_option("--bitpacked-shape", t.bitpacked_shape, "tuning: every bitpacked launch uses block shape N")
      ->type_name("N")
      ->group("");
  app.add_option("--split-trim", t.split_trim,
                 "tuning: split rows' interiors leave N rows (a multiple of 16)")
      ->type_name("N")
      ->group("");
  app.add_flag("--split-whole-buffer", t.split_whole_buffer,
               "tuning: split rows step whole bands, then exchange (no overlap)")
      ->group("");
  app.add_flag("--split-edges-first", t.split_edges_first,
               "tuning: split rows step edges first, exchanging after every launch")
      ->group("");
  app.add_option("--split-exchange-every", t.split_exchange_every,
                 "tuning: split rows step whole bands and exchange after every N-th launch (1..16)")
      ->type_name("N")
      ->group("");
  app.add_flag("--split-peer", t.split_peer, "tuning: split rows swap halos by peer copies, never NCCL")
      ->group("");
}

/// The tuning options, parsed before any device is used.
struct Tuning {
  std::optional<int> test_bands;
  std::optional<int> bitpacked_shape;
  multi::SplitTuning split;
};

Tuning parse_tuning(const TuningArgs& t) {
  Tuning out;
  if (t.test_bands)
    out.test_bands = static_cast<int>(parse_whole("--test-bands", *t.test_bands, 2, kMaxTestBands));
  if (t.bitpacked_shape) {
    out.bitpacked_shape = static_cast<int>(
        parse_whole("--bitpacked-shape", *t.bitpacked_shape, 0, kernels::bitpacked_shape_count() - 1));
  }
  if (t.split_trim) {
    out.split.trim_rows = static_cast<int>(parse_whole("--split-trim", *t.split_trim, 0, kMaxLatticeSide));
    if (out.split.trim_rows % multi::kHaloGranularity != 0) {
      throw InputError("--split-trim " + *t.split_trim + ": expected a multiple of " +
                       std::to_string(multi::kHaloGranularity) + " rows");
    }
  }
  if (t.split_whole_buffer && t.split_edges_first)
    throw InputError("--split-whole-buffer and --split-edges-first: choose one");
  if (t.split_whole_buffer) out.split.steps = multi::SplitSteps::whole_buffers;
  if (t.split_edges_first) out.split.steps = multi::SplitSteps::edges_first;
  if (t.split_exchange_every) {
    if (t.split_edges_first)
      throw InputError(
          "--split-exchange-every with --split-edges-first: edges first exchange after every launch");
    out.split.exchange_every = static_cast<int>(
        parse_whole("--split-exchange-every", *t.split_exchange_every, 1, multi::kMaxExchangeEvery));
  }
  out.split.peer_only = t.split_peer;
  return out;
}

/// The devices the rows run on: as listed, or with --test-bands N the one listed device N times.
std::vector<int> devices_of(const bench::SweepArgs& a, const Tuning& t) {
  const DeviceList list = device_choice(a.device ? &*a.device : nullptr, a.devices ? &*a.devices : nullptr);
  if (t.test_bands && (list.all || list.ordinals.size() != 1)) {
    throw InputError("--test-bands " + std::to_string(*t.test_bands) +
                     ": runs one listed device as bands; list one device");
  }
  std::string why;
  if (cuda_device_count(&why) == 0 && !a.devices) throw DeviceError("needs a CUDA device (" + why + ")");
  std::vector<int> devices = resolve_devices(a.devices ? "--devices" : "--device", list);
  if (t.test_bands) devices.assign(static_cast<std::size_t>(*t.test_bands), devices.front());
  return devices;
}

}  // namespace

int bench_main(int argc, char** argv) {
  bench::SweepArgs a;
  TuningArgs t;
  CLI::App app{"lifestreams bench: the CUDA kernel variants on lattices of several sizes, timed",
               "lifestreams bench"};
  bench::add_sweep_options(app, a);
  add_tuning_options(app, t);
  app.footer(kFooter);
  return exit_status_of("lifestreams bench", [&] {
    if (!parse_command_line(app, argc, argv)) {
      std::cout << app.help();
      return 0;
    }
    bench::refuse_options_as_values(app);
    const bench::Sweep sweep = bench::parse_sweep(a);
    bench::check_json_writable(sweep.json_path);
    const Tuning tuning = parse_tuning(t);
    const std::vector<int> devices = devices_of(a, tuning);
    if (tuning.bitpacked_shape) kernels::set_bitpacked_shape(*tuning.bitpacked_shape);
    if (devices.size() > 1) return bench::run_devices_bench(sweep, devices, tuning.split);
    return bench::run_one_gpu_bench(sweep, devices.front());
  });
}

}  // namespace ls
