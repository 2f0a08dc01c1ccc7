// sampler.cpp — implements sampler.hpp.
#include "counters/sampler.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string_view>

#include "core/error.hpp"

namespace ls::counters {

std::ofstream open_counter_csv(const std::string& path) {
  std::ofstream csv(path, std::ios::out | std::ios::trunc);
  if (!csv) throw InputError("--counters-csv " + path + ": cannot write it (" + std::strerror(errno) + ")");
  csv << "time_ms,gpu,counter,value\n";
  return csv;
}

CounterSampler::CounterSampler(std::unique_ptr<CounterSource> source, SamplerOptions options)
    : source_(std::move(source)), options_(std::move(options)) {
  counters_ = source_->counters();
  name_ = source_->name();
  if (!options_.csv_path.empty()) csv_ = open_counter_csv(options_.csv_path);
  thread_ = std::thread([this] { loop(); });
}

CounterSampler::~CounterSampler() { stop(); }

void CounterSampler::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (csv_.is_open()) csv_.close();
}

double CounterSampler::now_ms() const {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
}

void CounterSampler::loop() {
  std::vector<Sample> batch;
  for (;;) {
    const double t = now_ms();
    batch.clear();
    bool ok = false;
    double wait_ms = options_.retry_ms;
    std::string failure;
    try {
      ok = source_->read(t, batch);  // outside the lock: a read may take its time
      if (ok) {
        wait_ms = source_->period_ms();
        keep(batch, t, source_->why());
        if (csv_.is_open()) write_csv(batch);
        reads_.fetch_add(1);
      } else {
        failure = source_->why();
      }
    } catch (const std::exception& e) {  // a source that throws is a failed read, tried again later
      ok = false;
      failure = e.what();
    }
    if (!ok) {
      std::lock_guard<std::mutex> lock(mutex_);
      why_ = failure.empty() ? "no reading" : failure;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    const auto until = start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double, std::milli>(t + wait_ms));
    if (wake_.wait_until(lock, until, [this] { return stopping_; })) return;
  }
}

void CounterSampler::write_csv(const std::vector<Sample>& batch) {
  // Milliseconds to the microsecond however long the run (the stream's 6 significant digits would
  // merge 1 ms samples after 100 s), values to 9 significant digits.
  char line[128];
  for (const Sample& s : batch) {
    const std::string_view name = counter_name(s.counter);
    std::snprintf(line, sizeof line, "%.3f,%d,%.*s,%.9g\n", s.t_ms, s.gpu, static_cast<int>(name.size()),
                  name.data(), s.value);
    csv_ << line;
  }
}

void CounterSampler::keep(const std::vector<Sample>& batch, double t_ms, std::string why) {
  std::lock_guard<std::mutex> lock(mutex_);
  why_ = std::move(why);  // a source of several parts may read while one of them cannot
  if (first_read_ms_ < 0) first_read_ms_ = t_ms;
  last_read_ms_ = t_ms;
  for (const Sample& s : batch) {
    kept_.push_back(s);
    auto& [sum, n] = sums_[{s.gpu, s.counter}];
    sum += s.value;
    ++n;
    if (s.gpu_end_ns != 0) {
      Newest& n = newest_end_[{s.gpu, s.counter}];
      n.end_ns = std::max(n.end_ns, s.gpu_end_ns);
      n.kept_ms = t_ms;
      n.host_clock = s.host_clock;
    }
  }
  while (!kept_.empty() && kept_.front().t_ms < t_ms - options_.keep_ms) kept_.pop_front();
}

std::vector<Sample> CounterSampler::since(double from_ms) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto first = kept_.end();
  while (first != kept_.begin() && std::prev(first)->t_ms >= from_ms) --first;
  return {first, kept_.end()};
}

std::vector<Sample> CounterSampler::on_gpu_clock(int gpu, std::uint64_t from_ns, std::uint64_t to_ns) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Sample> out;
  // Newest first, until a reading of this GPU ended well before the window: the readings arrive
  // in order of their ends but for a source's batch delay (CUPTI's, ~10 ms, beside NVML's fresh
  // ones), which kArrivalSlackNs covers.
  constexpr std::uint64_t kArrivalSlackNs = 100'000'000;
  for (auto it = kept_.rbegin(); it != kept_.rend(); ++it) {
    if (it->gpu != gpu || it->gpu_end_ns == 0) continue;
    // Only the GPU's own stamps stop the search: a host-clock reading off by more than the slack
    // must not hide the GPU-stamped ones.
    if (!it->host_clock && it->gpu_end_ns + kArrivalSlackNs <= from_ns) break;
    if (it->gpu_end_ns > from_ns && it->gpu_start_ns < to_ns) out.push_back(*it);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Sample& a, const Sample& b) { return a.gpu_start_ns < b.gpu_start_ns; });
  return out;
}

std::uint64_t CounterSampler::newest_gpu_end_ns(int gpu) const {
  std::lock_guard<std::mutex> lock(mutex_);
  double newest_ms = -1;
  for (const auto& [key, n] : newest_end_)
    if (key.first == gpu) newest_ms = std::max(newest_ms, n.kept_ms);
  // The least newest end of the counters read lately, those the GPU stamps apart from those on the
  // host's clock: the latter decide only where the GPU stamps nothing (their offset from its clock
  // is small but not known).
  std::uint64_t least[2] = {0, 0};  // [0]: stamped by the GPU, [1]: on the host's clock
  for (const auto& [key, n] : newest_end_) {
    if (key.first != gpu || n.kept_ms < newest_ms - kFreshMs) continue;
    std::uint64_t& l = least[n.host_clock ? 1 : 0];
    l = l == 0 ? n.end_ns : std::min(l, n.end_ns);
  }
  return least[0] != 0 ? least[0] : least[1];
}

std::vector<Strip> CounterSampler::strips(double window_ms, int buckets) const {
  const double now = now_ms();
  StripBuilder builder(now, window_ms, buckets);
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = kept_.rbegin(); it != kept_.rend() && it->t_ms > now - window_ms; ++it) builder.add(*it);
  return builder.finish();
}

std::map<std::pair<int, Counter>, double> CounterSampler::means() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::map<std::pair<int, Counter>, double> out;
  for (const auto& [key, sn] : sums_)
    if (sn.second > 0) out[key] = sn.first / static_cast<double>(sn.second);
  return out;
}

void CounterSampler::reset_means() {
  std::lock_guard<std::mutex> lock(mutex_);
  sums_.clear();
}

std::string CounterSampler::source_line() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return why_.empty() ? name_ : name_ + ": " + why_;
}

double CounterSampler::reads_per_second() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::uint64_t n = reads_.load();
  if (n < 2 || last_read_ms_ <= first_read_ms_) return 0;
  return static_cast<double>(n - 1) * 1000.0 / (last_read_ms_ - first_read_ms_);
}

}  // namespace ls::counters
