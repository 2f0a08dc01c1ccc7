// device_workers.hpp — one host thread per band slot (per GPU in a real split), each owning its
// device: it makes the device current once (cudaSetDevice), then runs the jobs handed to it in
// order (SlotThreads, the plain-C++ threads under it). The caller hands out jobs and waits only
// until they have been run — they enqueue GPU work and return; no job waits for a GPU unless the
// caller asked for a blocking call (read, summarize).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "multi/slot_threads.hpp"

namespace ls::multi {

class DeviceWorkers {
 public:
  /// One thread per entry of `devices` (a device may repeat: tests split a lattice over bands of
  /// one GPU, and each band still needs its own thread, since bands meet at exchange barriers).
  explicit DeviceWorkers(std::vector<int> devices);

  std::size_t size() const { return threads_.size(); }
  int device(std::size_t slot) const;
  const std::vector<int>& devices() const { return devices_; }

  /// Runs job(slot) on every slot's thread and returns when all have run; rethrows the exception
  /// of the lowest slot that threw (after every job has finished), as it was thrown.
  void run_on_all(const std::function<void(int slot)>& job) { threads_.run_on_all(job); }

 private:
  std::vector<int> devices_;
  SlotThreads threads_;
};

}  // namespace ls::multi
