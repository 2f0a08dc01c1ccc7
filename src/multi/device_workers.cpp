// device_workers.cpp — the per-GPU host threads (device_workers.hpp).
#include "multi/device_workers.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

namespace ls::multi {

struct DeviceWorkers::Worker {
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable done;
  std::deque<std::function<void()>> jobs;
  int running = 0;  // jobs taken but not finished
  bool stop = false;
  std::exception_ptr failure;
  std::thread thread;

  void loop(int device) {
    // The thread's device, made current once; every job after runs on it. A failure here is
    // reported by the first job.
    const cudaError_t set = cudaSetDevice(device);
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return stop || !jobs.empty(); });
        if (jobs.empty()) return;
        job = std::move(jobs.front());
        jobs.pop_front();
        ++running;
      }
      std::exception_ptr error;
      try {
        if (set != cudaSuccess) throw_cuda_error(set, "cudaSetDevice(device)", __FILE__, __LINE__);
        job();
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard lock(mutex);
      if (error && !failure) failure = error;
      --running;
      done.notify_all();
    }
  }
};

DeviceWorkers::DeviceWorkers(std::vector<int> devices) : devices_(std::move(devices)) {
  for (const int d : devices_) {
    auto w = std::make_unique<Worker>();
    Worker* raw = w.get();
    w->thread = std::thread([raw, d] { raw->loop(d); });
    workers_.push_back(std::move(w));
  }
}

DeviceWorkers::~DeviceWorkers() {
  for (auto& w : workers_) {
    {
      std::lock_guard lock(w->mutex);
      w->stop = true;
    }
    w->wake.notify_all();
  }
  for (auto& w : workers_) w->thread.join();
}

int DeviceWorkers::device(std::size_t slot) const { return devices_.at(slot); }

void DeviceWorkers::run_on_all(const std::function<void(int slot)>& job) {
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    Worker& w = *workers_[i];
    std::lock_guard lock(w.mutex);
    w.jobs.emplace_back([&job, i] { job(static_cast<int>(i)); });
  }
  for (auto& w : workers_) w->wake.notify_all();
  std::exception_ptr first;
  for (auto& w : workers_) {
    std::unique_lock lock(w->mutex);
    w->done.wait(lock, [&] { return w->jobs.empty() && w->running == 0; });
    if (w->failure && !first) first = w->failure;
    w->failure = nullptr;
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace ls::multi
