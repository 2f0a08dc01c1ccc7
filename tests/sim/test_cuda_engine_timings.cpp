// test_cuda_engine_timings.cpp — the CUDA engine's timings: stepping never blocks and its timings and
// timeline arrive later, a frame spans its own work (not a pause after it), a timing period times one
// frame in N, and graph mode times every instance's branch.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "core/summary_pacing.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_engine.hpp"

#include "cuda_engine_test.hpp"

namespace ls::sim {
namespace {

// The frame loop (step, summaries requested and polled, display brackets) makes no blocking call;
// the summaries and timings it reads later are the real ones.
TEST_F(CudaEngineTest, StepMakesNoHostSyncsAndTimingsArrive) {
  sim::CudaEngine engine;
  for (Variant v : kAllVariants) engine.add(random_spec(1024, 512, 0.25, 3, v, Rule::life(), 16));
  for (int frame = 0; frame < 300; ++frame) {
    engine.step(2);
    EXPECT_EQ(engine.host_syncs_in_last_step(), 0u) << "frame " << frame;
    if (frame % 10 == 0) engine.request_summaries();
    for (std::size_t i = 0; i < engine.size(); ++i) {
      engine.begin_display(i);
      engine.end_display(i);
      (void)engine.status(i);
    }
  }
  // Summaries are paced: one still in flight defers the next, and a summary whose measured GPU
  // time exceeds its share of the instance's (tiny) step waits a few requests. A paused app keeps
  // asking once a frame, so the final state's summary comes within the pacing bound; it still
  // belongs to the last frame (nothing stepped since). Asking once is not enough: on an H200 the
  // bitpacked instance's summary can measure above its 50 us share and be deferred.
  engine.finish();
  const auto all_final = [&] {
    for (std::size_t i = 0; i < engine.size(); ++i) {
      const InstanceStatus s = engine.status(i);
      if (!s.summary || s.summary->generation != 600u) return false;
    }
    return true;
  };
  for (int ask = 0; ask <= kMaxSummaryEvery && !all_final(); ++ask) {
    engine.request_summaries();
    engine.finish();
  }
  Lattice reference = Lattice::random(1024, 512, 0.25, 3);
  cpu_run(reference, Rule::life(), 600);
  const FrameTimings frame = engine.frame_timings();
  ASSERT_TRUE(frame.valid);
  EXPECT_GT(frame.gpu_span_ms, 0.0);
  EXPECT_GT(frame.busy_ms, 0.0);
  EXPECT_GT(frame.concurrency, 0.0);
  EXPECT_LE(frame.concurrency, 2.0 * static_cast<double>(engine.size()));
  const auto bars = engine.timeline();
  // A step and a display bar per instance, and a summary bar for each summary asked right after
  // the frame's step (the last request above: every instance's, its state new and its summary
  // cheap).
  std::vector<int> per_kind(3 * engine.size());
  for (const auto& bar : bars) {
    if (bar.kind == TimelineBar::Kind::handoff) {  // a paced-out summary's pulse: a copy, beside these
      EXPECT_EQ(bar.copy, TimelineBar::Copy::d2h);
      continue;
    }
    ASSERT_LT(static_cast<std::size_t>(bar.kind), 3u);
    ++per_kind[3 * bar.instance + static_cast<std::size_t>(bar.kind)];
  }
  for (std::size_t i = 0; i < per_kind.size(); ++i) {
    const auto kind = static_cast<TimelineBar::Kind>(i % 3);
    if (kind == TimelineBar::Kind::summary)
      EXPECT_LE(per_kind[i], 1);  // paced: a summary bar where one was asked right after the step
    else
      EXPECT_EQ(per_kind[i], 1);
  }
  for (const auto& bar : bars) {
    EXPECT_GE(bar.start_ms, 0.0);
    EXPECT_GE(bar.end_ms, bar.start_ms);
    EXPECT_LE(bar.end_ms, frame.gpu_span_ms + 1e-6);
    EXPECT_EQ(bar.stream, static_cast<int>(bar.instance));
  }
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    EXPECT_EQ(s.generation, 600u);
    ASSERT_TRUE(s.summary.has_value());
    EXPECT_EQ(s.summary->generation, 600u);
    EXPECT_EQ(s.summary->hash, reference.hash()) << variant_name(s.variant);
    EXPECT_GT(s.step_ms.samples, 0);
    EXPECT_LE(s.step_ms.samples, kTimingWindow);
    EXPECT_GT(s.step_ms.mean, 0.0);
    EXPECT_GT(s.cups, 0.0);
  }
}

/// Redraws every instance the way a paused app does (no step), every few ms for `ms` ms; returns how
/// many of those redraws the engine took as timed display work.
int redraw_while_paused(Engine& e, int ms) {
  int bracketed = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (e.begin_display(i)) {
        ++bracketed;
        e.end_display(i);
      }
    }
    e.request_summaries();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return bracketed;
}

