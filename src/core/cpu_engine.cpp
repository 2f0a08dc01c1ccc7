// cpu_engine.cpp — the Engine on the host: instances of the CPU reference step (cpu_step.hpp),
// built, changed, stepped and timed as the Engine contract says.
#include "core/cpu_engine.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <new>
#include <string>

#include "core/cpu_fill.hpp"
#include "core/error.hpp"

namespace ls {

namespace {

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

constexpr std::uint64_t kNoFrame = ~std::uint64_t{0};

}  // namespace

/// The state kept by request_snapshots().
struct CpuSnapshot {
  std::uint64_t generation = 0;
  Rule rule;
  Lattice cells;
};

struct CpuEngine::Instance {
  Lattice cells;
  Lattice scratch;
  Rule rule;
  Variant variant = Variant::bitpacked;
  int k = 1;
  std::uint64_t generation = 0;
  std::uint64_t origin = 0;
  std::optional<StateSummary> summary;
  std::optional<CpuSnapshot> snapshot;
  RollingStats step_ms;
  RollingStats display_ms;
  // The newest step and display bracket, each with the frame it belongs to: an instance added
  // after a frame's step, or a redraw after the frame's first one, adds nothing to that frame.
  std::uint64_t step_frame = kNoFrame;
  double last_step_start = 0;
  double last_step_end = 0;
  std::uint64_t display_frame = kNoFrame;
  bool display_ended = false;
  double last_display_start = 0;
  double last_display_end = 0;
  long long last_generations = 0;

  /// Another workload (variant, K, stream mode, frame length): its timings start again.
  void restart_timings() {
    step_ms.clear();
    display_ms.clear();
  }
};

namespace {
void check_index(std::size_t index, std::size_t size) {
  if (index >= size) {
    throw InputError("instance " + std::to_string(index) + " does not exist (there are " +
                     std::to_string(size) + ")");
  }
}

void check_k(int k) {
  if (k < 1 || k > kMaxGenerationsPerLaunch) {
    throw InputError("generations per launch " + std::to_string(k) + " is outside 1.." +
                     std::to_string(kMaxGenerationsPerLaunch));
  }
}
}  // namespace

CpuEngine::CpuEngine(int threads) : threads_(threads) {}
CpuEngine::~CpuEngine() = default;

std::string CpuEngine::device_name() const {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "CPU";
}

std::unique_ptr<CpuEngine::Instance> CpuEngine::make_instance(const InstanceSpec& spec,
                                                              BuildProgress* progress) const {
  check_k(spec.generations_per_launch);
  auto inst = std::make_unique<Instance>();
  inst->rule = spec.rule;
  inst->variant = spec.variant;
  inst->k = spec.generations_per_launch;
  int w = spec.width, h = spec.height;
  if (const auto* l = std::get_if<Lattice>(&spec.init)) {
    w = l->width();
    h = l->height();
  }
  check_lattice_size(w, h);
  // Two lattices of one bit per cell; refuse before allocating what the machine does not have.
  check_host_memory(w, h, 2);
  const std::uint64_t need = 2ull * static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h) / 8;
  try {
    if (const auto* r = std::get_if<RandomInit>(&spec.init)) {
      if (progress) {
        if (!(r->density >= 0.0 && r->density <= 1.0))
          throw InputError("density " + std::to_string(r->density) + " is outside 0..1");
        inst->cells = Lattice(w, h);
        if (!fill_in_parallel(inst->cells, *r, *progress)) return nullptr;
      } else {
        inst->cells = Lattice::random(w, h, r->density, r->seed);
      }
      inst->origin = start_origin(spec);
    } else if (const auto* l = std::get_if<Lattice>(&spec.init)) {
      inst->cells = *l;
      inst->origin = start_origin(spec);
    } else {
      const auto& c = std::get<CopyInit>(spec.init);
      check_index(c.source, instances_.size());
      const Instance& src = *instances_[c.source];
      inst->cells = src.cells;
      inst->generation = src.generation;
      inst->origin = src.rule == spec.rule ? src.origin : unique_origin();
    }
    inst->scratch = Lattice(inst->cells.width(), inst->cells.height());
  } catch (const std::bad_alloc&) {
    throw InputError("lattice " + std::to_string(w) + "x" + std::to_string(h) +
                     " does not fit in host memory (" + std::to_string(need >> 20) + " MiB asked)");
  }
  return inst;
}

