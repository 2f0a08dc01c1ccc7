// spin_wait.hpp — a bounded spin before a thread blocks. The per-GPU host threads hand work to each
// other many times a frame (a frame's hand-out, each launch's exchange barrier, the caller's wait for
// the enqueueing to finish), each a few microseconds apart when the frames run back to back; a
// condition variable's sleep and wake-up costs tens of microseconds each (futex, scheduler, idle
// states), which at 16384² split over two GPUs (~80 us of GPU work a launch) would bind the frame to
// the host. So a waiter first polls its condition for a short while — pausing the core, yielding it
// once the spin grows long, so that an oversubscribed machine (CI's two cores) loses little — and
// only then blocks as before. LIFESTREAMS_SPIN_US (0..10000) sets the spin, 0 turns it off
// (before/after in one run of the bench); by default 50 us where the process may use 8 or more
// cores, else 0.
#pragma once

#include <chrono>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ls::multi {

/// Microseconds a waiter spins before it blocks (LIFESTREAMS_SPIN_US, read once).
int spin_limit_us();
/// The cores this process may run on (its CPU affinity where the system says, else the machine's).
unsigned usable_cores();

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

/// Polls `ready` for up to spin_limit_us(); true as soon as it holds, false when the time ran out
/// (the caller then blocks on its condition variable, with the same predicate).
template <class Ready>
bool spin_until(Ready&& ready) {
  if (ready()) return true;
  const int limit = spin_limit_us();
  if (limit <= 0) return false;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto yield_after = start + std::chrono::microseconds(2);
  const auto end = start + std::chrono::microseconds(limit);
  for (;;) {
    for (int i = 0; i < 16; ++i) {
      cpu_relax();
      if (ready()) return true;
    }
    const auto now = Clock::now();
    if (now >= end) return ready();
    if (now >= yield_after) std::this_thread::yield();
  }
}

}  // namespace ls::multi
