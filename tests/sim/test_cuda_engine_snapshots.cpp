// test_cuda_engine_snapshots.cpp — recovery snapshots of the CUDA engine: the state at the request,
// copied to the host, shown on the timeline of the frame that started them, the same through the
// Engine interface alone.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "sim/cuda_engine.hpp"

#include "cuda_engine_test.hpp"

namespace ls::sim {
namespace {

// Host snapshots hold exactly the state (and generation) an instance had when they were asked for,
// and lattices above the size limit get none.
TEST_F(CudaEngineTest, SnapshotsCopyTheStateToTheHost) {
  sim::CudaEngine engine;
  for (Variant v : kAllVariants) engine.add(random_spec(256, 160, 0.4, 21, v, Rule::life(), 6));
  engine.add(random_spec(1024, 1024, 0.4, 22, Variant::bitpacked, Rule::life(), 6));
  engine.step(9);
  engine.request_snapshots(256 * 160);
  engine.step(4);  // the snapshot is of generation 9, whatever the steps enqueued after it
  engine.finish();
  Lattice reference = Lattice::random(256, 160, 0.4, 21);
  cpu_run(reference, Rule::life(), 9);
  const auto snaps = engine.snapshots();
  ASSERT_EQ(snaps.size(), kAllVariants.size());  // not the 1024x1024 instance
  for (const auto& snap : snaps) {
    EXPECT_EQ(snap.generation, 9u);
    EXPECT_EQ(snap.rule, Rule::life());
    EXPECT_EQ(difference(snap.cells, reference), "") << "instance " << snap.instance;
  }
  engine.request_snapshots(1u << 20);
  engine.finish();
  cpu_run(reference, Rule::life(), 4);
  const auto newer = engine.snapshots();
  ASSERT_EQ(newer.size(), engine.size());
  for (std::size_t i = 0; i < kAllVariants.size(); ++i) {
    EXPECT_EQ(newer[i].generation, 13u);
    EXPECT_EQ(difference(newer[i].cells, reference), "");
  }
}

// A snapshot started in a timed frame is that frame's work, in two bars counted busy: its staging
// (for bitpacked a copy within the device: the D2D lane) after the instance's step, then its copy
// to the host (the D2H lane), of the lattice's bits, no earlier than the staging's end; an instance
// too large for a snapshot has none. In every stream mode (graph mode times it by stamps, written
// once its copy is done).
TEST_F(CudaEngineTest, ASnapshotStartedInATimedFrameShowsOnItsInstancesRow) {
  for (const StreamMode mode : {StreamMode::per_instance, StreamMode::shared, StreamMode::graph}) {
    sim::CudaEngine engine;
    engine.set_stream_mode(mode);
    engine.add(random_spec(256, 160, 0.4, 31, Variant::bitpacked, Rule::life(), 8));
    engine.add(random_spec(1024, 1024, 0.4, 32, Variant::shared, Rule::life(), 1));
    engine.step(8);
    engine.request_snapshots(256 * 160);
    engine.finish();
    const FrameTimings frame = engine.frame_timings();
    ASSERT_TRUE(frame.valid);
    std::vector<TimelineBar> snaps;
    std::optional<TimelineBar> step0;
    double busy = 0;
    for (const TimelineBar& b : engine.timeline()) {
      if (b.kind == TimelineBar::Kind::snapshot) snaps.push_back(b);
      if (b.kind == TimelineBar::Kind::step && b.instance == 0) step0 = b;
      busy += b.end_ms - b.start_ms;
    }
    ASSERT_TRUE(step0.has_value());
    ASSERT_EQ(snaps.size(), 2u) << "instance 0 only: instance 1 is above the size";
    const TimelineBar& staging = snaps[0];
    const TimelineBar& copy = snaps[1];
    for (const TimelineBar& b : snaps) {
      EXPECT_EQ(b.instance, 0u);
      EXPECT_EQ(b.stream, step0->stream);
      EXPECT_EQ(b.bytes, 256u * 160u / 8u);
    }
    EXPECT_EQ(staging.copy, TimelineBar::Copy::d2d);
    EXPECT_EQ(copy.copy, TimelineBar::Copy::d2h);
    EXPECT_GE(staging.start_ms, step0->end_ms - 1e-9);
    EXPECT_GE(copy.start_ms, staging.end_ms - 1e-9);
    EXPECT_GT(copy.end_ms, copy.start_ms);
    EXPECT_NEAR(frame.busy_ms, busy, 1e-6);
    ASSERT_EQ(engine.snapshots().size(), 1u);
  }
}

// Through the Engine interface alone, as the app's recovery uses it: the engine names its device,
// and its snapshots are the lattices at the request (here after finish(), so they have landed).
TEST_F(CudaEngineTest, SnapshotsThroughTheEngineInterfaceAreTheLatticesAtTheRequest) {
  sim::CudaEngine cuda;
  Engine& engine = cuda;
  EXPECT_EQ(engine.cuda_device(), cuda.device());
  for (Variant v : kAllVariants) engine.add(random_spec(128, 96, 0.35, 23, v, parse_rule("B36/S23"), 3));
  EXPECT_TRUE(engine.snapshots().empty());
  engine.step(6);
  std::vector<Lattice> at6;
  for (std::size_t i = 0; i < engine.size(); ++i) at6.push_back(engine.read(i));
  engine.request_snapshots(128 * 96);
  engine.step(2);
  engine.finish();
  const std::vector<HostSnapshot> snaps = engine.snapshots();
  ASSERT_EQ(snaps.size(), engine.size());
  for (const HostSnapshot& snap : snaps) {
    SCOPED_TRACE("instance " + std::to_string(snap.instance));
    EXPECT_EQ(snap.generation, 6u);
    EXPECT_EQ(snap.rule, parse_rule("B36/S23"));
    EXPECT_EQ(difference(snap.cells, at6[snap.instance]), "");
  }
  engine.request_snapshots(128 * 96 - 1);  // below every lattice: nothing new, the old ones stay
  engine.finish();
  EXPECT_EQ(engine.snapshots().size(), engine.size());
}

}  // namespace
}  // namespace ls::sim