void CpuEngine::check_room(const std::vector<InstanceSpec>& specs) const {
  // Two lattices of one bit per cell per instance: the sum over all of them.
  std::vector<std::pair<long long, long long>> dims;
  long long cells = 0;
  for (const InstanceSpec& spec : specs) {
    long long w = spec.width, h = spec.height;
    if (const auto* l = std::get_if<Lattice>(&spec.init)) {
      w = l->width();
      h = l->height();
    } else if (const auto* c = std::get_if<CopyInit>(&spec.init)) {
      if (c->source < instances_.size()) {
        w = instances_[c->source]->cells.width();
        h = instances_[c->source]->cells.height();
      } else if (c->source - instances_.size() < dims.size()) {
        std::tie(w, h) = dims[c->source - instances_.size()];
      }
    }
    check_lattice_size(w, h);
    dims.emplace_back(w, h);
    cells += w * h;
  }
  if (specs.size() == 1) {
    check_host_memory(dims.front().first, dims.front().second, 2);
  } else if (specs.size() > 1) {
    const bool same = std::all_of(dims.begin(), dims.end(), [&](const auto& d) { return d == dims.front(); });
    check_host_bytes(
        2 * static_cast<std::uint64_t>(cells) / 8,
        std::to_string(specs.size()) + " instances" +
            (same ? " of " + std::to_string(dims.front().first) + "x" + std::to_string(dims.front().second)
                  : std::string()),
        true);
  }
}

CpuEngine::Instance& CpuEngine::at(std::size_t index) {
  check_index(index, instances_.size());
  return *instances_[index];
}
const CpuEngine::Instance& CpuEngine::at(std::size_t index) const {
  check_index(index, instances_.size());
  return *instances_[index];
}

void CpuEngine::add(const InstanceSpec& spec) {
  auto inst = make_instance(spec);
  instances_.push_back(std::move(inst));
}

void CpuEngine::add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) {
  if (!std::holds_alternative<Lattice>(spec.init))
    throw InputError("a moved instance needs its lattice (spec.init must be a Lattice)");
  auto inst = make_instance(spec);
  inst->generation = generation;
  inst->origin = origin;
  instances_.push_back(std::move(inst));
}

namespace {
struct CpuPrepared final : PreparedInstance {
  using PreparedInstance::PreparedInstance;
  std::shared_ptr<void> instance;  // a CpuEngine::Instance, made off the frame loop
};
}  // namespace

std::unique_ptr<PreparedInstance> CpuEngine::prepare(const InstanceSpec& spec,
                                                     BuildProgress& progress) const {
  if (std::holds_alternative<CopyInit>(spec.init))
    return Engine::prepare(spec, progress);  // a copy reads another instance: made at install
  std::unique_ptr<Instance> inst = make_instance(spec, &progress);
  if (!inst) return nullptr;
  auto out = std::make_unique<CpuPrepared>(spec);
  out->spec.init = RandomInit{};  // the cells live in the instance, not twice
  out->instance = std::shared_ptr<Instance>(std::move(inst));
  return out;
}

