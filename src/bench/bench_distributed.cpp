// bench_distributed.cpp — `lifestreams bench --distributed` (bench_distributed.hpp): every rank of an
// MPI job steps its band of one lattice (the partition of `run --distributed`), halo exchange in the
// loop; the slowest rank's time from a common start gives the whole lattice's rate. Each row is also
// timed with every exchange bracketed (its mean time) and with the exchange left out (what it
// costs a launch). Rank 0 prints the header and the rows and writes the JSON.
#include "bench/bench_distributed.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "control/device_args.hpp"
#include "control/numbers.hpp"
#include "control/distributed_job.hpp"
#include "control/distributed_setup.hpp"
#include "control/json_text.hpp"
#include "core/error.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"
#include "core/trace.hpp"

namespace ls {

namespace {

using app::json_string;
std::string number(double v) { return app::json_number(v); }

constexpr const char* kPrefix = "lifestreams bench";
constexpr int kRepeats = 7;
constexpr double kTargetRepeatMs = 25.0;  // each repeat runs enough launches to take about this long
constexpr int kMaxFramesPerRepeat = 4000;
constexpr int kDefaultK = 16;
constexpr double kDensity = 0.35;  // the bench's soup

const char* const kFooter =
    "Run under mpirun (or srun); alone it is one rank. The lattice is cut into one band per rank, as\n"
    "run --distributed cuts it; --backend cpu: every rank runs the CPU engine (its halos every 16\n"
    "generations by MPI); cuda: one GPU per rank (local rank modulo the GPUs --devices leaves), halos\n"
    "by NCCL after every launch. Defaults: GPU bitpacked at 65536x65536, k=16; CPU 1024 and 4096.\n"
    "A launch (a frame) is k generations on every band and its halo exchange, timed from a barrier to\n"
    "the slowest rank's end (median of 7 repeats after a warm-up); cell updates/s is the whole\n"
    "lattice's. Each row is timed twice more: with every exchange timed (exchange us: its mean, on the\n"
    "slowest rank; GPU: between events on the band's stream, so waiting for a late neighbour counts),\n"
    "and with the exchange left out (exposed: the share of a launch that goes with it).\n"
    "Weak scaling: --rows-per-rank N gives every rank a band of N rows; each --sizes entry is then a\n"
    "width W and the lattice is W x N*R (mpirun -np 2 ... --sizes 65536 --rows-per-rank 65536).\n"
    "Rank 0 prints; the header ends with ' ranks=R' and every JSON row has \"ranks\".";

struct Args {
  bool distributed = false;
  std::optional<std::string> backend, variants, sizes, rows_per_rank, ks, rule, json, device, devices,
      instances, stream_mode, timing_period;
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

struct Config {
  Variant variant = Variant::bitpacked;  // the CPU backend's rows ignore it
  int width = 0;
  int height = 0;
  int k = kDefaultK;
  auto key() const { return std::tuple(static_cast<int>(variant), width, height, k); }
};

struct Row {
  Config config;
  int band_rows = 0;  // the thickest band's rows (rank 0's)
  double cups = 0;
  double median_ms = 0;  // one launch: k generations and the exchange
  int frames = 0;
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

Options to_options(const Args& a) {
  for (const auto& [given, name] :
       {std::pair{&a.instances, "--instances"}, std::pair{&a.stream_mode, "--stream-mode"},
        std::pair{&a.timing_period, "--timing-period"}}) {
    if (*given)
      throw InputError(std::string(name) +
                       ": bench --distributed measures one lattice over the ranks (one band per rank)");
  }
  Options o;
  if (a.backend) o.backend.backend = *a.backend;
  o.backend.devices = device_choice(a.device ? &*a.device : nullptr, a.devices ? &*a.devices : nullptr);
  o.backend.devices_given = a.device || a.devices;
  o.gpu = distributed_wants_gpu(o.backend);
  if (a.variants) {
    for (const auto& item : split_list("--variants", *a.variants)) {
      const auto v = parse_variant(item);
      if (!v)
        throw InputError("--variants: unknown variant \"" + item +
                         "\" (naive, global, shared, iterate, bitpacked)");
      o.variants.push_back(*v);
    }
    o.variants_given = true;
  } else {
    o.variants = {Variant::bitpacked};
  }
  if (a.rows_per_rank) {
    o.rows_per_rank = static_cast<int>(parse_whole("--rows-per-rank", *a.rows_per_rank, 32, kMaxLatticeSide));
    if (o.rows_per_rank % multi::kBandRowGranularity != 0)
      throw InputError("--rows-per-rank " + *a.rows_per_rank + ": expected a multiple of 32");
  }
  if (a.sizes) {
    for (const auto& item : split_list("--sizes", *a.sizes))
      o.sizes.push_back(parse_size(item, o.rows_per_rank > 0));
  } else if (o.gpu) {
    o.sizes = {{65536, o.rows_per_rank ? 0 : 65536}};
  } else {
    o.sizes = {{1024, o.rows_per_rank ? 0 : 1024}, {4096, o.rows_per_rank ? 0 : 4096}};
  }
  if (a.ks) {
    for (const auto& item : split_list("--generations-per-launch", *a.ks))
      o.ks.push_back(
          static_cast<int>(parse_whole("--generations-per-launch", item, 1, kMaxGenerationsPerLaunch)));
  } else {
    o.ks = {kDefaultK};
  }
  if (a.rule) {
    try {
      o.rule = parse_rule(*a.rule);
    } catch (const InputError& e) {
      throw InputError("--rule: " + std::string(e.what()));
    }
  }
  if (a.json) {
    if (a.json->empty()) throw InputError("--json needs a file name");
    o.json_path = *a.json;
  }
  return o;
}

/// The rows to measure, each checked against the ranks' partition (a band too thin is bad input,
/// refused before any communication).
std::vector<Config> sweep(const Options& o, int ranks) {
  std::vector<Config> configs;
  auto add = [&](const Config& c) {
    if (std::none_of(configs.begin(), configs.end(), [&](const Config& d) { return d.key() == c.key(); }))
      configs.push_back(c);
  };
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
        const Config c{v, w, static_cast<int>(height), o.gpu && !variant_iterates(v) ? 1 : k};
        rank_bands(c.height, ranks, o.gpu ? c.variant : Variant::naive, o.gpu ? c.k : 1);
        add(c);
      }
  }
  return configs;
}

// ---- measurement ------------------------------------------------------------------------------

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// `frames` launches of k generations on every rank, from a barrier to the slowest rank's end
/// (milliseconds, the same value on every rank).
double time_frames(dist::DistributedLattice& lattice, const dist::BandComm& comm, int frames, int k) {
  lattice.finish();
  comm.barrier();
  const auto start = std::chrono::steady_clock::now();
  for (int f = 0; f < frames; ++f) lattice.step(k);
  lattice.finish();
  const double mine =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return comm.longest(mine);
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
  void print_table(const std::vector<Row>& rows) const;
  void write_json(const std::string& device, const std::vector<Row>& rows) const;

  Options o_;
  std::vector<Config> configs_;
  const dist::MpiSession& mpi_;
  const dist::BandComm& comm_;
  std::unique_ptr<dist::DistributedLattice> lattice_;  // the row being measured
  std::vector<std::string> skipped_;
};

std::optional<Row> BenchJob::measure(const Config& c) {
  InstanceSpec spec;
  spec.width = c.width;
  spec.height = c.height;
  spec.rule = o_.rule;
  spec.variant = c.variant;
  spec.generations_per_launch = c.k;
  spec.init = RandomInit{kDensity, 1};
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
  double one = time_frames(lattice, comm_, 2, c.k) / 2;
  one = std::min(one, time_frames(lattice, comm_, 2, c.k) / 2);
  const int frames =
      std::clamp(static_cast<int>(std::ceil(kTargetRepeatMs / std::max(one, 1e-4))), 1, kMaxFramesPerRepeat);
  std::vector<double> with, without;
  for (int r = 0; r < kRepeats; ++r) with.push_back(time_frames(lattice, comm_, frames, c.k) / frames);
  lattice.start_exchange_timing();
  time_frames(lattice, comm_, frames, c.k);
  const auto timing = lattice.exchange_timing();
  row.exchanges_timed = timing.count;
  row.exchange_us = comm_.longest(timing.mean_seconds) * 1e6;
  // Last: without the exchange the bands drift from the lattice (timing only).
  lattice.set_exchange(false);
  for (int r = 0; r < kRepeats; ++r) without.push_back(time_frames(lattice, comm_, frames, c.k) / frames);
  lattice_.reset();

  row.frames = frames;
  row.median_ms = median(with);
  row.no_exchange_ms = median(without);
  row.exposed = std::max(0.0, (row.median_ms - row.no_exchange_ms) / row.median_ms);
  row.cups = static_cast<double>(c.width) * c.height * c.k / (row.median_ms * 1e-3);
  return row;
}

void BenchJob::print_header(const std::string& device) const {
  std::printf("lifestreams bench: %s, backend %s, rule %s ranks=%d\n", device.c_str(), backend_name().c_str(),
              o_.rule.to_string().c_str(), comm_.size());
  std::printf(
      "distributed: one lattice in %d band%s, one per rank, as run --distributed cuts it. A launch is k\n"
      "  generations on every band and its halo exchange (%s),\n"
      "  timed from a barrier to the slowest rank's end, median of %d repeats. cell updates/s: the whole\n"
      "  lattice's. exchange us: one exchange's mean time on the slowest rank; exposed: the share of a\n"
      "  launch that goes when the exchange is left out.\n\n",
      comm_.size(), comm_.size() == 1 ? "" : "s",
      o_.gpu ? "NCCL, after every launch" : "MPI, every 16 generations", kRepeats);
  std::fflush(stdout);
}

void BenchJob::print_table(const std::vector<Row>& rows) const {
  std::printf("%-10s %-15s %5s %9s %3s %15s %15s %10s %12s %8s\n", "variant", "lattice", "ranks", "band rows",
              "k", "cell updates/s", "per rank", "ms/launch", "exchange us", "exposed");
  for (const Row& r : rows) {
    const std::string lattice = std::to_string(r.config.width) + "x" + std::to_string(r.config.height);
    std::printf("%-10s %-15s %5d %9d %3d %15.3e %15.3e %10.4f %12.1f %7.1f%%\n", variant_of(r.config).c_str(),
                lattice.c_str(), comm_.size(), r.band_rows, r.config.k, r.cups, r.cups / comm_.size(),
                r.median_ms, r.exchange_us, 100 * r.exposed);
  }
  for (const auto& s : skipped_) std::printf("skipped (does not fit): %s\n", s.c_str());
  std::fflush(stdout);
}

void BenchJob::write_json(const std::string& device, const std::vector<Row>& rows) const {
  std::ostringstream out;
  out << "{\"device\": " << json_string(device) << ", \"backend\": " << json_string(backend_name())
      << ", \"ranks\": " << comm_.size() << ", \"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out << (i ? ",\n  " : "\n  ") << "{\"variant\": " << json_string(variant_of(r.config))
        << ", \"width\": " << r.config.width << ", \"height\": " << r.config.height
        << ", \"ranks\": " << comm_.size() << ", \"band_rows\": " << r.band_rows
        << ", \"weak_scaling\": " << (o_.rows_per_rank ? "true" : "false")
        << ", \"generations_per_launch\": " << r.config.k
        << ", \"rule\": " << json_string(o_.rule.to_string()) << ", \"cups\": " << number(r.cups)
        << ", \"cups_per_rank\": " << number(r.cups / comm_.size()) << ", \"repeats\": " << kRepeats
        << ", \"median_ms\": " << number(r.median_ms) << ", \"frames_per_repeat\": " << r.frames
        << ", \"exchange_us\": " << number(r.exchange_us) << ", \"exchanges_timed\": " << r.exchanges_timed
        << ", \"no_exchange_ms\": " << number(r.no_exchange_ms)
        << ", \"exposed_fraction\": " << number(r.exposed) << "}";
  }
  out << "\n]}\n";
  std::ofstream file(o_.json_path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError("--json: cannot write \"" + o_.json_path + "\"");
  file << out.str();
  if (!file.flush()) throw InputError("--json: cannot write \"" + o_.json_path + "\"");
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
                     row->median_ms, row->no_exchange_ms, row->exchange_us);
      }
      rows.push_back(*row);
    }
  }
  int status = 0;
  if (speak) {
    print_table(rows);
    if (!o_.json_path.empty()) {
      status = exit_status_of(kPrefix, [&] {
        write_json(device, rows);
        return 0;
      });
    }
  }
  return comm_.from_rank0(status);
}

}  // namespace

