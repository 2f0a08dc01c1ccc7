// phase_barrier.cpp — the bands' breakable barrier (phase_barrier.hpp).
#include "multi/phase_barrier.hpp"

#include "core/error.hpp"
#include "multi/spin_wait.hpp"

namespace ls::multi {

void PhaseBarrier::arrive_and_wait() {
  unsigned long long phase = 0;
  {
    std::lock_guard lock(mutex_);
    if (aborted_.load()) throw DeviceError("halo exchange stopped: another band's thread failed");
    phase = phase_.load();
    if (++waiting_ == parties_) {
      waiting_ = 0;
      phase_.store(phase + 1);
      arrived_.notify_all();
      return;
    }
  }
  const auto passed = [&] { return phase_.load() != phase || aborted_.load(); };
  if (!spin_until(passed)) {
    std::unique_lock lock(mutex_);
    arrived_.wait(lock, passed);
  }
  // A phase that moved on was completed by every party, even if the barrier broke afterwards.
  if (phase_.load() == phase) throw DeviceError("halo exchange stopped: another band's thread failed");
}

void PhaseBarrier::abort() noexcept {
  std::lock_guard lock(mutex_);
  aborted_.store(true);
  arrived_.notify_all();
}

}  // namespace ls::multi