void CpuEngine::install(std::vector<Installation> batch) {
  // Everything that can fail first; then only moves.
  std::vector<std::unique_ptr<Instance>> made;
  std::size_t appended = 0;
  for (Installation& in : batch) {
    if (in.index >= instances_.size()) {
      if (in.index != instances_.size() + appended++)
        throw InputError("install: instances are appended in order");
    }
    if (auto* p = dynamic_cast<CpuPrepared*>(in.prepared.get())) {
      auto typed = std::static_pointer_cast<Instance>(p->instance);
      made.push_back(std::make_unique<Instance>(std::move(*typed)));
    } else {
      made.push_back(make_instance(in.prepared->spec));
    }
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].index < instances_.size())
      instances_[batch[i].index] = std::move(made[i]);
    else
      instances_.push_back(std::move(made[i]));
  }
}

void CpuEngine::remove(std::size_t index) {
  check_index(index, instances_.size());
  instances_.erase(instances_.begin() + static_cast<std::ptrdiff_t>(index));
}

void CpuEngine::replace(std::size_t index, const InstanceSpec& spec) {
  check_index(index, instances_.size());
  instances_[index] = make_instance(spec);
}

void CpuEngine::set_variant(std::size_t index, Variant variant) {
  Instance& inst = at(index);
  if (inst.variant == variant) return;
  inst.variant = variant;
  inst.restart_timings();
}

void CpuEngine::set_stream_mode(StreamMode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  for (auto& p : instances_) p->restart_timings();
  span_ms_.clear();
}

void CpuEngine::set_rule(std::size_t index, const Rule& rule) {
  Instance& inst = at(index);
  if (inst.rule == rule) return;
  inst.rule = rule;
  inst.origin = rule_change_origin(inst.origin, rule, inst.generation);
}

void CpuEngine::set_generations_per_launch(std::size_t index, int k) {
  check_k(k);
  Instance& inst = at(index);
  if (inst.k == k) return;
  inst.k = k;
  inst.restart_timings();
}

void CpuEngine::set_cell(std::size_t index, int x, int y, bool alive) {
  Instance& inst = at(index);
  if (inst.cells.get(x, y) == alive) return;
  inst.cells.set(x, y, alive);
  inst.origin = unique_origin();
}

void CpuEngine::set_timing_period(int period) {
  check_timing_period(period);
  timing_period_ = period;
  frames_to_timed_ = 0;
}

void CpuEngine::close_frame(std::uint64_t frame) {
  timeline_.clear();
  double begin = 1e300, end = -1e300, busy = 0;
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    const Instance& in = *instances_[i];
    if (in.step_frame != frame) continue;
    // One row per instance but in shared mode, as on CUDA (a frame graph gives each its branch).
    const int row = mode_ == StreamMode::shared ? 0 : static_cast<int>(i);
    timeline_.push_back({i, row, TimelineBar::Kind::step, in.last_step_start, in.last_step_end});
    if (in.display_frame == frame && in.display_ended)
      timeline_.push_back({i, row, TimelineBar::Kind::display, in.last_display_start, in.last_display_end});
  }
  for (const TimelineBar& bar : timeline_) {
    begin = std::min(begin, bar.start_ms);
    end = std::max(end, bar.end_ms);
    busy += bar.end_ms - bar.start_ms;
  }
  // Bars count from the frame's earliest start, as on CUDA.
  for (TimelineBar& bar : timeline_) {
    bar.start_ms -= begin;
    bar.end_ms -= begin;
  }
  frame_.valid = end > begin;
  frame_.gpu_span_ms = frame_.valid ? end - begin : 0;
  frame_.busy_ms = busy;
  frame_.concurrency = frame_.gpu_span_ms > 0 ? busy / frame_.gpu_span_ms : 0;
  if (frame_.valid) span_ms_.add(frame_.gpu_span_ms);
}

