// device_work.cpp — the split, spread and one-GPU work of the several-GPU bench rows
// (device_work.hpp).
#include "bench/device_work.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <set>
#include <string>

#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"
#include "multi/multi_engine.hpp"
#include "multi/split_engine.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::bench {

namespace {

void synchronize(const std::set<int>& devices) {
  for (const int d : devices) {
    const cuda::DeviceGuard on(d);
    CUDA_CHECK(cudaDeviceSynchronize());
  }
}

/// Any engine, stepped frame by frame from the calling thread, waited for on `devices`.
class EngineWork final : public DeviceWork {
 public:
  EngineWork(std::unique_ptr<Engine> engine, const std::vector<int>& devices)
      : engine_(std::move(engine)), devices_(devices.begin(), devices.end()) {}

  void enqueue(int frames, int k) override {
    for (int f = 0; f < frames; ++f) engine_->step(k);
  }
  void wait() override { synchronize(devices_); }
  std::vector<std::uint64_t> hashes() override {
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < engine_->size(); ++i) out.push_back(engine_->summarize(i).hash);
    return out;
  }

 private:
  std::unique_ptr<Engine> engine_;
  std::set<int> devices_;
};

/// Instances dealt round-robin over the devices, as the app does with several GPUs: one CudaEngine
/// per device, each GPU's part of a frame handed to its own host thread where that enqueues faster
/// (SlotEnqueue::measured, the app's) or, with `calling_thread`, always enqueued by the calling
/// thread, GPU after GPU. A device listed twice gets a slot per listing.
std::unique_ptr<Engine> spread_engine(const std::vector<int>& devices, bool calling_thread) {
  std::vector<multi::DeviceSlot> slots;
  for (const int d : devices)
    slots.push_back(
        multi::DeviceSlot{d, std::make_unique<sim::CudaEngine>(d), [d] { CUDA_CHECK(cudaSetDevice(d)); }});
  const auto enqueue = calling_thread ? multi::SlotEnqueue::calling_thread : multi::SlotEnqueue::measured;
  if (std::set<int>(devices.begin(), devices.end()).size() < devices.size())
    return std::make_unique<multi::MultiEngine>(std::move(slots), multi::RepeatedDevicesForTests{}, enqueue);
  return std::make_unique<multi::MultiEngine>(std::move(slots), enqueue);
}

}  // namespace

std::unique_ptr<DeviceWork> make_device_work(const Config& c, const Rule& rule,
                                             const std::vector<int>& devices,
                                             const multi::SplitTuning& split) {
  std::unique_ptr<Engine> engine;
  if (c.layout == Layout::split && devices.size() > 1) {
    // One lattice, one band per device, a host thread per band; a band has its own stream.
    engine = std::make_unique<multi::SplitEngine>(devices, split);
    engine->set_timing_period(c.timing_period);
    engine->add(spec_of(c, rule, 0));
    return std::make_unique<EngineWork>(std::move(engine), devices);
  }
  if (devices.size() == 1)
    engine = std::make_unique<sim::CudaEngine>(devices.front());
  else
    engine = spread_engine(devices, c.layout == Layout::spread_one_thread);
  engine->set_stream_mode(c.mode);
  engine->set_timing_period(c.timing_period);
  for (int i = 0; i < c.instances; ++i) engine->add(spec_of(c, rule, i));  // round-robin when spread
  return std::make_unique<EngineWork>(std::move(engine), devices);
}

void wait_for_rule_kernels(const Rule& rule, const std::vector<int>& devices) {
  if (rule.is_life()) return;
  // Every shape of a rule compiles in a few seconds of one host core; a minute is a stuck worker.
  constexpr double kTimeoutS = 60;
  const auto start = std::chrono::steady_clock::now();
  bool ready = true;
  for (const int d : std::set<int>(devices.begin(), devices.end())) {
    const cuda::DeviceGuard on(d);
    ready = kernels::wait_rule_kernels({rule.birth, rule.survive}, kTimeoutS) && ready;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string name = rule.to_string();
  if (ready) {
    std::fprintf(stderr, "bench: bitpacked rows run the kernels compiled for %s (ready after %.1f s)\n",
                 name.c_str(), s);
  } else {
    std::string why = kernels::rule_kernels_unavailable();
    if (why.empty()) why = "not ready after " + std::to_string(static_cast<int>(kTimeoutS)) + " s";
    std::fprintf(stderr, "bench: bitpacked rows run the general kernel for %s: %s\n", name.c_str(),
                 why.c_str());
  }
}

Timed time_on_host_clock(DeviceWork& work, int frames, int k) {
  work.wait();
  const auto t0 = std::chrono::steady_clock::now();
  work.enqueue(frames, k);
  const auto t1 = std::chrono::steady_clock::now();
  work.wait();
  const auto t2 = std::chrono::steady_clock::now();
  const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
  return {ms(t2 - t0), ms(t1 - t0)};
}

}  // namespace ls::bench
