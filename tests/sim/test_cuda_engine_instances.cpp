// test_cuda_engine_instances.cpp — adding instances to the CUDA engine: copies and moves start from
// the state they were given, refused requests change nothing, and a long churn of adds, removes,
// replacements and switches leaves the instances nobody touched as in a clean run.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "sim/cuda_engine.hpp"

#include "cuda_engine_test.hpp"

namespace ls::sim {
namespace {

// A copy starts from its source's state and generation, in any variant, and then runs alike.
TEST_F(CudaEngineTest, CopyInitGivesEqualHashes) {
  sim::CudaEngine engine;
  engine.add(random_spec(512, 256, 0.3, 5, Variant::bitpacked, Rule::life(), 16));
  engine.step(10);
  for (Variant v : kAllVariants) {
    InstanceSpec copy;
    copy.variant = v;
    copy.generations_per_launch = 6;
    copy.init = CopyInit{0};
    engine.add(copy);
  }
  const StateSummary source = engine.summarize(0);
  for (std::size_t i = 1; i < engine.size(); ++i) {
    EXPECT_EQ(engine.status(i).generation, 10u);
    EXPECT_EQ(engine.status(i).origin, engine.status(0).origin);
    EXPECT_EQ(engine.summarize(i).hash, source.hash);
  }
  engine.step(45);
  const std::uint64_t hash = engine.summarize(0).hash;
  for (std::size_t i = 1; i < engine.size(); ++i) EXPECT_EQ(engine.summarize(i).hash, hash);
  Lattice reference = Lattice::random(512, 256, 0.3, 5);
  cpu_run(reference, Rule::life(), 55);
  EXPECT_EQ(hash, reference.hash());
}

// A moved instance (Engine::add_moved) holds exactly the lattice it was given, stands at the given
// generation with the given origin in every variant, and runs on as the CPU reference does; a
// move without a lattice is refused, changing nothing.
TEST_F(CudaEngineTest, AddMovedKeepsTheLatticeGenerationAndOrigin) {
  const Rule rule = parse_rule("B36/S23");
  const Lattice start = Lattice::random(160, 96, 0.35, 77);
  sim::CudaEngine engine;
  std::uint64_t origin = 0xabc0;
  for (Variant v : kAllVariants) {
    InstanceSpec spec;
    spec.rule = rule;
    spec.variant = v;
    spec.generations_per_launch = 5;
    spec.init = start;
    engine.add_moved(spec, 1234, ++origin);
  }
  ASSERT_EQ(engine.size(), kAllVariants.size());
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    EXPECT_EQ(s.generation, 1234u) << variant_name(kAllVariants[i]);
    EXPECT_EQ(s.origin, 0xabc1u + i);
    EXPECT_EQ(s.rule, rule);
    EXPECT_EQ(s.variant, kAllVariants[i]);
    EXPECT_EQ(s.width, 160);
    EXPECT_EQ(s.height, 96);
    const StateSummary sum = engine.summarize(i);
    EXPECT_EQ(sum.generation, 1234u);
    EXPECT_EQ(sum.hash, start.hash());
    EXPECT_EQ(sum.population, start.population());
    EXPECT_EQ(difference(engine.read(i), start), "");
  }
  engine.step(23);
  Lattice reference = start;
  cpu_run(reference, rule, 23);
  for (std::size_t i = 0; i < engine.size(); ++i) {
    EXPECT_EQ(engine.status(i).generation, 1257u);
    EXPECT_EQ(engine.status(i).origin, 0xabc1u + i) << "stepping keeps the origin";
    EXPECT_EQ(difference(engine.read(i), reference), "") << variant_name(kAllVariants[i]);
  }

  InstanceSpec soup = random_spec(64, 64, 0.3, 1, Variant::bitpacked, rule, 1);
  try {
    engine.add_moved(soup, 5, 6);
    ADD_FAILURE() << "a move without a lattice was taken";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "a moved instance needs its lattice (spec.init must be a Lattice)");
  }
  EXPECT_EQ(engine.size(), kAllVariants.size());
}

// A lattice that cannot fit is refused with how much was asked and how much is free, and the
// instances already there go on untouched.
TEST_F(CudaEngineTest, ImpossibleLatticeThrowsInputErrorAndChangesNothing) {
  sim::CudaEngine engine;
  engine.add(random_spec(256, 256, 0.3, 11, Variant::bitpacked, Rule::life(), 16));
  engine.add(random_spec(256, 128, 0.3, 12, Variant::shared, Rule::life(), 1));
  engine.step(7);
  const std::uint64_t h0 = engine.summarize(0).hash, h1 = engine.summarize(1).hash;
  const InstanceSpec huge = random_spec(1048576, 1048576, 0.3, 1, Variant::global, Rule::life(), 1);
  try {
    engine.add(huge);
    FAIL() << "a 1048576x1048576 byte lattice was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("1048576x1048576 (global) needs 2097152 MiB"), std::string::npos) << what;
    EXPECT_NE(what.find("MiB free"), std::string::npos) << what;
  }
  EXPECT_THROW(engine.replace(1, huge), InputError);
  EXPECT_EQ(engine.size(), 2u);
  EXPECT_EQ(engine.status(1).width, 256);
  EXPECT_EQ(engine.status(1).variant, Variant::shared);
  EXPECT_EQ(engine.summarize(0).hash, h0);
  EXPECT_EQ(engine.summarize(1).hash, h1);
  engine.step(1);  // and they still run
  EXPECT_EQ(engine.status(0).generation, 8u);
}

