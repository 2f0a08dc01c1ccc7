// sampler.cpp — implements sampler.hpp.
#include "counters/sampler.hpp"

#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace ls::counters {

CounterSampler::CounterSampler(std::unique_ptr<CounterSource> source, SamplerOptions options)
    : source_(std::move(source)), options_(std::move(options)) {
  counters_ = source_->counters();
  name_ = source_->name();
  if (!options_.csv_path.empty()) {
    csv_.open(options_.csv_path, std::ios::out | std::ios::trunc);
    if (!csv_)
      throw InputError("--counters-csv " + options_.csv_path + ": cannot write it (" + std::strerror(errno) +
                       ")");
    csv_ << "time_ms,gpu,counter,value\n";
  }
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
    const bool ok = source_->read(t, batch);  // outside the lock: a read may take its time
    double wait_ms = source_->period_ms();
    if (ok) {
      keep(batch, t, source_->why());
      if (csv_.is_open())
        for (const Sample& s : batch)
          csv_ << s.t_ms << ',' << s.gpu << ',' << counter_name(s.counter) << ',' << s.value << '\n';
      reads_.fetch_add(1);
    } else {
      std::lock_guard<std::mutex> lock(mutex_);
      why_ = source_->why();
      if (why_.empty()) why_ = "no reading";
      wait_ms = options_.retry_ms;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    const auto until = start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double, std::milli>(t + wait_ms));
    if (wake_.wait_until(lock, until, [this] { return stopping_; })) return;
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
  }
  while (!kept_.empty() && kept_.front().t_ms < t_ms - options_.keep_ms) kept_.pop_front();
}

std::vector<Sample> CounterSampler::since(double from_ms) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Sample> out;
  for (auto it = kept_.rbegin(); it != kept_.rend() && it->t_ms >= from_ms; ++it) out.push_back(*it);
  return {out.rbegin(), out.rend()};
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
