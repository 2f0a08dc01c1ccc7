// slot_threads.cpp — the per-slot host threads (slot_threads.hpp).
#include "multi/slot_threads.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>

#include "multi/spin_wait.hpp"

namespace ls::multi {

struct SlotThreads::Worker {
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable done;
  std::deque<std::function<void()>> jobs;
  int running = 0;  // jobs taken but not finished
  // Counters the waits spin on before they sleep (spin_wait.hpp); changed under `mutex`.
  std::atomic<std::uint64_t> posted{0};    // jobs handed to this slot
  std::atomic<std::uint64_t> finished{0};  // jobs run to their end
  std::atomic<bool> stopping{false};
  bool stop = false;
  std::exception_ptr failure;
  std::thread thread;

  void loop(const std::function<void()>& enter) {
    // The slot's device, made current once; every job after runs on it. A failure here is
    // reported by every job.
    std::exception_ptr entered;
    try {
      if (enter) enter();
    } catch (...) {
      entered = std::current_exception();
    }
    std::uint64_t taken = 0;
    for (;;) {
      std::function<void()> job;
      spin_until([&] { return posted.load() != taken || stopping.load(); });
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return stop || !jobs.empty(); });
        if (jobs.empty()) return;
        job = std::move(jobs.front());
        jobs.pop_front();
        ++running;
        ++taken;
      }
      std::exception_ptr error = entered;
      if (!error) {
        try {
          job();
        } catch (...) {
          error = std::current_exception();
        }
      }
      std::lock_guard lock(mutex);
      if (error && !failure) failure = error;
      --running;
      finished.fetch_add(1);
      done.notify_all();
    }
  }
};

SlotThreads::SlotThreads(std::vector<std::function<void()>> enter) {
  // Each worker is kept before its thread starts, so that a failure (no thread, no memory) stops and
  // joins the threads already running instead of destroying a joinable std::thread.
  workers_.reserve(enter.size());
  try {
    for (auto& e : enter) {
      workers_.push_back(std::make_unique<Worker>());
      Worker* raw = workers_.back().get();
      raw->thread = std::thread([raw, e = std::move(e)] { raw->loop(e); });
    }
  } catch (...) {
    stop_all();
    throw;
  }
}

SlotThreads::~SlotThreads() { stop_all(); }

void SlotThreads::stop_all() noexcept {
  for (auto& w : workers_) {
    {
      std::lock_guard lock(w->mutex);
      w->stop = true;
      w->stopping.store(true);
    }
    w->wake.notify_all();
  }
  for (auto& w : workers_)
    if (w->thread.joinable()) w->thread.join();
}

std::thread::id SlotThreads::thread_id(std::size_t slot) const { return workers_.at(slot)->thread.get_id(); }

void SlotThreads::run_on_all(const std::function<void(int slot)>& job) {
  std::vector<std::uint64_t> target(workers_.size());
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    Worker& w = *workers_[i];
    {
      std::lock_guard lock(w.mutex);
      w.jobs.emplace_back([&job, i] { job(static_cast<int>(i)); });
      target[i] = w.posted.fetch_add(1) + 1;
    }
    w.wake.notify_all();
  }
  std::exception_ptr first;
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    Worker* w = workers_[i].get();
    spin_until([&] { return w->finished.load() >= target[i]; });
    std::unique_lock lock(w->mutex);
    w->done.wait(lock, [&] { return w->jobs.empty() && w->running == 0; });
    if (w->failure && !first) first = w->failure;
    w->failure = nullptr;
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace ls::multi