void CpuEngine::step(int generations) {
  if (generations < 0) throw InputError("cannot step a negative number of generations");
  if (generations == 0 || instances_.empty()) return;  // no frame, as on CUDA
  const double enqueue_start = now_ms();
  if (frame_count_ > 0 && frame_timed_) close_frame(frame_count_ - 1);
  // Reading the clock costs nothing here, but the period means the same on both backends.
  frame_timed_ = frames_to_timed_ == 0;
  frames_to_timed_ = frame_timed_ ? timing_period_ - 1 : frames_to_timed_ - 1;
  const std::uint64_t frame = frame_count_++;
  for (auto& p : instances_) {
    Instance& in = *p;
    const double t0 = now_ms();
    for (int g = 0; g < generations; ++g) {
      cpu_step(in.cells, in.scratch, in.rule, threads_);
      std::swap(in.cells, in.scratch);
    }
    const double t1 = now_ms();
    in.generation += static_cast<std::uint64_t>(generations);
    in.step_frame = frame;
    in.last_step_start = t0;
    in.last_step_end = t1;
    // Frames of another length are another workload: the statistics start again.
    if (in.last_generations != generations) {
      in.restart_timings();
      span_ms_.clear();
    }
    in.last_generations = generations;
    if (frame_timed_) in.step_ms.add(t1 - t0);
  }
  // The host does the work itself: its "enqueue" is the whole step.
  host_enqueue_.add(now_ms() - enqueue_start);
}

bool CpuEngine::begin_display(std::size_t index) {
  Instance& in = at(index);
  if (!frame_timed_) return false;
  const std::uint64_t frame = frame_count_ - 1;
  if (in.step_frame != frame || in.display_frame == frame) return false;
  in.display_frame = frame;
  in.display_ended = false;
  in.last_display_start = now_ms();
  return true;
}

void CpuEngine::end_display(std::size_t index) {
  Instance& in = at(index);
  if (!frame_timed_ || in.display_frame != frame_count_ - 1 || in.display_ended) return;
  in.last_display_end = now_ms();
  in.display_ended = true;
  in.display_ms.add(in.last_display_end - in.last_display_start);
}

void CpuEngine::request_summaries() {
  for (auto& p : instances_) p->summary = StateSummary{p->generation, p->cells.population(), p->cells.hash()};
}

void CpuEngine::step_history(std::size_t index, std::vector<float>& out) const {
  at(index).step_ms.history(out);
}

InstanceStatus CpuEngine::status(std::size_t index) const {
  const Instance& in = at(index);
  InstanceStatus s;
  s.width = in.cells.width();
  s.height = in.cells.height();
  s.rule = in.rule;
  s.variant = in.variant;
  s.generations_per_launch = in.k;
  s.generation = in.generation;
  s.origin = in.origin;
  s.summary = in.summary;
  s.step_ms = in.step_ms.summary();
  s.display_ms = in.display_ms.summary();
  const double gens = static_cast<double>(in.last_generations);
  s.cups = s.step_ms.mean > 0 ? gens * s.width * static_cast<double>(s.height) / (s.step_ms.mean * 1e-3) : 0;
  return s;
}

void CpuEngine::request_snapshots(std::uint64_t max_cells) {
  for (auto& p : instances_) {
    Instance& in = *p;
    const auto cells =
        static_cast<std::uint64_t>(in.cells.width()) * static_cast<std::uint64_t>(in.cells.height());
    if (cells > max_cells) continue;
    try {
      in.snapshot = CpuSnapshot{in.generation, in.rule, in.cells};
    } catch (const std::bad_alloc&) {
      // No room for the copy: this instance keeps its previous snapshot, if any.
    }
  }
}

std::vector<HostSnapshot> CpuEngine::snapshots() const {
  std::vector<HostSnapshot> out;
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    const auto& snap = instances_[i]->snapshot;
    if (snap) out.push_back(HostSnapshot{i, snap->generation, snap->rule, snap->cells});
  }
  return out;
}

Lattice CpuEngine::read(std::size_t index) { return at(index).cells; }

StateSummary CpuEngine::summarize(std::size_t index) {
  const Instance& in = at(index);
  return StateSummary{in.generation, in.cells.population(), in.cells.hash()};
}

const Lattice& CpuEngine::lattice(std::size_t index) const { return at(index).cells; }

}  // namespace ls
