// cuda_engines.cpp — the engine configurations on CUDA, all on device 0 so that they run on a
// one-GPU machine: sim::CudaEngine in each stream mode, a multi::MultiEngine of two CudaEngine slots
// of device 0 (RepeatedDevicesForTests), and multi::SplitEngine cutting every lattice into two and
// four bands of device 0. Each skips, saying why, where no CUDA device is visible.
#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "engine_contract.hpp"
#include "multi/multi_engine.hpp"
#include "multi/split_engine.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::conformance {
namespace {

std::string no_cuda_device() {
  std::string why;
  return cuda_device_count(&why) == 0 ? "needs a CUDA device: " + why : std::string();
}

std::unique_ptr<Engine> cuda_engine(StreamMode mode) {
  auto engine = std::make_unique<sim::CudaEngine>(0);
  engine->set_stream_mode(mode);
  return engine;
}

/// Two slots of device 0, each a CudaEngine made with the device current, which each slot's own
/// thread makes current once (as the app's slots do with their devices).
std::unique_ptr<Engine> two_cuda_slots() {
  std::vector<multi::DeviceSlot> slots;
  for (int slot = 0; slot < 2; ++slot) {
    const auto make_current = [] {
      if (cudaSetDevice(0) != cudaSuccess) throw DeviceError("cudaSetDevice(0) failed");
    };
    make_current();
    slots.push_back(multi::DeviceSlot{0, std::make_unique<sim::CudaEngine>(0), make_current});
  }
  return std::make_unique<multi::MultiEngine>(std::move(slots), multi::RepeatedDevicesForTests{});
}

EngineConfig cuda_config(std::string name, std::function<std::unique_ptr<Engine>()> make, int bands = 1) {
  EngineConfig c;
  c.name = std::move(name);
  c.make = std::move(make);
  c.unavailable = no_cuda_device;
  c.bands = bands;
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    Cuda, EngineContract,
    ::testing::Values(cuda_config("cuda_per_instance", [] { return cuda_engine(StreamMode::per_instance); }),
                      cuda_config("cuda_shared", [] { return cuda_engine(StreamMode::shared); }),
                      cuda_config("cuda_graph", [] { return cuda_engine(StreamMode::graph); }),
                      cuda_config("multi_two_slots", two_cuda_slots),
                      cuda_config(
                          "split_two_bands",
                          [] {
                            return std::make_unique<multi::SplitEngine>(std::vector<int>{0, 0});
                          },
                          2),
                      cuda_config(
                          "split_four_bands",
                          [] {
                            return std::make_unique<multi::SplitEngine>(std::vector<int>{0, 0, 0, 0});
                          },
                          4)),
    config_name);

}  // namespace
}  // namespace ls::conformance
