// panel_model.hpp — everything the panel shows, as plain data the app fills each frame: the
// scene's settings, the engine's figures (fill_engine_figures, engine_figures.hpp), display
// figures and the newest error and message. The panel reads nothing else.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "core/kernel_costs.hpp"
#include "core/scene_settings.hpp"
#include "core/stats.hpp"

namespace ls::ui {

/// A rectangle in ImGui's coordinates (window pixels, y down).
struct Area {
  float x = 0;
  float y = 0;
  float w = 0;
  float h = 0;
};

/// Everything the panel shows, filled by the app before draw().
struct PanelModel {
  // The engine's figures (fill_engine_figures). Without an engine the panel says so.
  bool has_engine = false;
  std::string backend;  // "cpu" | "cuda"
  std::string device;
  std::vector<InstanceStatus> statuses;  // one per instance
  /// The GPUs each instance runs on (Engine::instance_devices; empty: host memory), one per instance.
  std::vector<std::vector<int>> instance_devices;
  /// The most instances the panel offers: Engine::max_instances (64 per GPU the engine runs on).
  int max_instances = kMaxInstancesPerDevice;
  FrameTimings frame;
  StatSummary host_enqueue_ms;              // host time of the engine's step() per frame
  std::vector<float> host_enqueue_history;  // its last frames, oldest first (Engine::host_enqueue_history)
  std::vector<TimelineBar> timeline;        // the bars of the newest complete frame
  StreamMode stream_mode = StreamMode::per_instance;
  int timing_period = 1;
  // The scene's settings (what new or reset instances get).
  SceneSettings settings;
  bool paused = false;
  bool grid = true;
  bool age = false;
  // Display and frame figures.
  bool windowed = true;  // false in --headless
  bool vsync = true;
  double refresh_hz = 60;  // the display's refresh rate: vsync caps the frame rate there
  double fps = 0;
  StatSummary cpu_frame_ms;
  std::uint64_t host_syncs_per_frame = 0;
  /// How a CUDA engine's tiles reach the screen (render::display_path_text: "interop",
  /// "interop+peer", "interop+host-staged" or "textbook"); empty: not known.
  std::string display_path;
  // Where the tiles are drawn (notices go over them); empty: right of the panel, full height.
  Area tile_area;
  // Tile under the mouse (instance index), or -1.
  int hovered_instance = -1;
  // Bundled patterns: file names in assets/patterns (e.g. "glider.rle") and the folder they are in.
  std::vector<std::string> bundled_patterns;
  std::string patterns_dir;
  // Newest error (shown until the next successful command) and an informational message (shown
  // for a few seconds after it changes).
  std::string error;
  std::string message;

  // Throughput (app/rates.hpp), in cell updates per second. Delivered: cells times generations
  // the app actually advanced per wall-clock second over the last second (0 while paused).
  // Kernel rate: the sum of the instances' step rates while stepping (what the kernels would give
  // back to back, whatever the frame rate).
  double delivered_cups = 0;
  double kernel_cups = 0;

  /// A change built beside the frame loop (a large size, reset or instance count): while it runs the
  /// old state stays on screen and usable; Esc or the notice's Cancel abandons it.
  struct Job {
    bool active = false;
    std::string what;         // "size 65536 x 65536 for 3 instances"
    double fraction = 0;      // 0..1 done
    bool cancellable = true;  // false for the first instances (nothing to go back to)
  };
  Job job;
  /// Cells were drawn or a pattern loaded since the last save, and a quit was asked once: the
  /// notice asks to confirm (a second Ctrl+Q or Enter quits, Esc stays).
  bool quit_pending = false;
  /// One per kSizePresets entry: why the engine cannot hold every instance at that size ("" when
  /// it can). Empty: not known (every preset offered).
  std::vector<std::string> size_preset_refusals;

