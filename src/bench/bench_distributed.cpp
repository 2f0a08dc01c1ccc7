// bench_distributed.cpp — `lifestreams bench --distributed` (bench_distributed.hpp): every rank of an
// MPI job steps its band of one lattice (the partition of `run --distributed`), halo exchange in the
// loop; the slowest rank's time from a common start gives the whole lattice's rate. Each row is also
// timed with every exchange bracketed (its mean time) and with the exchange left out (what it
// costs a launch). Rank 0 prints the header and the rows and writes the JSON.
#include "bench/bench_distributed.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/bench_measure.hpp"
#include "bench/bench_options.hpp"
#include "bench/bench_report.hpp"
#include "control/device_args.hpp"
#include "control/distributed_job.hpp"
#include "control/distributed_setup.hpp"
#include "control/numbers.hpp"
#include "core/error.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"
#include "core/trace.hpp"

namespace ls {

namespace {

using bench::Config;
using bench::JsonObject;
using bench::kDefaultK;
using bench::kRepeats;
using bench::Timed;

constexpr const char* kPrefix = "lifestreams bench";

const char* const kFooter =
    "Run under mpirun (or srun); alone it is one rank. The lattice is cut into one band per rank, as\n"
    "run --distributed cuts it; --backend cpu: every rank runs the CPU engine (its halos every 16\n"
    "generations by MPI); cuda: one GPU per rank (local rank modulo the GPUs --devices leaves), halos\n"
    "by NCCL after every launch, or every few launches with halos that deep where launches are short\n"
    "(docs/multi-gpu.md). Defaults: GPU bitpacked at 65536x65536, k=16; CPU 1024 and 4096.\n"
    "A launch (a frame) is k generations on every band and its share of the halo exchanges, timed\n"
    "from a barrier to the slowest rank's end (median of 7 repeats after a warm-up); cell updates/s\n"
    "is the whole lattice's. Each row is timed twice more: with every exchange timed (exchange us: its\n"
    "mean, on the slowest rank; GPU: between events on the band's stream, so waiting for a late\n"
    "neighbour counts), and with the exchange left out (exposed: the share of a launch that goes with\n"
    "it).\n"
    "Weak scaling: --rows-per-rank N gives every rank a band of N rows; each --sizes entry is then a\n"
    "width W and the lattice is W x N*R (mpirun -np 2 ... --sizes 65536 --rows-per-rank 65536).\n"
    "Rank 0 prints; the header ends with ' ranks=R' and every JSON row has \"ranks\".";

struct Args {
  bench::SweepArgs sweep;
  bool distributed = false;
  std::optional<std::string> backend, rows_per_rank;
};

struct Options {
  DistributedBackend backend;
  bool gpu = false;
  std::vector<Variant> variants;
  bool variants_given = false;
  std::vector<std::pair<int, int>> sizes;  // with rows_per_rank: the width, height 0
  int rows_per_rank = 0;                   // 0: --sizes give the heights
  std::vector<int> ks;
  Rule rule = Rule::life();
  std::string json_path;
};

// A row's Config: one instance; its variant is ignored by the CPU backend.
struct Row {
  Config config;
  int band_rows = 0;  // the thickest band's rows (rank 0's)
  double cups = 0;
  bench::Repeats timed;  // ms: one launch, k generations and the exchange
  long long exchanges_timed = 0;
  double exchange_us = 0;
  double no_exchange_ms = 0;
  double exposed = 0;
};

// ---- options ----------------------------------------------------------------------------------

std::pair<int, int> parse_size(std::string_view text, bool width_only) {
  if (!width_only) return parse_lattice_size("--sizes", text);
  if (text.find_first_of("xX") != std::string_view::npos)
    throw InputError("--sizes " + std::string(text) +
                     ": with --rows-per-rank a size is a width (the height is rows per rank x ranks)");
  return {static_cast<int>(parse_whole("--sizes", text, 32, kMaxLatticeSide)), 0};
}

Options to_options(const Args& args) {
  const bench::SweepArgs& a = args.sweep;
  for (const auto& [given, name] :
       {std::pair{&a.instances, "--instances"}, std::pair{&a.stream_mode, "--stream-mode"},
        std::pair{&a.timing_period, "--timing-period"}}) {
    if (*given)
      throw InputError(std::string(name) +
                       ": bench --distributed measures one lattice over the ranks (one band per rank)");
  }
  Options o;
  if (args.backend) o.backend.backend = *args.backend;
  o.backend.devices = device_choice(a.device ? &*a.device : nullptr, a.devices ? &*a.devices : nullptr);
  o.backend.devices_given = a.device || a.devices;
  o.gpu = distributed_wants_gpu(o.backend);
  o.variants_given = a.variants.has_value();
  o.variants = a.variants ? bench::parse_variants(*a.variants) : std::vector<Variant>{Variant::bitpacked};
  if (args.rows_per_rank) {
    o.rows_per_rank =
        static_cast<int>(parse_whole("--rows-per-rank", *args.rows_per_rank, 32, kMaxLatticeSide));
    if (o.rows_per_rank % multi::kBandRowGranularity != 0)
      throw InputError("--rows-per-rank " + *args.rows_per_rank + ": expected a multiple of 32");
  }
  if (a.sizes) {
    for (const auto& item : split_list("--sizes", *a.sizes))
      o.sizes.push_back(parse_size(item, o.rows_per_rank > 0));
  } else if (o.gpu) {
    o.sizes = {{65536, o.rows_per_rank ? 0 : 65536}};
  } else {
    o.sizes = {{1024, o.rows_per_rank ? 0 : 1024}, {4096, o.rows_per_rank ? 0 : 4096}};
  }
  o.ks = a.ks ? bench::parse_generations_per_launch(*a.ks) : std::vector<int>{kDefaultK};
  if (a.rule) o.rule = bench::parse_rule_option(*a.rule);
  if (a.json) o.json_path = bench::parse_json_option(*a.json);
  return o;
}

/// The rows to measure, each checked against the ranks' partition (a band too thin is bad input,
/// refused before any communication).
std::vector<Config> sweep(const Options& o, int ranks) {
  std::vector<Config> configs;
  for (const auto& [w, h] : o.sizes) {
    const long long height = o.rows_per_rank ? static_cast<long long>(o.rows_per_rank) * ranks : h;
    try {
      check_lattice_size(w, height);
    } catch (const InputError& e) {
      throw InputError(o.rows_per_rank ? "--rows-per-rank " + std::to_string(o.rows_per_rank) + " x " +
                                             std::to_string(ranks) + " ranks: " + e.what()
                                       : std::string("--sizes: ") + e.what());
    }
    for (const Variant v : o.gpu ? o.variants : std::vector<Variant>{Variant::naive})
      for (const int k : o.ks) {
        Config c;
        c.variant = v;
        c.width = w;
        c.height = static_cast<int>(height);
        c.k = o.gpu ? bench::depth(v, k) : k;
        rank_bands(c.height, ranks, o.gpu ? c.variant : Variant::naive, o.gpu ? c.k : 1);
        bench::add_unique(configs, c);
      }
  }
  return configs;
}

// ---- measurement ------------------------------------------------------------------------------

/// `frames` launches of k generations on every rank, from a barrier to the slowest rank's end
/// (milliseconds, the same value on every rank).
Timed time_frames(dist::DistributedLattice& lattice, const dist::BandComm& comm, int frames, int k) {
  lattice.finish();
  comm.barrier();
  const auto start = std::chrono::steady_clock::now();
  for (int f = 0; f < frames; ++f) lattice.step(k);
  lattice.finish();
  const double mine =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return {comm.longest(mine), 0};
}

// ---- output -----------------------------------------------------------------------------------

class BenchJob final : public DistributedJob {
 public:
  BenchJob(Options o, std::vector<Config> configs, const dist::MpiSession& mpi, const dist::BandComm& comm)
      : o_(std::move(o)), configs_(std::move(configs)), mpi_(mpi), comm_(comm) {}

