// test_device_fault.cpp — after a real fatal device error (a trapping kernel), the CUDA engine's
// host snapshots still hold exactly the state they copied, the next engine call reports the failed
// CUDA call with its file and line, and the engine tears down without throwing. A separate program:
// the error poisons the CUDA context for the rest of the process.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <regex>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "sim/cuda_engine.hpp"

namespace ls {
namespace test {
cudaError_t trigger_device_fault();
}  // namespace test
namespace {

InstanceSpec soup(int w, int h, std::uint64_t seed, Variant v) {
  InstanceSpec spec;
  spec.width = w;
  spec.height = h;
  spec.variant = v;
  spec.generations_per_launch = 4;
  spec.init = RandomInit{0.35, seed};
  return spec;
}

TEST(DeviceFault, SnapshotsOutliveAFatalDeviceError) {
  std::string why;
  if (cuda_device_count(&why) == 0) GTEST_SKIP() << "needs a CUDA device: " << why;
  const InstanceSpec specs[] = {soup(256, 160, 31, Variant::bitpacked), soup(192, 96, 32, Variant::naive),
                                soup(128, 128, 33, Variant::shared)};
  std::vector<std::string> messages;
  {
    sim::CudaEngine engine;
    for (const auto& s : specs) engine.add(s);
    engine.step(7);
    engine.request_snapshots(1u << 20);
    engine.finish();
    ASSERT_EQ(engine.snapshots().size(), 3u);  // generation 7, finished and noted
    engine.step(5);
    engine.request_snapshots(1u << 20);  // generation 12: may or may not land before the fault

    const cudaError_t fault = test::trigger_device_fault();
    ASSERT_NE(fault, cudaSuccess);
    ASSERT_NE(cudaDeviceSynchronize(), cudaSuccess) << "the error should be sticky";

    std::vector<HostSnapshot> snaps;
    EXPECT_NO_THROW(snaps = engine.snapshots());
    ASSERT_EQ(snaps.size(), 3u);
    for (const HostSnapshot& snap : snaps) {
      SCOPED_TRACE("instance " + std::to_string(snap.instance));
      ASSERT_TRUE(snap.generation == 7 || snap.generation == 12) << snap.generation;
      const InstanceSpec& spec = specs[snap.instance];
      Lattice reference =
          Lattice::random(spec.width, spec.height, 0.35, std::get<RandomInit>(spec.init).seed);
      cpu_run(reference, Rule::life(), static_cast<long long>(snap.generation));
      EXPECT_EQ(snap.rule, Rule::life());
      EXPECT_TRUE(snap.cells == reference)
          << "the snapshot is not the state at generation " << snap.generation;
    }
    try {
      engine.step(1);
      ADD_FAILURE() << "step() after a fatal device error did not throw";
    } catch (const DeviceError& e) {
      messages.push_back(e.what());
    }
  }  // the destructor frees what it can and throws nothing
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("CUDA error"), std::string::npos) << messages[0];
  EXPECT_TRUE(std::regex_search(messages[0], std::regex(R"( at \S+\.(cpp|hpp):[0-9]+$)")))
      << "no file and line: " << messages[0];
}

}  // namespace
}  // namespace ls
