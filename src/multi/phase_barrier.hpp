// phase_barrier.hpp — a barrier for the bands' host threads that a failed thread can break
// (std::barrier cannot): a split lattice's bands cross it once per exchange, so that every
// neighbour's event record is enqueued before anyone waits on it (peer_exchange.cpp). A waiter
// spins briefly before it sleeps (spin_wait.hpp): the bands arrive microseconds apart.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace ls::multi {

class PhaseBarrier {
 public:
  explicit PhaseBarrier(int parties) : parties_(parties) {}
  /// Waits until all parties arrived; throws DeviceError once the barrier is broken (abort()),
  /// also to a party already waiting.
  void arrive_and_wait();
  void abort() noexcept;

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  int parties_;
  int waiting_ = 0;  // guarded by mutex_
  // Written under mutex_, read without it by the spin.
  std::atomic<unsigned long long> phase_{0};
  std::atomic<bool> aborted_{false};
};

}  // namespace ls::multi
