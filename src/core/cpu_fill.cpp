// cpu_fill.cpp — the CPU engine's random fill of a large lattice on several threads.
#include "core/cpu_fill.hpp"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace ls {

bool fill_in_parallel(Lattice& cells, const RandomInit& r, BuildProgress& progress) {
  constexpr int kRowsPerChunk = 64;
  const int h = cells.height();
  progress.total.store(static_cast<std::uint64_t>(h));
  std::atomic<int> next{0};
  auto work = [&] {
    for (;;) {
      if (progress.cancel.load()) return;
      const int y = next.fetch_add(kRowsPerChunk);
      if (y >= h) return;
      const int end = std::min(h, y + kRowsPerChunk);
      cells.fill_random_rows(r.density, r.seed, y, end);
      progress.done.fetch_add(static_cast<std::uint64_t>(end - y));
    }
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> helpers;
  try {
    for (unsigned i = 1; i + 1 < cores; ++i) helpers.emplace_back(work);
  } catch (const std::system_error&) {
    // Fewer helpers than cores: the fill goes on with those that started.
  }
  work();
  for (std::thread& t : helpers) t.join();
  return !progress.cancel.load();
}

}  // namespace ls
