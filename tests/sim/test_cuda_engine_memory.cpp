// test_cuda_engine_memory.cpp — the CUDA engine's device memory: what a cell takes in each variant,
// every byte given back when instances go, and a full device refused with a clean InputError.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "sim/cuda_engine.hpp"

#include "cuda_engine_test.hpp"

namespace ls::sim {
namespace {

// Device memory per cell, both buffers together: the byte variants take 2 bytes, bitpacked
// 2 bits, naive (the books' int cells) 8 bytes, each plus a small fixed part (summary results and
// the allocator's 2 MiB granularity), measured as free memory before and after adding a 16384²
// instance of each variant and stepping it into a frame graph.
TEST_F(CudaEngineTest, DeviceMemoryPerCellIsTwoBytesOrTwoBits) {
  sim::CudaEngine engine;
  engine.add(random_spec(256, 256, 0.3, 1, Variant::bitpacked, Rule::life(), 4));
  for (int f = 0; f < 4; ++f) engine.step(4);  // kernels loaded, graphs made
  engine.finish();
  const double cells = 16384.0 * 16384.0;
  const std::size_t fixed = std::size_t{4} << 20;
  const std::pair<Variant, double> expected[] = {{Variant::naive, 8.0},
                                                 {Variant::global, 2.0},
                                                 {Variant::shared, 2.0},
                                                 {Variant::iterate, 2.0},
                                                 {Variant::bitpacked, 0.25}};
  for (const auto& [variant, bytes_per_cell] : expected) {
    SCOPED_TRACE(std::string(variant_name(variant)));
    const std::size_t before = free_device_memory();
    engine.add(random_spec(16384, 16384, 0.3, 2, variant, Rule::life(), 8));
    for (int f = 0; f < 4; ++f) engine.step(8);
    engine.finish();
    const double used = static_cast<double>(before - free_device_memory());
    std::printf("%-9s %.4f bytes per cell on the device (both buffers)\n",
                std::string(variant_name(variant)).c_str(), used / cells);
    EXPECT_GE(used, bytes_per_cell * cells);
    EXPECT_LE(used, bytes_per_cell * cells + static_cast<double>(fixed));
    engine.remove(engine.size() - 1);
    engine.finish();
  }
}

// Adding and removing instances (with copies, switches, summaries and reads) gives every byte back.
TEST_F(CudaEngineTest, AddAndRemoveInALoopGivesDeviceMemoryBack) {
  sim::CudaEngine engine;
  churn_once(engine);  // loads every kernel module (lazy loading allocates on first use)
  engine.finish();
  const std::size_t before = free_device_memory();
  std::size_t lowest = before;
  for (int cycle = 0; cycle < 30; ++cycle) {
    churn_once(engine);
    engine.add(random_spec(4096, 4096, 0.2, 9, Variant::iterate, Rule::life(), 8));
    lowest = std::min(lowest, free_device_memory());
    engine.remove(0);
  }
  engine.finish();
  EXPECT_LT(lowest + 2 * 4096 * 4096 - (std::size_t{1} << 20), before) << "the loop did not take memory";
  EXPECT_EQ(free_device_memory(), before);
  EXPECT_EQ(engine.size(), 0u);
}

// Adding instances until the device is full ends in an InputError that says how much was asked
// and how much is free; the instances already running are untouched, and memory comes back (the
// first fill may leave the driver's page tables for the whole device behind, so the second fill
// is the one that must give back every byte).
TEST_F(CudaEngineTest, FillingTheDeviceEndsInACleanInputError) {
  sim::CudaEngine engine;
  churn_once(engine);
  engine.finish();
  const InstanceSpec big =
      random_spec(65536, 32768, 0.3, 5, Variant::global, Rule::life(), 1);  // 4 GiB a pair
  const auto fill_and_empty = [&] {
    engine.add(big);
    engine.step(3);
    const std::uint64_t hash = engine.summarize(0).hash;
    std::string message;
    for (int i = 0; i < 200 && message.empty(); ++i) {
      try {
        engine.add(big);
      } catch (const InputError& e) {
        message = e.what();
      }
    }
    ASSERT_FALSE(message.empty()) << "200 lattices of 4 GiB all fitted";
    EXPECT_NE(message.find("lattice 65536x32768 (global) needs 4096 MiB of device memory; "),
              std::string::npos)
        << message;
    EXPECT_GE(engine.size(), 2u);
    EXPECT_EQ(engine.summarize(0).hash, hash);
    EXPECT_EQ(engine.status(0).generation, 3u);
    engine.step(1);
    EXPECT_EQ(engine.summarize(0).generation, 4u);
    EXPECT_EQ(engine.summarize(engine.size() - 1).generation, 1u);
    while (engine.size() > 0) engine.remove(engine.size() - 1);
    engine.finish();
  };
  const std::size_t before = free_device_memory();
  fill_and_empty();
  const std::size_t after_first = free_device_memory();
  // The first fill may keep what the CUDA runtime loads once on first use (the kernels' modules,
  // loaded lazily: 10 MiB on an H200), never a lattice (4 GiB each); the second keeps nothing.
  EXPECT_LE(static_cast<long long>(before) - static_cast<long long>(after_first), 32LL << 20)
      << "the first fill kept more than 32 MiB";
  fill_and_empty();
  EXPECT_EQ(free_device_memory(), after_first);
}

}  // namespace
}  // namespace ls::sim