  /// The GPUs' hardware counters (app/app_counters.hpp): where they come from, or why there are
  /// none, and a strip per GPU and counter over the last counters_window_s seconds.
  struct CounterStrip {
    int gpu = 0;
    std::string name;  // "power_w"
    std::string unit;  // "W"; "" for a fraction, drawn as %
    bool fraction = false;
    std::vector<float> values;  // oldest first
    double newest = 0;
  };
  bool counters_on = true;  // sampling (the section's toggle: `counters on|off`)
  std::string counters_source;
  std::vector<CounterStrip> counter_strips;
  double counters_window_s = 10;
  /// The counters on the timeline's axis (app/counter_lanes.hpp): per GPU whose frame origin is on
  /// its own clock, a lane per counter under its rows with the samples of the shown frame.
  struct CounterLane {
    int gpu = 0;
    std::string name;      // "sm_active"
    std::string label;     // beside the lane: "SM"
    bool fraction = true;  // 0..1; otherwise scaled to `top`
    double top = 1;
    struct Segment {
      double start_ms = 0, end_ms = 0;  // on the timeline's axis
      double value = 0;
    };
    std::vector<Segment> segments;
    /// The frame is shorter than a sample: one sample's mean covers it (drawn paler, said so).
    bool coarse = false;
  };
  std::vector<CounterLane> counter_lanes;

  /// Each instance against its GPUs' roofs (app/roofline_figures.hpp, core/kernel_costs.hpp).
  struct RooflineRow {
    std::size_t instance = 0;
    Variant variant = Variant::bitpacked;
    std::vector<int> devices;  // the GPUs it runs on (several: a split lattice, their roofs summed)
    GpuLimits limits;          // theirs, summed
    RooflinePoint point;
  };
  std::vector<RooflineRow> roofline;
  std::string roofline_note;  // why instances have no point ("" when every one has)
};

/// The square sizes the Size presets list offers.
inline constexpr int kSizePresets[] = {256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072};

/// Frame rates within this fraction of the refresh rate count as held by vsync: a frame rate well
/// below it (a CPU engine at 38 frames/s under a 60 Hz display) is the engine's own.
inline constexpr double kVsyncNearFraction = 0.95;

/// Whether vsync is what limits the frame rate now (so FPS and frame times are capped figures).
inline bool vsync_caps_frames(const PanelModel& m) {
  return m.windowed && m.vsync && m.refresh_hz > 0 && m.fps >= m.refresh_hz * kVsyncNearFraction;
}

/// How long at least one of the frame's streams was at work: the union of its timeline's bars (ms).
/// Less than the span where the streams wait inside it (for the CUDA-GL handoff between the steps
/// and the display, in stream mode graph: a 2.6 ms span held 0.13 ms of work, H100).
inline double busy_union_ms(const std::vector<TimelineBar>& bars) {
  std::vector<std::pair<double, double>> spans;
  spans.reserve(bars.size());
  for (const TimelineBar& b : bars) spans.emplace_back(b.start_ms, b.end_ms);
  std::sort(spans.begin(), spans.end());
  double total = 0, start = 0, end = 0;
  bool open = false;
  for (const auto& [s, e] : spans) {
    if (open && s <= end) {
      end = std::max(end, e);
      continue;
    }
    if (open) total += end - start;
    start = s, end = e, open = true;
  }
  return open ? total + (end - start) : 0.0;
}

/// What binds the frame's simulation work: the host enqueueing it or the GPU running it.
enum class FrameBound { unknown, host, gpu };
/// Host-bound when the host's enqueue time per frame (mean) is at least the GPU's work in a frame
/// (busy_union_ms of the newest timeline; the span where there is none): the GPU then waits for
/// work; GPU-bound otherwise. Unknown without both figures.
inline FrameBound frame_bound(const PanelModel& m) {
  if (!m.frame.valid || m.host_enqueue_ms.samples == 0 || m.frame.gpu_span_ms <= 0)
    return FrameBound::unknown;
  const double work = m.timeline.empty() ? m.frame.gpu_span_ms : busy_union_ms(m.timeline);
  return m.host_enqueue_ms.mean >= work ? FrameBound::host : FrameBound::gpu;
}

/// Whether the engine runs on a GPU (CUDA): variants, k and the stream mode then mean something.
inline bool runs_on_gpu(const PanelModel& m) { return m.backend == "cuda"; }

}  // namespace ls::ui
