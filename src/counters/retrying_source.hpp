// retrying_source.hpp — a source that may not open at first: another profiler (Nsight Compute,
// DCGM) can hold a GPU's counter unit when the app starts, or take it later. Until the source opens,
// every read fails with the reason the last try gave, and it is tried again every retry_ms; a
// source whose reads start failing is closed and reopened the same way.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "counters/counter_source.hpp"

namespace ls::counters {

class RetryingSource final : public CounterSource {
 public:
  /// Opens a source, or returns null with `why` set.
  using Opener = std::function<std::unique_ptr<CounterSource>(std::string& why)>;

  /// Tries `open` at once and then every `retry_ms` while it fails. `name` stands for the source
  /// before it opens; `period_ms` is the read period until then.
  RetryingSource(std::string name, Opener open, double retry_ms = 10000, double period_ms = 10);
  std::string name() const override { return name_; }
  std::vector<Counter> counters() const override;
  bool read(double t_ms, std::vector<Sample>& out) override;
  std::string why() const override { return why_; }
  double period_ms() const override { return source_ ? source_->period_ms() : period_ms_; }
  /// Whether the source is open now.
  bool open() const { return source_ != nullptr; }

 private:
  void try_open(double t_ms);

  std::string name_;
  Opener open_;
  double retry_ms_;
  double period_ms_;
  std::unique_ptr<CounterSource> source_;
  double last_try_ms_ = 0;
  std::string why_;
};

}  // namespace ls::counters
