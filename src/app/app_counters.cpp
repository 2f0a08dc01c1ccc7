// app_counters.cpp — implements app_counters.hpp.
#include "app/app_counters.hpp"

#include <iostream>
#include <vector>

#include "app/options.hpp"
#include "app/run_figures.hpp"
#include "control/gpu_facts.hpp"
#include "core/error.hpp"
#include "counters/composite_source.hpp"
#if defined(LIFESTREAMS_HAVE_CUPTI)
#include "counters/cupti_source.hpp"
#endif
#include "counters/fake_source.hpp"
#include "counters/nvml_source.hpp"
#include "counters/retrying_source.hpp"

namespace ls::app {

namespace {

/// How often CUPTI's PM sampling is tried again while it cannot start (another profiler holds
/// the counters).
constexpr double kCuptiRetryMs = 10000;

/// Where there are no counters, a --counters-csv file still gets its header (so a path that
/// cannot be written is refused as it would be with counters), and the user is told why it stays
/// empty.
void header_only_csv(const std::string& path, const std::string& why) {
  if (path.empty()) return;
  counters::open_counter_csv(path);
  std::cerr << "lifestreams: note: --counters-csv " << path << " gets no readings: " << why << "\n";
}

}  // namespace

AppCounters::AppCounters(const Options& options, const Engine& engine) {
  start(options, engine);
  if (!sampler_) header_only_csv(options.counters_csv, off_reason_);
}

void AppCounters::start(const Options& options, const Engine& engine) {
  if (options.counters == "off") {
    off_ = true;
    return;
  }
  const std::vector<int> devices = devices_in_use(engine);
  counters::SamplerOptions sampling;
  sampling.csv_path = options.counters_csv;
  if (options.test_counters_fake) {
    sampler_ = std::make_unique<counters::CounterSampler>(
        std::make_unique<counters::FakeSource>(devices.empty() ? std::vector<int>{0} : devices), sampling);
    return;
  }
  if (engine.backend() != "cuda" || devices.empty()) {
    off_reason_ = "no GPU in use (the instances run on the CPU engine)";
    return;
  }
  // CUPTI's PM sampling for the SM and memory counters, NVML for clocks and power: each that opens.
  std::vector<std::unique_ptr<counters::CounterSource>> parts;
#if defined(LIFESTREAMS_HAVE_CUPTI)
  // Another profiler may hold the counter unit now and free it later: tried again now and then.
  parts.push_back(std::make_unique<counters::RetryingSource>(
      "CUPTI PM sampling",
      [devices](std::string& why) -> std::unique_ptr<counters::CounterSource> {
        return counters::CuptiSource::open(devices, why);
      },
      kCuptiRetryMs));
#else
  missing_ = "CUPTI PM sampling: this build has no CUPTI headers";
#endif
  std::vector<counters::NvmlGpu> gpus;
  for (const int d : devices) gpus.push_back(counters::NvmlGpu{d, pci_bus_id(d)});
  std::string nvml_why;
  if (auto nvml = counters::NvmlSource::open(gpus, nvml_why))
    parts.push_back(std::move(nvml));
  else
    missing_ += (missing_.empty() ? "" : "; ") + std::string("NVML: ") + nvml_why;
  if (parts.empty()) {
    off_reason_ = missing_;
    missing_.clear();
    return;
  }
  sampler_ = std::make_unique<counters::CounterSampler>(
      std::make_unique<counters::CompositeSource>(std::move(parts)), sampling);
}

std::string AppCounters::source_line() const {
  if (sampler_) return sampler_->source_line() + (missing_.empty() ? "" : " (none from " + missing_ + ")");
  return off_ ? std::string("off") : "none: " + off_reason_;
}

void AppCounters::report(RunFigures& figures) const {
  figures.counters_source = source_line();
  figures.counter_means.clear();
  if (sampler_) figures.counter_means = sampler_->means();
}

}  // namespace ls::app
