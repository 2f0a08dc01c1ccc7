// device_workers.hpp — one host thread per band slot (per GPU in a real split), each owning its
// device: it makes the device current once, then runs the jobs handed to it in order. The caller
// hands out jobs and waits only until they have been run — they enqueue GPU work and return; no
// job waits for a GPU unless the caller asked for a blocking call (read, summarize).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ls::multi {

class DeviceWorkers {
 public:
  /// One thread per entry of `devices` (a device may repeat: tests split a lattice over bands of
  /// one GPU, and each band still needs its own thread, since bands meet at exchange barriers).
  explicit DeviceWorkers(std::vector<int> devices);
  ~DeviceWorkers();
  DeviceWorkers(const DeviceWorkers&) = delete;
  DeviceWorkers& operator=(const DeviceWorkers&) = delete;

  std::size_t size() const { return workers_.size(); }
  int device(std::size_t slot) const;
  const std::vector<int>& devices() const { return devices_; }

  /// Runs job(slot) on every slot's thread and returns when all have run; rethrows the first
  /// exception a job threw (after every job has finished).
  void run_on_all(const std::function<void(int slot)>& job);

 private:
  struct Worker;
  std::vector<int> devices_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace ls::multi
