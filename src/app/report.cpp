// report.cpp — writes the --report JSON file.
#include "app/report.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "control/gpu_facts.hpp"
#include "control/json_text.hpp"
#include "core/error.hpp"

namespace ls::app {
namespace {

std::string num(double v) { return json_number(v); }

std::string device_array(const std::vector<int>& devices) {
  std::string out = "[";
  for (std::size_t i = 0; i < devices.size(); ++i) out += (i ? ", " : "") + std::to_string(devices[i]);
  return out + "]";
}

std::string bytes(const std::optional<std::uint64_t>& b) { return b ? std::to_string(*b) : "null"; }

/// A GPU's "counters" object: each counter's mean over the run, null where it was never read.
std::string counters_object(const RunFigures& f, int device) {
  std::string out = "{";
  for (const counters::Counter c : counters::kAllCounters) {
    const auto it = f.counter_means.find({device, c});
    out += (out.size() > 1 ? ", \"" : "\"") + std::string(counters::counter_name(c)) +
           "\": " + (it == f.counter_means.end() ? std::string("null") : num(it->second));
  }
  return out + "}";
}

/// The "gpus" array: every GPU that holds an instance or the engine's state (or has counter
/// readings), with its name and
/// memory (asked now, once) and its part of the frame figures (means over the frames that timed
/// it; null for a GPU no timed frame reached).
std::string gpus_array(const Engine& engine, const RunFigures& f) {
  const std::vector<int> in_use = devices_in_use(engine);
  std::set<int> devices(in_use.begin(), in_use.end());
  for (const auto& [key, mean] : f.counter_means) devices.insert(key.first);
  std::string out = "[";
  for (const int d : devices) {
    const GpuFacts facts = gpu_facts(d);
    const auto it = f.gpus.find(d);
    const GpuFrameTimings* g = it == f.gpus.end() ? nullptr : &it->second;
    out += (out.size() > 1 ? ",\n    " : "\n    ") + std::string("{\"index\": ") + std::to_string(d) +
           ", \"name\": " + json_string(facts.name) + ", \"span_ms\": " + (g ? num(g->span_ms) : "null") +
           ", \"busy_ms\": " + (g ? num(g->busy_ms) : "null") +
           ", \"concurrency\": " + (g ? num(g->concurrency) : "null") +
           ", \"memory_used_bytes\": " + bytes(facts.memory_used_bytes) +
           ", \"memory_free_bytes\": " + bytes(facts.memory_free_bytes) +
           ", \"counters\": " + counters_object(f, d) +
           ", \"counters_source\": " + json_string(f.counters_source) + "}";
  }
  return out + (devices.empty() ? "]" : "\n  ]");
}

std::string stats(const StatSummary& s) {
  return "{\"last\": " + num(s.last) + ", \"mean\": " + num(s.mean) + ", \"std\": " + num(s.std) +
         ", \"min\": " + num(s.min) + ", \"max\": " + num(s.max) + "}";
}

/// The "display" object: the path the frame loop used, its cost inside the loop, and both paths'
/// cost measured after it.
std::string display_object(const Engine& engine, const RunFigures& f) {
  const DisplayFigures& d = f.display;
  const auto measured = [](double v) { return v < 0 ? std::string("null") : num(v); };
  // The path the frame loop names (interop, with "+peer" or "+host-staged" where tiles of other
  // GPUs are copied to the display GPU, or textbook) is how a CUDA engine's lattices reach the
  // screen; any other engine's are on the host already and are uploaded, whatever was asked for.
  const std::string display_path = engine.backend() == "cuda" ? d.path : std::string(kHostUploadPath);
  // The display's cost per tile inside the frame loop: the render work's device time from the
  // display events (mean over the instances) plus the map and unmap calls' host time shared over
  // the tiles. Not counted: the render stream's wait in the map for OpenGL to hand the textures
  // back (map_wait_ms), which overlaps the steps.
  double loop_ms_per_tile = -1;
  if (f.frames > 0 && engine.size() > 0 && display_path.starts_with("interop")) {
    double display_ms = 0;
    for (std::size_t i = 0; i < engine.size(); ++i) display_ms += engine.status(i).display_ms.mean;
    const double tiles = static_cast<double>(engine.size());
    loop_ms_per_tile =
        display_ms / tiles + (d.map_host_ms + d.unmap_host_ms) / static_cast<double>(f.frames) / tiles;
  }
  std::ostringstream o;
  o << "{\"path\": " << json_string(display_path)
    << ", \"update_ms\": " << num(f.frames > 0 ? d.update_ms / static_cast<double>(f.frames) : 0)
    << ", \"map_wait_ms\": " << measured(d.map_wait_ms) << ", \"tiles\": " << d.tiles
    << ", \"loop_ms_per_tile\": " << measured(loop_ms_per_tile)
    << ", \"interop_ms_per_tile\": " << measured(d.interop_ms_per_tile)
    << ", \"textbook_ms_per_tile\": " << measured(d.textbook_ms_per_tile)
    << ", \"interop_ms_per_frame\": " << measured(d.interop_ms_per_frame)
    << ", \"textbook_ms_per_frame\": " << measured(d.textbook_ms_per_frame)
    << ", \"map_host_ms\": " << num(f.frames > 0 ? d.map_host_ms / static_cast<double>(f.frames) : 0)
    << ", \"unmap_host_ms\": " << num(f.frames > 0 ? d.unmap_host_ms / static_cast<double>(f.frames) : 0)
    << ", \"interop_map_host_ms\": " << measured(d.interop_map_host_ms)
    << ", \"interop_unmap_host_ms\": " << measured(d.interop_unmap_host_ms) << ", \"textbook_over_interop\": "
    << (d.interop_ms_per_tile > 0 && d.textbook_ms_per_tile > 0
            ? num(d.textbook_ms_per_tile / d.interop_ms_per_tile)
            : std::string("null"))
    << "}";
  return o.str();
}

/// An instance's "roofline" object (its rate against its GPUs' roofs), or null without a point.
std::string roofline_object(const RunFigures& f, std::size_t i) {
  const auto it = f.roofline.find(i);
  if (it == f.roofline.end()) return "null";
  const RooflinePoint& p = it->second;
  return "{\"memory_roof\": " + num(p.memory_roof) + ", \"issue_roof\": " + num(p.issue_roof) +
         ", \"wall\": " + json_string(wall_name(p.wall)) + ", \"fraction\": " + num(p.fraction()) + "}";
}

/// The "instances" array: each instance's final state, blocking on the engine (summarize).
std::string instances_array(Engine& engine, const RunFigures& f) {
  std::ostringstream o;
  o << "[";
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus st = engine.status(i);
    const StateSummary s = engine.summarize(i);
    char hash[32];
    std::snprintf(hash, sizeof hash, "0x%016" PRIx64, s.hash);
    o << (i ? ",\n" : "\n") << "    {\"index\": " << i
      << ", \"variant\": " << json_string(std::string(variant_name(st.variant)))
      << ", \"rule\": " << json_string(st.rule.to_string()) << ", \"width\": " << st.width
      << ", \"height\": " << st.height << ", \"devices\": " << device_array(engine.instance_devices(i))
      << ", \"generation\": " << s.generation << ", \"population\": " << s.population << ", \"hash\": \""
      << hash << "\", \"step_ms\": " << stats(st.step_ms) << ", \"display_ms\": " << stats(st.display_ms)
      << ", \"cups\": "
      << num(st.cups)
      // Summary pacing (core/summary_pacing.hpp): the newest measured summary's GPU ms, the frames
      // between summaries it gives, and how old the newest summary the frame loop saw was.
      << ", \"summary\": {\"ms\": " << num(st.summary_ms) << ", \"every_frames\": " << st.summary_every
      << ", \"frames_ago\": " << (st.summary ? std::to_string(st.summary_frames_ago) : std::string("null"))
      << "}, \"roofline\": " << roofline_object(f, i) << "}";
  }
  o << "\n  ]";
  return o.str();
}

}  // namespace

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(q * static_cast<double>(values.size()));
  const std::size_t i =
      static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size()))) - 1;
  return values[i];
}

