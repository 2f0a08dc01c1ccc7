// spin_wait.cpp — the spin's length, from the environment once (spin_wait.hpp).
#include "multi/spin_wait.hpp"

#include <cstdlib>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

namespace ls::multi {

namespace {

constexpr int kDefaultSpinUs = 50;
constexpr int kMaxSpinUs = 10000;
// Spinning threads only help where each has a core of its own: a GPU host (16 or more cores) spins
// by default; a small machine (CI's two cores, where a spinning waiter holds the core the thread it
// waits for needs: the placement tests ran 4x slower) sleeps at once, as before.
constexpr unsigned kMinCoresToSpin = 8;

int default_limit() { return usable_cores() >= kMinCoresToSpin ? kDefaultSpinUs : 0; }

int read_limit() {
  const char* text = std::getenv("LIFESTREAMS_SPIN_US");
  if (!text || !*text) return default_limit();
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  // A value that is not a number in range keeps the default (a tuning knob, not an input that
  // changes results: the waits are the same, only how they wait).
  if (*end != '\0' || v < 0 || v > kMaxSpinUs) return default_limit();
  return static_cast<int>(v);
}

}  // namespace

unsigned usable_cores() {
#if defined(__linux__)
  // The cores this process may run on (a container's or taskset's cpuset), not the machine's.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(CPU_COUNT(&set));
#endif
  return std::thread::hardware_concurrency();
}

int spin_limit_us() {
  static const int limit = read_limit();
  return limit;
}

}  // namespace ls::multi
