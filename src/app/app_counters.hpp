// app_counters.hpp — the app's hardware counters: which source the options and the engine allow
// (NVML on the GPUs in use, the fake source for the tests, or none and why), its sampler started
// with the app, and what the panel and the report take from it.
#pragma once

#include <memory>
#include <string>

#include "core/engine.hpp"
#include "counters/sampler.hpp"

namespace ls::app {

struct Options;
struct RunFigures;

class AppCounters {
 public:
  /// Starts sampling the GPUs `engine` uses, unless --counters off or there are none; then
  /// source_line() says why. InputError when --counters-csv cannot be written.
  AppCounters(const Options& options, const Engine& engine);

  /// The sampler, or null when there are no counters.
  counters::CounterSampler* sampler() const { return sampler_.get(); }
  /// The API the readings come from, or why there are none, in one line.
  std::string source_line() const;
  /// Puts the source line and each (GPU, counter)'s mean over the run into `figures`.
  void report(RunFigures& figures) const;

 private:
  void start(const Options& options, const Engine& engine);

  std::unique_ptr<counters::CounterSampler> sampler_;
  bool off_ = false;        // --counters off
  std::string off_reason_;  // why there is no sampler
  std::string missing_;     // the sources that did not open, and why, beside a sampler
};

}  // namespace ls::app