void write_report(const std::string& path, Engine& engine, const RunFigures& f) {
  engine.finish();
  std::ostringstream o;
  o << "{\n";
  o << "  \"device\": " << json_string(engine.device_name()) << ",\n";
  o << "  \"backend\": " << json_string(engine.backend()) << ",\n";
  o << "  \"frames\": " << f.frames << ",\n";
  o << "  \"fps\": " << num(f.seconds > 0 ? static_cast<double>(f.frames) / f.seconds : 0) << ",\n";
  o << "  \"frame_ms\": {\"p50\": " << num(percentile(f.frame_ms, 0.50))
    << ", \"p95\": " << num(percentile(f.frame_ms, 0.95))
    << ", \"p99\": " << num(percentile(f.frame_ms, 0.99)) << "},\n";
  // The frame's span whatever runs it (the CPU engine times its steps on the host clock);
  // gpu_span_ms keeps its name for the tools that read it.
  o << "  \"span_ms\": " << num(f.gpu_span_ms) << ",\n";
  o << "  \"gpu_span_ms\": " << num(f.gpu_span_ms) << ",\n";
  o << "  \"delivered_cups\": " << num(f.delivered_cups) << ",\n";
  o << "  \"kernel_cups\": " << num(f.kernel_cups) << ",\n";
  o << "  \"busy_ms\": " << num(f.busy_ms) << ",\n";
  o << "  \"concurrency\": " << num(f.concurrency) << ",\n";
  o << "  \"host_syncs_per_frame\": " << num(f.host_syncs_per_frame) << ",\n";
  // The host's enqueue time per frame (the engine's step()) over the last frames: against
  // gpu_span_ms it says whether the host or the GPU binds the frame.
  o << "  \"host_enqueue_ms\": " << stats(engine.host_enqueue_ms()) << ",\n";
  o << "  \"stream_mode\": " << json_string(std::string(stream_mode_name(engine.stream_mode()))) << ",\n";
  const FrameGraphStats graphs = engine.frame_graph_stats();
  o << "  \"frame_graph\": {\"builds\": " << graphs.builds << ", \"build_ms\": " << num(graphs.build_ms)
    << ", \"chain\": " << graphs.chain << "},\n";
  o << "  \"timing_period\": " << engine.timing_period() << ",\n";
  o << "  \"display\": " << display_object(engine, f) << ",\n";
  const UiFigures& u = f.ui;
  o << "  \"ui\": {\"layer\": " << json_string(u.layer) << ", \"rebuilds\": " << u.rebuilds
    << ", \"build_ms\": " << num(u.rebuilds > 0 ? u.build_ms / static_cast<double>(u.rebuilds) : 0)
    << ", \"draw_ms\": " << num(f.frames > 0 ? u.draw_ms / static_cast<double>(f.frames) : 0) << "},\n";
  o << "  \"gpus\": " << gpus_array(engine, f) << ",\n";
  // Also where no GPU is in use (the CPU engine): why there are no counters.
  o << "  \"counters_source\": " << json_string(f.counters_source) << ",\n";
  o << "  \"instances\": " << instances_array(engine, f) << "\n}\n";
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError("--report " + path + ": cannot open for writing");
  file << o.str();
  if (!file.flush()) throw InputError("--report " + path + ": write failed");
}

}  // namespace ls::app