// Paused (Space) for a while, then one step (N): a frame's span covers its own steps and its first
// display only, and every bar lies inside it. Paused redraws record no timing events of the frame:
// were they to, its span would stretch over the whole pause (seconds, at a concurrency near 0).
TEST_F(CudaEngineTest, AStepAfterAPauseSpansItsOwnWorkNotThePause) {
  constexpr int kPauseMs = 400;
  constexpr double kFrameMs = 100;  // a frame of two 256x256 instances takes well under 1 ms
  sim::CudaEngine engine;
  engine.add(random_spec(256, 256, 0.3, 61, Variant::bitpacked, Rule::life(), 4));
  engine.add(random_spec(256, 256, 0.3, 62, Variant::shared, Rule::life(), 4));
  const auto check_frame = [&](const char* which) {
    SCOPED_TRACE(which);
    const FrameTimings f = engine.frame_timings();
    ASSERT_TRUE(f.valid);
    EXPECT_LT(f.gpu_span_ms, kFrameMs);
    EXPECT_GT(f.concurrency, 0.0);
    const auto bars = engine.timeline();
    // A step and a display bar per instance, and a summary bar where a summary was asked for
    // right after the step (summaries are paced), else a handoff pulse on the D2H copy lane.
    std::size_t steps_and_displays = 0, summaries = 0, pulses = 0;
    for (const TimelineBar& bar : bars) {
      if (bar.kind == TimelineBar::Kind::summary) {
        ++summaries;
      } else if (bar.kind == TimelineBar::Kind::handoff) {
        ++pulses;
        EXPECT_EQ(bar.copy, TimelineBar::Copy::d2h);
        EXPECT_EQ(bar.bytes, 8u);
      } else {
        ++steps_and_displays;
      }
    }
    EXPECT_EQ(steps_and_displays, 2 * engine.size());
    EXPECT_LE(summaries + pulses, engine.size());
    for (const TimelineBar& bar : bars) {
      EXPECT_GE(bar.start_ms, 0.0);
      EXPECT_LE(bar.start_ms, bar.end_ms);
      EXPECT_LE(bar.end_ms, f.gpu_span_ms + 1e-6);
    }
  };
  // A step() reads the timed frames before the newest one (whose display bracket may still be
  // open), so a frame's figures are there two steps after it.
  engine.step(1);                                       // frame A, then a pause
  EXPECT_EQ(redraw_while_paused(engine, kPauseMs), 2);  // A's own display, then only redraws
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);      // complete when a later step reads it
  engine.step(1);                                       // N: frame B
  EXPECT_EQ(engine.host_syncs_in_last_step(), 0u);
  engine.step(1);  // frame C reads A
  EXPECT_EQ(engine.host_syncs_in_last_step(), 0u);
  check_frame("the frame before the pause");
  EXPECT_EQ(redraw_while_paused(engine, kPauseMs), 2);  // after C: C's display, then redraws
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  engine.step(1);  // D
  engine.step(1);  // E reads B and C
  check_frame("a single step followed by a pause");
}

// With the timing period at N only one frame in N carries timing events: the statistics count
// exactly those frames (each frame is waited for, so none is dropped), the timeline is complete,
// stepping never blocks, and every variant still ends on the reference.
TEST_F(CudaEngineTest, TimingPeriodTimesOneFrameInNAndKeepsTheStateExact) {
  sim::CudaEngine engine;
  int seed = 40;
  for (Variant v : kAllVariants) engine.add(random_spec(256, 128, 0.3, seed++, v, Rule::life(), 4));
  engine.set_timing_period(8);
  EXPECT_THROW(engine.set_timing_period(0), InputError);
  EXPECT_THROW(engine.set_timing_period(kMaxTimingPeriod + 1), InputError);
  EXPECT_EQ(engine.timing_period(), 8);
  const auto frames = [&](int n, int gens) {
    for (int frame = 0; frame < n; ++frame) {
      engine.step(gens);
      EXPECT_EQ(engine.host_syncs_in_last_step(), 0u);
      for (std::size_t i = 0; i < engine.size(); ++i) {
        engine.begin_display(i);
        engine.end_display(i);
      }
      if (frame % 10 == 0) engine.request_summaries();
      engine.finish();
    }
  };
  frames(80, 3);  // frames 0, 8, ..., 72 are timed
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    EXPECT_EQ(s.step_ms.samples, 10) << variant_name(s.variant);
    EXPECT_EQ(s.display_ms.samples, 10) << variant_name(s.variant);
    EXPECT_GT(s.cups, 0.0);
  }
  EXPECT_TRUE(engine.frame_timings().valid);
  EXPECT_EQ(engine.timeline().size(), 2 * engine.size());
  engine.set_timing_period(1);  // the next frame is timed, and every one after it
  frames(6, 1);
  engine.request_summaries();
  engine.finish();
  // Read the way the app reads them: by the next steps, never by finish(). The device is drained
  // behind the engine's back so every timed frame is complete when the next step looks.
  engine.set_timing_period(4);
  for (int frame = 0; frame < 40; ++frame) {
    engine.step(1);
    EXPECT_EQ(engine.frame_timed(), frame % 4 == 0) << "frame " << frame;
    for (std::size_t i = 0; i < engine.size(); ++i)
      if (engine.begin_display(i)) engine.end_display(i);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  engine.step(0);  // no frame: the newest one (39) stays untimed
  EXPECT_FALSE(engine.frame_timed());
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    // The six one-generation frames at period 1 and frames 0, 4, ..., 36 read by steps; the frames
    // of three generations before them were another workload, whose statistics were dropped.
    EXPECT_EQ(s.step_ms.samples, 16) << variant_name(s.variant);
    EXPECT_EQ(s.display_ms.samples, 16) << variant_name(s.variant);
  }
  engine.request_summaries();
  engine.finish();
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    SCOPED_TRACE(std::string(variant_name(s.variant)));
    EXPECT_EQ(s.step_ms.samples, 16);
    Lattice reference = Lattice::random(256, 128, 0.3, 40 + static_cast<int>(i));
    cpu_run(reference, Rule::life(), 286);
    ASSERT_TRUE(s.summary.has_value());
    EXPECT_EQ(s.summary->generation, 286u);
    EXPECT_EQ(s.summary->hash, reference.hash());
  }
}

