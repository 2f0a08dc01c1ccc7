// test_sampler.cpp — the counter sampler over the fake source: every reading of every GPU is kept
// for the window and summed into exact means, the CSV holds one line per reading after its header,
// an unwritable CSV is refused naming the file, and a busy source is named, then tried again.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "core/error.hpp"
#include "counters/fake_source.hpp"
#include "counters/sampler.hpp"

namespace ls::counters {
namespace {

/// Waits (without a deadline that could fail a slow machine's run, up to a minute) until `done`.
template <typename Done>
void wait_for(Done done) {
  for (int i = 0; i < 60000 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TEST(CounterSampler, KeepsEveryReadingOfEveryGpuAndAveragesThemExactly) {
  CounterSampler sampler(std::make_unique<FakeSource>(std::vector<int>{0, 2}));
  wait_for([&] { return sampler.reads() >= 5; });
  const std::vector<Sample> kept = sampler.since(0);
  ASSERT_GE(kept.size(), 5u * 2 * kAllCounters.size());
  std::set<std::pair<int, Counter>> seen;
  for (const Sample& s : kept) {
    seen.insert({s.gpu, s.counter});
    EXPECT_EQ(s.value, fake_value(s.counter, s.gpu));
  }
  EXPECT_EQ(seen.size(), 2 * kAllCounters.size());
  for (std::size_t i = 1; i < kept.size(); ++i) EXPECT_LE(kept[i - 1].t_ms, kept[i].t_ms);
  const auto means = sampler.means();
  EXPECT_EQ(means.size(), 2 * kAllCounters.size());
  for (const auto& [key, mean] : means) EXPECT_DOUBLE_EQ(mean, fake_value(key.second, key.first));
  EXPECT_EQ(sampler.source_line(), "fake");
}

/// A source that gives its batches one a read, as far as the test allows (reads past that give
/// nothing): samples on the GPU's clock, as CUPTI's (batches some 10 ms late) and NVML's (as read).
class ScriptedSource final : public CounterSource {
 public:
  explicit ScriptedSource(std::vector<std::vector<Sample>> batches) : batches_(std::move(batches)) {}
  std::string name() const override { return "scripted"; }
  std::vector<Counter> counters() const override { return {Counter::sm_active, Counter::power_w}; }
  bool read(double t_ms, std::vector<Sample>& out) override {
    if (given_ < allowed_.load() && given_ < batches_.size()) {
      for (Sample s : batches_[given_]) {
        s.t_ms = t_ms;
        out.push_back(s);
      }
      given_.fetch_add(1);
    }
    return true;
  }
  double period_ms() const override { return 1.0; }
  /// Lets the source give its first `n` batches.
  void allow(std::size_t n) { allowed_.store(n); }
  std::size_t given() const { return given_.load(); }

 private:
  std::vector<std::vector<Sample>> batches_;
  std::atomic<std::size_t> allowed_{0};
  std::atomic<std::size_t> given_{0};
};

constexpr std::uint64_t kMs = 1'000'000;  // ns

Sample on_clock(Counter c, std::uint64_t from_ms, std::uint64_t to_ms, bool host_clock = false) {
  Sample s;
  s.counter = c;
  s.value = 1;
  s.gpu_start_ns = from_ms * kMs;
  s.gpu_end_ns = to_ms * kMs;
  s.host_clock = host_clock;
  return s;
}

/// A sampler over a scripted source that the test steps batch by batch.
struct Scripted {
  explicit Scripted(std::vector<std::vector<Sample>> batches) {
    auto s = std::make_unique<ScriptedSource>(std::move(batches));
    source = s.get();
    sampler = std::make_unique<CounterSampler>(std::move(s));
  }
  /// Lets the first `n` batches in and waits until they are kept.
  void give(std::size_t n) {
    source->allow(n);
    wait_for([&] { return source->given() >= n; });
    const std::uint64_t reads = sampler->reads();
    wait_for([&] { return sampler->reads() > reads; });  // the read that gave the last is kept
  }
  ScriptedSource* source = nullptr;
  std::unique_ptr<CounterSampler> sampler;
};

TEST(CounterSampler, AFrameIsCompleteOnlyWhenEveryCounterHasReadingsPastIt) {
  // Two counters stamped on the GPU's clock; the power readings run ahead of SM activity's.
  Scripted s({{on_clock(Counter::sm_active, 0, 10), on_clock(Counter::power_w, 5, 10)},
              {on_clock(Counter::power_w, 10, 15)},
              {on_clock(Counter::sm_active, 10, 20), on_clock(Counter::power_w, 15, 20)}});
  s.give(2);
  EXPECT_EQ(s.sampler->newest_gpu_end_ns(0), 10 * kMs) << "SM activity holds it at 10 ms, not power's 15";
  s.give(3);
  EXPECT_EQ(s.sampler->newest_gpu_end_ns(0), 20 * kMs);
  EXPECT_EQ(s.sampler->newest_gpu_end_ns(1), 0u) << "no readings of GPU 1";
  // A frame's readings, in the order of their starts whatever order they arrived in.
  const std::vector<Sample> frame = s.sampler->on_gpu_clock(0, 8 * kMs, 18 * kMs);
  ASSERT_EQ(frame.size(), 5u);
  for (std::size_t i = 1; i < frame.size(); ++i) EXPECT_LE(frame[i - 1].gpu_start_ns, frame[i].gpu_start_ns);
  EXPECT_EQ(s.sampler->on_gpu_clock(0, 20 * kMs, 30 * kMs).size(), 0u) << "nothing ends after 20 ms";
}

TEST(CounterSampler, HostClockReadingsDecideOnlyWhereTheGpuStampsNothing) {
  // NVML's power on the host's clock, far ahead (or off by more than the search's slack): it
  // neither makes a frame complete early nor hides the GPU-stamped readings.
  Scripted s({{on_clock(Counter::sm_active, 0, 10), on_clock(Counter::power_w, 500, 900, true)}});
  s.give(1);
  EXPECT_EQ(s.sampler->newest_gpu_end_ns(0), 10 * kMs);
  EXPECT_EQ(s.sampler->on_gpu_clock(0, 0, 10 * kMs).size(), 1u);
  // Without GPU-stamped counters, the host-clock ones decide.
  Scripted nvml({{on_clock(Counter::power_w, 0, 5, true)}, {on_clock(Counter::power_w, 5, 10, true)}});
  nvml.give(2);
  EXPECT_EQ(nvml.sampler->newest_gpu_end_ns(0), 10 * kMs);
}

TEST(CounterSampler, ACounterThatStoppedNoLongerHoldsTheFramesBack) {
  // SM activity read once (its part of the source then stopped: another profiler took the
  // counters); power goes on: after kFreshMs of readings, completeness follows power alone.
  std::vector<std::vector<Sample>> batches = {
      {on_clock(Counter::sm_active, 0, 10), on_clock(Counter::power_w, 0, 10)}};
  for (std::uint64_t i = 1; i < 100000; ++i)
    batches.push_back({on_clock(Counter::power_w, 10 * i, 10 * i + 10)});
  Scripted s(std::move(batches));
  s.source->allow(100000);
  wait_for([&] { return s.sampler->newest_gpu_end_ns(0) > 10 * kMs; });
  EXPECT_GT(s.sampler->newest_gpu_end_ns(0), 10 * kMs);
  EXPECT_GE(s.sampler->now_ms(), CounterSampler::kFreshMs) << "not before SM activity went stale";
}

TEST(CounterSampler, TheWindowKeepsOnlyItsLastMilliseconds) {
  SamplerOptions o;
  o.keep_ms = 20;
  CounterSampler sampler(std::make_unique<FakeSource>(std::vector<int>{0}, 1.0), o);
  wait_for([&] { return sampler.now_ms() > 200 && sampler.reads() >= 10; });
  const std::vector<Sample> kept = sampler.since(0);
  ASSERT_FALSE(kept.empty());
  // Dropped when a newer reading came more than keep_ms after them.
  EXPECT_GE(kept.front().t_ms, kept.back().t_ms - o.keep_ms);
  EXPECT_GT(kept.front().t_ms, 100.0);
}

TEST(CounterSampler, TheCsvHasOneLinePerReading) {
  const auto path = std::filesystem::temp_directory_path() / "lifestreams-counters-test.csv";
  std::uint64_t reads = 0;
  {
    SamplerOptions o;
    o.csv_path = path.string();
    CounterSampler sampler(std::make_unique<FakeSource>(std::vector<int>{1}), o);
    wait_for([&] { return sampler.reads() >= 3; });
    sampler.stop();  // every read counted is in the file
    reads = sampler.reads();
  }
  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "time_ms,gpu,counter,value");
  std::uint64_t lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    EXPECT_NE(line.find(",1,"), std::string::npos) << line;
  }
  EXPECT_EQ(lines, reads * kAllCounters.size());
  std::filesystem::remove(path);
}

TEST(CounterSampler, AnUnwritableCsvIsRefusedNamingTheFile) {
  SamplerOptions o;
  o.csv_path = "/nonexistent-folder/counters.csv";
  try {
    CounterSampler sampler(std::make_unique<FakeSource>(std::vector<int>{0}), o);
    ADD_FAILURE() << "the CSV was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-folder/counters.csv"), std::string::npos) << e.what();
  }
}

TEST(CounterSampler, ABusySourceIsNamedAndTriedAgain) {
  SamplerOptions o;
  o.retry_ms = 50;
  CounterSampler sampler(std::make_unique<FakeSource>(std::vector<int>{0}, 1.0, 2), o);
  wait_for([&] { return sampler.source_line() != "fake" || sampler.reads() > 0; });
  EXPECT_EQ(sampler.reads(), 0u);
  EXPECT_EQ(sampler.source_line(), "fake: the fake counter unit is busy");
  wait_for([&] { return sampler.reads() > 0; });
  EXPECT_EQ(sampler.source_line(), "fake");
}

}  // namespace
}  // namespace ls::counters
