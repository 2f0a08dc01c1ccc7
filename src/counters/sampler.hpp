// sampler.hpp — reads a CounterSource on a thread of its own, as often as the source allows, and
// keeps the last seconds of readings for the panel, running means for the report, and optionally
// every reading in a CSV file. The frame loop only copies what is kept (a short lock); it never
// waits for a read and the sampler never waits for a frame.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "counters/counter_source.hpp"
#include "counters/strips.hpp"

namespace ls::counters {

struct SamplerOptions {
  /// Readings older than this are dropped from the kept window (not from the means or the CSV).
  double keep_ms = 10000;
  /// Where every reading goes as `time_ms,gpu,counter,value` lines; empty: no file.
  std::string csv_path;
  /// After a failed read, the next try comes this much later (a counter unit held by another
  /// profiler frees up now and then).
  double retry_ms = 1000;
};

/// Opens `path` for the readings (`time_ms,gpu,counter,value` lines) and writes that header.
/// InputError naming --counters-csv and the file when it cannot be written.
std::ofstream open_counter_csv(const std::string& path);

class CounterSampler {
 public:
  /// Opens the CSV (InputError naming the file when it cannot be written) and starts the thread.
  CounterSampler(std::unique_ptr<CounterSource> source, SamplerOptions options = {});
  /// stop().
  ~CounterSampler();
  CounterSampler(const CounterSampler&) = delete;
  CounterSampler& operator=(const CounterSampler&) = delete;

  /// Stops the thread and closes the CSV, every reading counted by reads() in it. Idempotent.
  void stop();
  /// The sampler's clock (ms since it started): the readings' time axis.
  double now_ms() const;
  /// The kept readings taken at or after `from_ms`, oldest first.
  std::vector<Sample> since(double from_ms) const;
  /// GPU `gpu`'s readings on its own clock (Sample::gpu_start_ns, gpu_end_ns) that overlap
  /// [from_ns, to_ns), oldest first; readings without GPU times are left out.
  std::vector<Sample> on_gpu_clock(int gpu, std::uint64_t from_ns, std::uint64_t to_ns) const;
  /// How far GPU `gpu`'s readings on its own clock are complete (0: none): for each counter read
  /// in the last kFreshMs, the end of its newest reading; the least of them. The readings of a
  /// frame that ended before it are all in, whichever part of the source they come from (CUPTI's
  /// arrive in batches some 10 ms late, NVML's as they are read). Readings on the host's clock
  /// (Sample::host_clock) count only where no counter stamped by the GPU is read.
  std::uint64_t newest_gpu_end_ns(int gpu) const;
  /// A counter not read for this long no longer holds newest_gpu_end_ns back (its part of the
  /// source stopped: a profiler took the counters).
  static constexpr double kFreshMs = 1000;
  /// The panel's strips (strips.hpp) of the last `window_ms`, built from the kept readings in place.
  std::vector<Strip> strips(double window_ms, int buckets) const;
  /// The mean of every (gpu, counter) over all readings since `from_ms` (running sums, not the
  /// kept window); a pair never read is absent.
  std::map<std::pair<int, Counter>, double> means() const;
  /// Restarts the running means (the report's frames begin).
  void reset_means();
  /// The source's name, or "<name>: <why>" while its reads fail.
  std::string source_line() const;
  std::vector<Counter> counters() const { return counters_; }
  /// Successful reads so far.
  std::uint64_t reads() const { return reads_.load(); }
  /// Readings per second over the reads so far (0 before two).
  double reads_per_second() const;

 private:
  void loop();
  void keep(const std::vector<Sample>& batch, double t_ms, std::string why);
  void write_csv(const std::vector<Sample>& batch);

  std::unique_ptr<CounterSource> source_;
  SamplerOptions options_;
  std::vector<Counter> counters_;
  std::string name_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::ofstream csv_;

  mutable std::mutex mutex_;  // guards what follows, up to the thread
  std::deque<Sample> kept_;
  std::map<std::pair<int, Counter>, std::pair<double, std::uint64_t>> sums_;
  // Per (gpu, counter) with GPU times: the newest reading's end and when it was kept.
  struct Newest {
    std::uint64_t end_ns = 0;
    double kept_ms = 0;
    bool host_clock = false;
  };
  std::map<std::pair<int, Counter>, Newest> newest_end_;
  std::string why_;
  double first_read_ms_ = -1, last_read_ms_ = -1;
  bool stopping_ = false;
  std::condition_variable wake_;

  std::atomic<std::uint64_t> reads_{0};
  std::thread thread_;
};

}  // namespace ls::counters
