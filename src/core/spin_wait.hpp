// spin_wait.hpp — a short spin before a thread blocks: the per-GPU host threads hand work to each
// other every launch (a split lattice's bands: hand-out, exchange barrier, done), and a blocked
// thread's wake-up (a futex, tens of microseconds on a busy host) is then as long as a small band's
// launch. Spinning first catches the partner that arrives within the budget; the caller still
// blocks (condition variable, under its mutex, with its predicate) afterwards, so correctness never
// depends on the spin.
#pragma once

#include <chrono>
#include <thread>

namespace ls {

/// How long a thread spins for its partner before it blocks.
inline constexpr std::chrono::microseconds kSpinBudget{100};

/// Spins (yielding) until `ready()` or the budget is spent; returns ready().
template <class Ready>
bool spin_until(Ready&& ready) {
  if (ready()) return true;
  const auto end = std::chrono::steady_clock::now() + kSpinBudget;
  for (int i = 1;; ++i) {
    if (ready()) return true;
    if (i % 16 == 0) {
      if (std::chrono::steady_clock::now() >= end) return ready();
      std::this_thread::yield();
    }
  }
}

}  // namespace ls
