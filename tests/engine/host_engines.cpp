// host_engines.cpp — the engine configurations whose state lives in host memory, which run on every
// machine (CI has no GPU): the CPU reference engine, and a MultiEngine over two CpuEngine slots.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/cpu_engine.hpp"
#include "engine_contract.hpp"
#include "multi/multi_engine.hpp"

namespace ls::conformance {
namespace {

std::unique_ptr<Engine> cpu_engine() { return std::make_unique<CpuEngine>(2); }

/// Two CpuEngine slots standing for devices 0 and 1: the MultiEngine's placement and forwarding
/// (round-robin adds, removes across slots, merged snapshots) without a GPU.
std::unique_ptr<Engine> two_cpu_slots() {
  std::vector<multi::DeviceSlot> slots;
  for (int d = 0; d < 2; ++d) slots.push_back(multi::DeviceSlot{d, std::make_unique<CpuEngine>(1)});
  return std::make_unique<multi::MultiEngine>(std::move(slots));
}

EngineConfig host_config(std::string name, std::function<std::unique_ptr<Engine>()> make) {
  EngineConfig c;
  c.name = std::move(name);
  c.make = std::move(make);
  c.on_host = true;
  return c;
}

INSTANTIATE_TEST_SUITE_P(Host, EngineContract,
                         ::testing::Values(host_config("cpu", cpu_engine),
                                           host_config("multi_two_cpu_slots", two_cpu_slots)),
                         config_name);

}  // namespace
}  // namespace ls::conformance