// In graph mode each instance is a branch of its own: every instance has its own step bar on its own
// row, a display bar, and step timings; the frame has a span; host enqueue time is measured.
TEST_F(CudaEngineTest, GraphModeTimingsAndTimelineAreComplete) {
  sim::CudaEngine engine;
  engine.set_stream_mode(StreamMode::graph);
  for (int i = 0; i < 8; ++i)
    engine.add(random_spec(512, 256, 0.25, 80 + i, kAllVariants[i % kAllVariants.size()], Rule::life(), 8));
  const auto run_frame = [&] {
    engine.step(2);
    EXPECT_EQ(engine.host_syncs_in_last_step(), 0u);
    // In graph mode a display is timed by two stamps its graph writes (as the tile filler's
    // display graph does), not by begin_display's events.
    const cudaStream_t frame_stream = engine.device_view(0).stream;
    for (std::size_t i = 0; i < engine.size(); ++i) {
      EXPECT_FALSE(engine.begin_display(i));
      if (std::uint64_t* stamps = engine.claim_display_stamps(i)) {
        ls::kernels::launch_stamp(stamps, frame_stream);
        ls::kernels::launch_stamp(stamps + 1, frame_stream);
      }
    }
    engine.display_enqueued(frame_stream);
    engine.request_summaries();
  };
  for (int f = 0; f < 60; ++f) run_frame();
  // The summaries asked after the last frame ride in the next frame's graph once its results' host
  // slot is free: the GPU idle, it is. (finish() would serve them at once, without a frame.)
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  run_frame();
  engine.finish();
  const FrameTimings frame = engine.frame_timings();
  ASSERT_TRUE(frame.valid);
  EXPECT_GT(frame.gpu_span_ms, 0.0);
  const auto bars = engine.timeline();
  std::vector<int> steps(engine.size(), 0), displays(engine.size(), 0), summaries(engine.size(), 0);
  std::vector<double> step_start(engine.size(), 0), summary_end(engine.size(), -1);
  for (const auto& bar : bars) {
    EXPECT_EQ(bar.stream, static_cast<int>(bar.instance));
    EXPECT_GE(bar.end_ms, bar.start_ms);
    if (bar.kind == TimelineBar::Kind::step) {
      ++steps[bar.instance];
      step_start[bar.instance] = bar.start_ms;
    } else if (bar.kind == TimelineBar::Kind::display) {
      ++displays[bar.instance];
    } else {
      ASSERT_EQ(bar.kind, TimelineBar::Kind::summary);
      ++summaries[bar.instance];
      summary_end[bar.instance] = bar.end_ms;
    }
  }
  // The summaries rode in the last frame's graph, ahead of each branch's step: a summary bar per
  // instance, ending where its step starts.
  for (std::size_t i = 0; i < engine.size(); ++i) {
    EXPECT_EQ(steps[i], 1) << "instance " << i;
    EXPECT_EQ(displays[i], 1) << "instance " << i;
    EXPECT_EQ(summaries[i], 1) << "instance " << i;
    EXPECT_DOUBLE_EQ(summary_end[i], step_start[i]) << "instance " << i;
    const InstanceStatus s = engine.status(i);
    EXPECT_GT(s.step_ms.samples, 0);
    EXPECT_GT(s.cups, 0.0);
  }
  const StatSummary host = engine.host_enqueue_ms();
  EXPECT_EQ(host.samples, 61);
  EXPECT_GT(host.mean, 0.0);
}

}  // namespace
}  // namespace ls::sim
