// device_workers.cpp — the per-GPU host threads (device_workers.hpp): a SlotThreads whose threads
// enter by making their CUDA device current.
#include "multi/device_workers.hpp"

#include <cuda_runtime_api.h>

#include "kernels/cuda_check.hpp"

namespace ls::multi {
namespace {

std::vector<std::function<void()>> set_devices(const std::vector<int>& devices) {
  std::vector<std::function<void()>> out;
  for (const int d : devices) out.emplace_back([d] { CUDA_CHECK(cudaSetDevice(d)); });
  return out;
}

}  // namespace

DeviceWorkers::DeviceWorkers(std::vector<int> devices)
    : devices_(std::move(devices)), threads_(set_devices(devices_)) {}

int DeviceWorkers::device(std::size_t slot) const { return devices_.at(slot); }

}  // namespace ls::multi