  int run() override;
  void abort() noexcept override {
    if (lattice_) lattice_->abort();
  }

 private:
  /// One row, every rank together; nullopt when a band did not fit on some rank (said in skipped_).
  std::optional<Row> measure(const Config& c);
  std::string backend_name() const { return o_.gpu ? "cuda" : "cpu"; }
  std::string variant_of(const Config& c) const {
    return o_.gpu ? std::string(variant_name(c.variant)) : std::string("cpu");
  }
  void print_header(const std::string& device) const;
  void print_rows(const std::vector<Row>& rows) const;
  void write_rows_json(const std::string& device, const std::vector<Row>& rows) const;

  Options o_;
  std::vector<Config> configs_;
  const dist::MpiSession& mpi_;
  const dist::BandComm& comm_;
  std::unique_ptr<dist::DistributedLattice> lattice_;  // the row being measured
  std::vector<std::string> skipped_;
};

std::optional<Row> BenchJob::measure(const Config& c) {
  const InstanceSpec spec = bench::spec_of(c, o_.rule, 0);
  // Made without communicating, then agreed on: a band that does not fit anywhere skips the row
  // everywhere (as the one-process bench skips a lattice that does not fit).
  std::string why;
  int status = 0;
  try {
    lattice_ = make_distributed_lattice(o_.backend, o_.gpu, spec, nullptr, mpi_, comm_);
  } catch (const InputError& e) {
    status = 2;
    why = e.what();
  } catch (const std::bad_alloc&) {
    status = 2;
    why = "out of host memory";
  }
  if (comm_.worst(status) != 0) {
    const int first = comm_.least(status != 0 ? comm_.rank() : comm_.size());
    if (comm_.rank() == 0) {
      skipped_.push_back(variant_of(c) + " " + std::to_string(c.width) + "x" + std::to_string(c.height) +
                         ": " + (first == 0 ? why : "does not fit on rank " + std::to_string(first)));
    }
    lattice_.reset();
    return std::nullopt;
  }
  dist::DistributedLattice& lattice = *lattice_;
  lattice.connect();

  Row row;
  row.config = c;
  row.band_rows =
      rank_bands(c.height, comm_.size(), o_.gpu ? c.variant : Variant::naive, o_.gpu ? c.k : 1).front().rows;
  // Warm up (kernels loaded, communicators connected, clocks up), then size a repeat; the slowest
  // rank's time is every rank's, so every rank runs the same launches.
  const bench::TimeFrames time = [&](int frames) { return time_frames(lattice, comm_, frames, c.k); };
  row.timed = bench::measure_repeats(time);
  lattice.start_exchange_timing();
  time(row.timed.frames);
  const auto timing = lattice.exchange_timing();
  row.exchanges_timed = timing.count;
  row.exchange_us = comm_.longest(timing.mean_seconds) * 1e6;
  // Last: without the exchange the bands drift from the lattice (timing only).
  lattice.set_exchange(false);
  row.no_exchange_ms = bench::repeat_median(time, row.timed.frames);
  lattice_.reset();

  row.exposed = std::max(0.0, (row.timed.ms - row.no_exchange_ms) / row.timed.ms);
  row.cups = c.cells_per_frame() / (row.timed.ms * 1e-3);
  return row;
}

void BenchJob::print_header(const std::string& device) const {
  std::printf("lifestreams bench: %s, backend %s, rule %s ranks=%d\n", device.c_str(), backend_name().c_str(),
              o_.rule.to_string().c_str(), comm_.size());
  std::printf(
      "distributed: one lattice in %d band%s, one per rank, as run --distributed cuts it. A launch is k\n"
      "  generations on every band and its share of the halo exchanges\n"
      "  (%s), timed from a barrier to the slowest rank's end, median of %d repeats. cell updates/s: the "
      "whole\n"
      "  lattice's. exchange us: one exchange's mean time on the slowest rank; exposed: the share of a\n"
      "  launch that goes when the exchange is left out.\n\n",
      comm_.size(), comm_.size() == 1 ? "" : "s",
      o_.gpu ? "NCCL, after every launch or every few with deeper halos" : "MPI, every 16 generations",
      kRepeats);
  std::fflush(stdout);
}

void BenchJob::print_rows(const std::vector<Row>& rows) const {
  const int ranks = comm_.size();
  bench::print_table(bench::columns_of("%-10s %-15s %5s %9s %3s %15s %15s %10s %12s %8s",
                                       {"variant", "lattice", "ranks", "band rows", "k", "cell updates/s",
                                        "per rank", "ms/launch", "exchange us", "exposed"}),
                     rows, [&](const Row& r) -> std::vector<std::string> {
                       return {variant_of(r.config),
                               r.config.lattice(),
                               std::to_string(ranks),
                               std::to_string(r.band_rows),
                               std::to_string(r.config.k),
                               bench::formatted("%.3e", r.cups),
                               bench::formatted("%.3e", r.cups / ranks),
                               bench::formatted("%.4f", r.timed.ms),
                               bench::formatted("%.1f", r.exchange_us),
                               bench::formatted("%.1f%%", 100 * r.exposed)};
                     });
  for (const auto& s : skipped_) std::printf("skipped (does not fit): %s\n", s.c_str());
  std::fflush(stdout);
}

void BenchJob::write_rows_json(const std::string& device, const std::vector<Row>& rows) const {
  JsonObject top;
  top.text("device", device).text("backend", backend_name()).whole("ranks", comm_.size());
  std::vector<JsonObject> json_rows;
  for (const Row& r : rows) {
    JsonObject& o = json_rows.emplace_back();
    o.text("variant", variant_of(r.config)).whole("width", r.config.width).whole("height", r.config.height);
    o.whole("ranks", comm_.size())
        .whole("band_rows", r.band_rows)
        .boolean("weak_scaling", o_.rows_per_rank > 0);
    o.whole("generations_per_launch", r.config.k).text("rule", o_.rule.to_string()).number("cups", r.cups);
    o.number("cups_per_rank", r.cups / comm_.size()).whole("repeats", kRepeats);
    o.number("median_ms", r.timed.ms).whole("frames_per_repeat", r.timed.frames);
    o.number("exchange_us", r.exchange_us).whole("exchanges_timed", r.exchanges_timed);
    o.number("no_exchange_ms", r.no_exchange_ms).number("exposed_fraction", r.exposed);
  }
  bench::write_json(o_.json_path, top, json_rows);
}

int BenchJob::run() {
  const bool speak = comm_.rank() == 0;
  const std::string device = rank_device_name(o_.backend, o_.gpu, mpi_.local_rank());
  if (speak) {
    if (!o_.gpu) {
      if (o_.variants_given)
        std::cerr
            << kPrefix
            << ": note: --variants applies to the CUDA backend; the CPU engine runs its reference code\n";
      note_cpu_devices(kPrefix, o_.backend);
    }
    print_header(device);
  }
  std::vector<Row> rows;
  for (const Config& c : configs_) {
    if (speak) {
      std::fprintf(stderr, "bench: %s %dx%d ranks=%d k=%d ...\n", variant_of(c).c_str(), c.width, c.height,
                   comm_.size(), c.k);
    }
    const trace::Scope range("bench --distributed " + variant_of(c) + " " + std::to_string(c.width) + "x" +
                             std::to_string(c.height) + " k=" + std::to_string(c.k));
    if (auto row = measure(c)) {
      if (speak) {
        std::fprintf(stderr, "bench:   %.4f ms per launch (%.4f without the exchange), exchange %.1f us\n",
                     row->timed.ms, row->no_exchange_ms, row->exchange_us);
      }
      rows.push_back(*row);
    }
  }
  int status = 0;
  if (speak) {
    print_rows(rows);
    if (!o_.json_path.empty()) {
      status = exit_status_of(kPrefix, [&] {
        write_rows_json(device, rows);
        return 0;
      });
    }
  }
  return comm_.from_rank0(status);
}

/// The options of every bench (bench_options.hpp) as --distributed reads them, and its own.
void add_options(CLI::App& app, Args& a) {
  app.add_flag("--distributed", a.distributed, "one lattice over the ranks of an MPI job (required here)");
  app.add_option("--backend", a.backend, "auto, cpu or cuda (default auto)")->type_name("NAME");
  bench::add_sweep_options(app, a.sweep);
  app.add_option("--rows-per-rank", a.rows_per_rank,
                 "weak scaling: every rank a band of N rows (a multiple of 32); the lattice is W x N*R")
      ->type_name("N");
  const auto say = [&](const char* name, const char* description) {
    app.get_option(name)->description(description);
  };
  say("--variants", "GPU kernels: naive, global, shared, iterate, bitpacked (default bitpacked)");
  say("--sizes", "lattices WxH or N (N x N), comma-separated; widths with --rows-per-rank");
  say("--generations-per-launch", "k for iterate and bitpacked, comma-separated (default 16)");
  say("--json", "also write the rows as JSON (rank 0)");
  say("--device", "the one GPU of every rank; the same as --devices N");
  say("--devices", "the GPUs ranks take, comma-separated, or all (default all)");
  say("--instances", "not with --distributed: one lattice over the ranks");
  say("--stream-mode", "not with --distributed");
  say("--timing-period", "not with --distributed");
}

}  // namespace

int bench_distributed_main(int argc, char** argv) {
  Args a;
  CLI::App app{"lifestreams bench --distributed: one lattice over the ranks of an MPI job, timed",
               "mpirun -np R lifestreams bench --distributed"};
  add_options(app, a);
  app.footer(kFooter);
  return run_distributed_job(kPrefix,
                             [&](const dist::MpiSession& mpi, const dist::BandComm& comm,
                                 bool speak) -> std::unique_ptr<DistributedJob> {
                               if (!parse_command_line(app, argc, argv)) {
                                 if (speak) std::cout << app.help();
                                 return nullptr;
                               }
                               Options o = to_options(a);
                               if (speak) bench::check_json_writable(o.json_path);
                               std::vector<Config> configs = sweep(o, mpi.size());
                               return std::make_unique<BenchJob>(std::move(o), std::move(configs), mpi, comm);
                             });
}

}  // namespace ls
