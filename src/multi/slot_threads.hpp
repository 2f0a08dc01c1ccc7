// slot_threads.hpp — one host thread per device slot (plain C++): each thread runs its slot's
// `enter` once (the app: cudaSetDevice of that slot's GPU, which is per thread in CUDA), then the
// jobs handed to it, in order. The caller hands a job to every slot and waits only until each has
// run: a job enqueues GPU work and returns, so the slots enqueue side by side and the caller never
// waits for a GPU unless a job itself blocks (finish, read).
//
// Between two hand-outs every thread is idle, so the caller may use a slot's objects itself in
// that gap (after making its device current on its own thread): no object is ever used by two
// threads at once, and run_on_all orders the caller's calls before and after the jobs' (a mutex
// hand-off), as CUDA orders work on a stream by the order of its calls.
//
// Both waits (a thread's for its next job, the caller's for the jobs to finish) spin briefly
// before they sleep (spin_wait.hpp): back-to-back frames hand work over every few microseconds.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace ls::multi {

class SlotThreads {
 public:
  /// One thread per entry of `enter`; an empty function enters nothing (CPU slots). When an entry
  /// throws, every job of that slot throws the same exception instead of running.
  explicit SlotThreads(std::vector<std::function<void()>> enter);
  ~SlotThreads();
  SlotThreads(const SlotThreads&) = delete;
  SlotThreads& operator=(const SlotThreads&) = delete;

  std::size_t size() const { return workers_.size(); }
  /// The id of slot `slot`'s thread (tests check that a slot's work runs there).
  std::thread::id thread_id(std::size_t slot) const;

  /// Runs job(slot) on every slot's thread, side by side, and returns when all have run. When jobs
  /// throw, every job still runs to its end, and the exception of the lowest slot that threw is
  /// rethrown here as it was thrown (same type: a DeviceError stays a DeviceError).
  void run_on_all(const std::function<void(int slot)>& job);

 private:
  /// Stops every started thread and joins it (the destructor, and a constructor that failed).
  void stop_all() noexcept;
  struct Worker;
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace ls::multi
