// sanitize_suite.cpp — a small, complete workout of the CUDA engine for compute-sanitizer
// (scripts/sanitize.sh): each variant on 64x64 and 256x96 for 64 generations, a variant switch,
// a copy, a summary, an add and a remove, checked against the CPU reference.
// Exit status: 0 all equal, 1 a mismatch, 3 a device error, 77 no CUDA device (skipped).
#include <cstdio>
#include <exception>
#include <string>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "sim/cuda_engine.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "MISMATCH: %s\n", what.c_str());
  }
}

void run_suite() {
  using namespace ls;
  const int sizes[][2] = {{64, 64}, {256, 96}};
  for (const auto& size : sizes) {
    const int w = size[0], h = size[1];
    const std::string where = std::to_string(w) + "x" + std::to_string(h);
    sim::CudaEngine engine;
    for (Variant v : kAllVariants) {
      InstanceSpec spec;
      spec.width = w;
      spec.height = h;
      spec.variant = v;
      spec.generations_per_launch = v == Variant::iterate ? 7 : 16;  // 64 = 9 * 7 + 1: a remainder launch
      spec.init = RandomInit{0.35, 7};
      engine.add(spec);
    }
    Lattice reference = Lattice::random(w, h, 0.35, 7);
    engine.step(32);
    engine.request_summaries();
    for (std::size_t i = 0; i < engine.size(); ++i) {
      engine.begin_display(i);
      engine.end_display(i);
    }
    engine.set_stream_mode(StreamMode::shared);
    engine.step(32);
    engine.set_stream_mode(StreamMode::per_instance);
    cpu_run(reference, Rule::life(), 64);
    for (std::size_t i = 0; i < engine.size(); ++i) {
      const std::string name(variant_name(engine.status(i).variant));
      expect(engine.read(i) == reference, name + " " + where + " after 64 generations");
    }
    // Each instance switches to the next variant (every layout conversion runs); the state stays.
    for (std::size_t i = 0; i < engine.size(); ++i) {
      const Variant next = kAllVariants[(i + 1) % kAllVariants.size()];
      const std::uint64_t before = engine.summarize(i).hash;
      engine.set_variant(i, next);
      expect(engine.summarize(i).hash == before,
             "hash changed by the switch to " + std::string(variant_name(next)));
    }
    // Add (a copy, and a fresh soup), step, remove.
    InstanceSpec copy;
    copy.variant = Variant::bitpacked;
    copy.init = CopyInit{2};
    engine.add(copy);
    InstanceSpec fresh;
    fresh.width = w;
    fresh.height = h;
    fresh.variant = Variant::shared;
    fresh.init = RandomInit{0.5, 9};
    engine.add(fresh);
    engine.set_cell(6, 3, 4, true);
    engine.step(5);
    cpu_run(reference, Rule::life(), 5);
    for (std::size_t i = 0; i < 6; ++i)
      expect(engine.summarize(i).hash == reference.hash(), "after the switch");
    engine.request_snapshots(1u << 20);
    engine.step(1);
    engine.finish();
    for (const auto& snap : engine.snapshots())
      if (snap.instance < 6) expect(snap.cells.hash() == reference.hash(), "host snapshot");
    cpu_run(reference, Rule::life(), 1);
    engine.remove(6);
    engine.remove(0);
    engine.request_summaries();
    engine.finish();
    for (std::size_t i = 0; i < engine.size(); ++i) {
      const auto s = engine.status(i).summary;
      expect(s && s->hash == reference.hash(), "asynchronous summary of instance " + std::to_string(i));
    }
    expect(engine.frame_timings().valid, "frame timings");
  }
}

}  // namespace

int main() {
  std::string why;
  if (ls::cuda_device_count(&why) == 0) {
    std::fprintf(stderr, "ls_sanitize_suite: skipped: %s\n", why.c_str());
    return 77;
  }
  try {
    run_suite();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ls_sanitize_suite: %s\n", e.what());
    return 3;
  }
  if (failures > 0) {
    std::fprintf(stderr, "ls_sanitize_suite: %d mismatches\n", failures);
    return 1;
  }
  std::printf("ls_sanitize_suite: every variant equals the CPU reference (64x64, 256x96)\n");
  return 0;
}
