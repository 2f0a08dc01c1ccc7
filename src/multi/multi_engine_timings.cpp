// multi_engine_timings.cpp — the children's figures merged into the engine's (multi_engine.hpp
// says how): frame timings, span history, timeline rows grouped per GPU, recovery snapshots
// renumbered to global indices.
#include "multi/multi_engine.hpp"

#include <algorithm>
#include <utility>

namespace ls::multi {

std::uint64_t MultiEngine::host_syncs_in_last_step() const {
  std::uint64_t n = 0;
  for (std::size_t s = 0; s < slots_.size(); ++s) n += use(s).host_syncs_in_last_step();
  if (split_) n += split_->host_syncs_in_last_step();
  return n;
}

FrameGraphStats MultiEngine::frame_graph_stats() const {
  FrameGraphStats out;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    const FrameGraphStats g = use(s).frame_graph_stats();
    out.builds += g.builds;
    out.build_ms += g.build_ms;
    out.chain = std::max(out.chain, g.chain);
  }
  return out;
}

FrameTimings MultiEngine::frame_timings() const {
  FrameTimings out;
  for (std::size_t s = 0; s <= slots_.size(); ++s) {
    if (s == slots_.size() && !(split_ && split_->size() > 0)) break;
    const FrameTimings t = s < slots_.size() ? use(s).frame_timings() : split_->frame_timings();
    if (!t.valid) continue;
    out.valid = true;
    out.gpu_span_ms = std::max(out.gpu_span_ms, t.gpu_span_ms);
    out.busy_ms += t.busy_ms;
    // Per GPU: the children on one device (the split child's band there, test slots) merge as
    // the whole frame does.
    for (const GpuFrameTimings& g : t.gpus) {
      auto it = std::find_if(out.gpus.begin(), out.gpus.end(),
                             [&](const GpuFrameTimings& o) { return o.device == g.device; });
      if (it == out.gpus.end()) {
        out.gpus.push_back(g);
      } else {
        it->span_ms = std::max(it->span_ms, g.span_ms);
        it->busy_ms += g.busy_ms;
      }
    }
  }
  for (GpuFrameTimings& g : out.gpus) g.concurrency = g.span_ms > 0 ? g.busy_ms / g.span_ms : 0;
  out.concurrency = out.gpu_span_ms > 0 ? out.busy_ms / out.gpu_span_ms : 0;
  return out;
}

void MultiEngine::span_history(std::vector<float>& out) const {
  out.clear();
  for (std::size_t s = 0; s <= slots_.size(); ++s) {
    if (s == slots_.size()) {
      if (!(split_ && split_->size() > 0)) break;
      split_->span_history(child_history_);
    } else {
      use(s).span_history(child_history_);
    }
    // Aligned at the newest frame: a slot that ran no instance for a while has a shorter history.
    if (child_history_.size() > out.size()) out.insert(out.begin(), child_history_.size() - out.size(), 0.0f);
    const std::size_t skip = out.size() - child_history_.size();
    for (std::size_t i = 0; i < child_history_.size(); ++i)
      out[skip + i] = std::max(out[skip + i], child_history_[i]);
  }
}

std::vector<EngineReports::TimelineOrigin> MultiEngine::timeline_origins() const {
  std::vector<TimelineOrigin> out;
  for (std::size_t s = 0; s < slots_.size(); ++s)
    for (const TimelineOrigin& o : use(s).timeline_origins()) out.push_back(o);
  if (split_)
    for (const TimelineOrigin& o : split_->timeline_origins()) out.push_back(o);
  return out;
}

std::vector<TimelineBar> MultiEngine::timeline() const {
  // Global numbers of each slot's instances, by their index in the slot's engine.
  // The split child counts as one more slot, after the others.
  const std::size_t children = slots_.size() + (split_ ? 1 : 0);
  std::vector<std::vector<std::size_t>> global(children);
  for (std::size_t s = 0; s < slots_.size(); ++s) global[s].resize(use(s).size());
  if (split_) global[slots_.size()].resize(split_->size());
  for (std::size_t i = 0; i < places_.size(); ++i) {
    const std::size_t s = places_[i].slot == kSplit ? slots_.size() : places_[i].slot;
    global[s][places_[i].local] = i;
  }
  std::vector<TimelineBar> out;
  int row_offset = 0;
  for (std::size_t s = 0; s < children; ++s) {
    int rows = 0;
    for (TimelineBar bar : s < slots_.size() ? use(s).timeline() : split_->timeline()) {
      // A copy timed here for another slot's instance (a remote tile's pixels into the display
      // GPU) is numbered in that slot's engine.
      std::size_t owner = s;
      if (bar.instance_device >= 0) {
        owner = slots_.size();
        for (std::size_t o = 0; o < slots_.size() && owner == slots_.size(); ++o)
          if (slots_[o].device == bar.instance_device) owner = o;
        if (owner == slots_.size()) continue;  // no slot runs that device (any more)
        bar.instance_device = -1;
      }
      if (bar.instance >= global[owner].size()) continue;  // removed since the frame was read
      rows = std::max(rows, bar.stream + 1);
      bar.instance = global[owner][bar.instance];
      bar.stream += row_offset;
      out.push_back(bar);
    }
    row_offset += rows;
  }
  // Rows GPU by GPU (a split instance's band rows join their GPU's), so that each GPU's rows go
  // under one header; within a GPU, in the order above.
  std::vector<std::pair<int, int>> keys;  // (device, row)
  for (const TimelineBar& bar : out) keys.emplace_back(bar.device, bar.stream);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end(),
                         [](const auto& a, const auto& b) { return a.second == b.second; }),
             keys.end());
  std::vector<int> row_of(static_cast<std::size_t>(row_offset), 0);
  for (std::size_t i = 0; i < keys.size(); ++i)
    row_of[static_cast<std::size_t>(keys[i].second)] = static_cast<int>(i);
  for (TimelineBar& bar : out) bar.stream = row_of[static_cast<std::size_t>(bar.stream)];
  return out;
}

std::vector<HostSnapshot> MultiEngine::snapshots() const {
  // Host memory only, and no make_current: after a fatal device error (which a CUDA call such as
  // cudaSetDevice may report again) this must still answer, so that the app can save every instance.
  std::vector<std::vector<std::size_t>> global(slots_.size());
  for (std::size_t s = 0; s < slots_.size(); ++s) global[s].resize(slots_[s].engine->size());
  for (std::size_t i = 0; i < places_.size(); ++i)
    if (places_[i].slot != kSplit) global[places_[i].slot][places_[i].local] = i;
  std::vector<HostSnapshot> out;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    for (HostSnapshot& snap : slots_[s].engine->snapshots()) {
      if (snap.instance >= global[s].size()) continue;
      snap.instance = global[s][snap.instance];
      out.push_back(std::move(snap));
    }
  }
  if (split_) {
    // The split child's, renumbered to global indices (host memory and event queries only).
    std::vector<std::size_t> split_global(split_->size(), places_.size());
    for (std::size_t i = 0; i < places_.size(); ++i)
      if (places_[i].slot == kSplit && places_[i].local < split_global.size())
        split_global[places_[i].local] = i;
    for (HostSnapshot& snap : split_->snapshots()) {
      if (snap.instance >= split_global.size() || split_global[snap.instance] == places_.size()) continue;
      snap.instance = split_global[snap.instance];
      out.push_back(std::move(snap));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const HostSnapshot& a, const HostSnapshot& b) { return a.instance < b.instance; });
  return out;
}

}  // namespace ls::multi