TEST_F(CudaEngineTest, BadRequestsThrowInputErrorAndChangeNothing) {
  sim::CudaEngine engine;
  engine.add(random_spec(64, 64, 0.3, 1, Variant::iterate, Rule::life(), 4));
  EXPECT_THROW(engine.remove(1), InputError);
  EXPECT_THROW(engine.set_variant(3, Variant::naive), InputError);
  EXPECT_THROW(engine.set_generations_per_launch(0, 0), InputError);
  EXPECT_THROW(engine.set_generations_per_launch(0, 65), InputError);
  EXPECT_THROW(engine.add(random_spec(33, 64, 0.3, 1, Variant::naive, Rule::life(), 1)), InputError);
  InstanceSpec copy;
  copy.init = CopyInit{4};
  EXPECT_THROW(engine.add(copy), InputError);
  EXPECT_THROW(engine.step(-1), InputError);
  EXPECT_EQ(engine.size(), 1u);
  EXPECT_EQ(engine.status(0).generations_per_launch, 4);
  EXPECT_THROW(sim::CudaEngine(1 << 20), DeviceError);
}

// 1000 cycles of adding, removing, resizing, switching variants, k and stream modes around two
// instances nobody touches: those end exactly as in a clean run, and device memory comes back.
TEST_F(CudaEngineTest, ChurnLeavesUntouchedInstancesAndDeviceMemoryAsInACleanRun) {
  const InstanceSpec a = random_spec(512, 512, 0.3, 101, Variant::bitpacked, Rule::life(), 16);
  const InstanceSpec b = random_spec(256, 384, 0.4, 102, Variant::iterate, parse_rule("B36/S23"), 5);
  sim::CudaEngine engine, clean;
  clean.add(a);
  clean.add(b);
  struct Churned {
    long long generations = 0;
    int adds = 0, removes = 0, resizes = 0, switches = 0, mode_flips = 0;
  };
  // The same seeded churn twice: the first loads every kernel it launches (CUDA loads a module's
  // code into device memory at its first launch), so that the second can show memory coming back.
  const auto run_churn = [&] {
    engine.set_stream_mode(StreamMode::per_instance);
    engine.add(a);
    engine.add(b);
    std::mt19937 rng(7);
    const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const auto any_variant = [&] { return kAllVariants[static_cast<std::size_t>(pick(5))]; };
    const auto churn_index = [&] {
      return 2 + static_cast<std::size_t>(pick(static_cast<int>(engine.size()) - 2));
    };
    Churned c;
    long long& generations = c.generations;
    int &adds = c.adds, &removes = c.removes, &resizes = c.resizes, &switches = c.switches,
        &mode_flips = c.mode_flips;
    for (int cycle = 0; cycle < 1000; ++cycle) {
      const int action = pick(7);
      const bool has_churn = engine.size() > 2;
      if (action == 0 || (!has_churn && action != 3)) {
        if (engine.size() < 10) {
          engine.add(random_spec(32 * (1 + pick(16)), 32 * (1 + pick(16)), 0.3, rng(), any_variant(),
                                 Rule::life(), 1 + pick(64)));
          ++adds;
        }
      } else if (action == 1) {
        engine.remove(churn_index());
        ++removes;
      } else if (action == 2) {
        engine.set_variant(churn_index(), any_variant());
        ++switches;
      } else if (action == 3) {
        engine.set_stream_mode(engine.stream_mode() == StreamMode::shared ? StreamMode::per_instance
                                                                          : StreamMode::shared);
        ++mode_flips;
      } else if (action == 4) {
        engine.replace(churn_index(), random_spec(32 * (1 + pick(32)), 32 * (1 + pick(8)), 0.5, rng(),
                                                  any_variant(), parse_rule("B2/S"), 1 + pick(64)));
        ++resizes;
      } else if (action == 5) {
        engine.set_generations_per_launch(churn_index(), 1 + pick(64));
      } else {
        engine.set_cell(churn_index(), pick(1000), pick(1000), true);
      }
      const int gens = 1 + pick(3);
      engine.step(gens);
      generations += gens;
      if (cycle % 50 == 0) engine.request_summaries();
    }
    return c;
  };
  const Churned warm = run_churn();
  const long long warm_generations = warm.generations;
  while (engine.size() > 0) engine.remove(engine.size() - 1);
  engine.finish();
  const std::size_t before = free_device_memory();
  const Churned c = run_churn();
  const long long generations = c.generations;
  ASSERT_EQ(generations, warm_generations) << "the churn is seeded: the same sequence twice";
  const int adds = c.adds, removes = c.removes, resizes = c.resizes, switches = c.switches,
            mode_flips = c.mode_flips;
  EXPECT_GT(adds, 50);
  EXPECT_GT(removes, 50);
  EXPECT_GT(resizes, 50);
  EXPECT_GT(switches, 50);
  EXPECT_GT(mode_flips, 50);
  clean.step(static_cast<int>(generations));
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(engine.status(i).generation, static_cast<std::uint64_t>(generations));
    EXPECT_EQ(engine.summarize(i).hash, clean.summarize(i).hash) << "untouched instance " << i;
  }
  while (engine.size() > 0) engine.remove(engine.size() - 1);
  engine.finish();
  EXPECT_EQ(free_device_memory(), before);
}

}  // namespace
}  // namespace ls::sim
