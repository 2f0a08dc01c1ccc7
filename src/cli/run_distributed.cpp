// cli_run_distributed.cpp — `lifestreams run --distributed`: every rank checks the options and files
// and builds its band (distributed_setup.hpp), the ranks agree that all went well
// (distributed_job.hpp), then rank 0 prints the lines of a one-process run while every rank steps
// its band (src/dist), and rank 0 writes --output.
#include "cli/run_distributed.hpp"

#include <memory>
#include <string>

#include "cli/progress_line.hpp"
#include "control/distributed_job.hpp"
#include "control/distributed_setup.hpp"
#include "control/numbers.hpp"
#include "core/error.hpp"
#include "core/trace.hpp"

namespace ls {

namespace {

constexpr const char* kPrefix = "lifestreams run";

DistributedBackend backend_of(const RunOptions& o) { return {o.backend, o.devices, o.devices_given}; }

class RunJob final : public DistributedJob {
 public:
  RunJob(RunOptions options, RunStart start, std::unique_ptr<dist::DistributedLattice> lattice,
         const dist::BandComm& comm)
      : o_(std::move(options)), start_(std::move(start)), lattice_(std::move(lattice)), comm_(comm) {}

  int run() override;
  void abort() noexcept override { lattice_->abort(); }

 private:
  RunOptions o_;
  RunStart start_;
  std::unique_ptr<dist::DistributedLattice> lattice_;
  const dist::BandComm& comm_;
};

int RunJob::run() {
  dist::DistributedLattice& lattice = *lattice_;
  const bool speak = comm_.rank() == 0;
  lattice.connect();
  if (speak) {
    if (lattice.backend() == "cpu") {
      note_cpu_variant(o_);
      note_cpu_devices(kPrefix, backend_of(o_));
    }
    print_run_header(lattice.backend(), lattice.variant(), lattice.device_name(), start_,
                     " ranks=" + std::to_string(comm_.size()));
  }
  auto summary = [&] {
    const StateSummary s = lattice.summarize();
    if (speak) print_summary(s);
  };
  summary();
  ProgressLine progress(o_.generations, static_cast<double>(start_.spec.width) * start_.spec.height,
                        start_.spec.generations_per_launch, speak && ProgressLine::stderr_is_terminal(),
                        /*always_pieces=*/true);
  step_in_chunks(
      o_.generations, o_.every,
      [&](int n) {
        progress.step_in_pieces(
            n,
            [&](int piece) {
              const trace::Scope range(trace::Phase::run_step);
              lattice.step(piece);
            },
            [&] { lattice.finish(); });
      },
      [&](long long) {
        progress.clear();
        summary();
      });
  progress.clear();
  int status = 0;
  if (!o_.output.empty()) {
    const Lattice whole = lattice.gather();
    if (speak) {
      status = exit_status_of(kPrefix, [&] {
        write_output(o_.output, whole, start_.rule_text, o_.generations);
        return 0;
      });
    }
  }
  return comm_.from_rank0(status);
}

}  // namespace

int run_distributed(const std::function<std::optional<RunOptions>(bool speak)>& parse) {
  return run_distributed_job(
      kPrefix,
      [&](const dist::MpiSession& mpi, const dist::BandComm& comm,
          bool speak) -> std::unique_ptr<DistributedJob> {
        std::optional<RunOptions> options = parse(speak);
        if (!options) return nullptr;
        RunStart start = resolve_start(*options);
        if (speak && !options->output.empty()) check_output_writable(options->output);
        const DistributedBackend backend = backend_of(*options);
        const bool gpu = distributed_wants_gpu(backend);
        auto lattice = make_distributed_lattice(backend, gpu, start.spec,
                                                start.pattern ? &*start.pattern : nullptr, mpi, comm);
        return std::make_unique<RunJob>(std::move(*options), std::move(start), std::move(lattice), comm);
      });
}

}  // namespace ls