int bench_distributed_main(int argc, char** argv) {
  Args a;
  CLI::App app{"lifestreams bench --distributed: one lattice over the ranks of an MPI job, timed",
               "mpirun -np R lifestreams bench --distributed"};
  app.add_flag("--distributed", a.distributed, "one lattice over the ranks of an MPI job (required here)");
  app.add_option("--backend", a.backend, "auto, cpu or cuda (default auto)")->type_name("NAME");
  app.add_option("--variants", a.variants,
                 "GPU kernels: naive, global, shared, iterate, bitpacked (default bitpacked)")
      ->type_name("LIST");
  app.add_option("--sizes", a.sizes,
                 "lattices WxH or N (N x N), comma-separated; widths with --rows-per-rank")
      ->type_name("LIST");
  app.add_option("--rows-per-rank", a.rows_per_rank,
                 "weak scaling: every rank a band of N rows (a multiple of 32); the lattice is W x N*R")
      ->type_name("N");
  app.add_option("--generations-per-launch", a.ks,
                 "k for iterate and bitpacked, comma-separated (default 16)")
      ->type_name("LIST");
  app.add_option("--rule", a.rule, "B/S or S/B rule (default B3/S23)")->type_name("R");
  app.add_option("--json", a.json, "also write the rows as JSON (rank 0)")->type_name("FILE");
  app.add_option("--device", a.device, "the one GPU of every rank; the same as --devices N")->type_name("N");
  app.add_option("--devices", a.devices, "the GPUs ranks take, comma-separated, or all (default all)")
      ->type_name("LIST");
  app.add_option("--instances", a.instances, "not with --distributed: one lattice over the ranks")
      ->type_name("N");
  app.add_option("--stream-mode", a.stream_mode, "not with --distributed")->type_name("MODE");
  app.add_option("--timing-period", a.timing_period, "not with --distributed")->type_name("N");
  app.footer(kFooter);
  return run_distributed_job(
      kPrefix,
      [&](const dist::MpiSession& mpi, const dist::BandComm& comm,
          bool speak) -> std::unique_ptr<DistributedJob> {
        if (!parse_command_line(app, argc, argv)) {
          if (speak) std::cout << app.help();
          return nullptr;
        }
        Options o = to_options(a);
        // A JSON path that cannot be written is a bad argument: said before minutes of measuring.
        if (speak && !o.json_path.empty() && !std::ofstream(o.json_path, std::ios::app))
          throw InputError("--json: cannot write \"" + o.json_path + "\"");
        std::vector<Config> configs = sweep(o, mpi.size());
        return std::make_unique<BenchJob>(std::move(o), std::move(configs), mpi, comm);
      });
}

}  // namespace ls
