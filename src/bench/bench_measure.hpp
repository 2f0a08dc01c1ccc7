// bench_measure.hpp — what every bench driver measures with: a row's configuration, the sweep's
// rows without repeats, the soup each instance starts from, and the timing: a warm-up, repeats
// sized to about kTargetRepeatMs (kSeveralGpusRepeatMs for rows on several GPUs), the median of
// kRepeats.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "core/engine.hpp"
#include "core/rule.hpp"
#include "core/stats.hpp"

namespace ls::bench {

inline constexpr int kRepeats = 7;
inline constexpr double kTargetRepeatMs = 25.0;  // each repeat runs enough frames to take about this long
/// A row on several GPUs: each repeat starts every GPU from idle and ends by synchronising each,
/// which no frame of a longer run pays (~0.1 ms over two GPUs: measured in bench/NOTES.md "Repeats
/// of several GPUs"), so its repeats are four times as long as one GPU's, and its one-GPU column's
/// as long again times the GPUs (the same frames).
inline constexpr double kSeveralGpusRepeatMs = 100.0;
inline constexpr int kMaxFramesPerRepeat = 4000;
/// Frames run before anything is timed: kernels loaded, stream mode graph's frame graph built
/// (after sim::kFramesBeforeGraph frames), a several-GPU engine's first choice of threads made
/// (multi::EnqueueChoice: 4 + 2 x 8 frames). Sizing the repeats by frames that still built graphs
/// gave repeats of ~16 frames (under a millisecond), whose timing noise was ±5%.
inline constexpr int kWarmupFrames = 24;
inline constexpr int kDefaultK = 16;
inline constexpr double kDensity = 0.35;  // the benches' random soup

/// How a row's instances are laid out over GPUs. single: one GPU's engine (or a rank's band);
/// split: one lattice cut into a band per GPU; spread: instances dealt over the GPUs, a host
/// thread per GPU; spread_one_thread: the same, every GPU's part enqueued by the calling thread.
enum class Layout { single, split, spread, spread_one_thread };

/// One row of a sweep. A frame is one launch of k generations on every instance.
struct Config {
  Layout layout = Layout::single;
  Variant variant = Variant::naive;
  int width = 0;
  int height = 0;
  int instances = 1;
  StreamMode mode = StreamMode::per_instance;
  int k = 1;
  int timing_period = 1;  // the engine times one frame in this many

  auto key() const {
    return std::tuple(static_cast<int>(layout), static_cast<int>(variant), width, height, instances,
                      static_cast<int>(mode), k, timing_period);
  }
  /// "WxH".
  std::string lattice() const { return std::to_string(width) + "x" + std::to_string(height); }
  /// Cell updates in one frame.
  double cells_per_frame() const { return static_cast<double>(width) * height * instances * k; }
};

/// k where the variant takes it (iterate, bitpacked), else 1.
inline int depth(Variant v, int k) { return variant_iterates(v) ? k : 1; }

/// Appends `c` unless the sweep already has a row of the same key.
void add_unique(std::vector<Config>& configs, const Config& c);

/// Instance `instance` of a row: its lattice, rule, variant and k, a random soup seeded instance + 1.
InstanceSpec spec_of(const Config& c, const Rule& rule, int instance);

/// Milliseconds of some frames together: until the work is done, and on the host enqueueing it.
struct Timed {
  double ms = 0;
  double host_ms = 0;
};
/// Runs and times `frames` frames.
using TimeFrames = std::function<Timed(int frames)>;

/// Medians per frame over kRepeats repeats of `frames` frames each.
struct Repeats {
  double ms = 0;
  double host_ms = 0;
  int frames = 0;
};

/// A warm-up (kWarmupFrames frames, then two frames twice, which size the repeats), then kRepeats
/// repeats of `frames` frames, or, with frames 0, of as many as take about `target_ms`.
Repeats measure_repeats(const TimeFrames& time, double target_ms = kTargetRepeatMs, int frames = 0);

/// kRepeats more repeats of `frames` frames, no warm-up: the median milliseconds per frame.
double repeat_median(const TimeFrames& time, int frames);

}  // namespace ls::bench
