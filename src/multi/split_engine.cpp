// split_engine.cpp — the Engine over split lattices (split_engine.hpp).
#include "multi/split_engine.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <utility>

#include "core/error.hpp"
#include "core/summary_pacing.hpp"
#include "multi/device_workers.hpp"
#include "multi/split_lattice.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::multi {

std::string gpus_present() {
  std::string why;
  const int count = cuda_device_count(&why);
  if (count == 0) return "no GPU present: " + why;
  std::string out = "GPUs present:";
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    const bool named = cudaGetDeviceProperties(&prop, d) == cudaSuccess;
    if (!named) cudaGetLastError();
    out += std::string(d == 0 ? " " : ", ") + std::to_string(d) + " " + (named ? prop.name : "(unreadable)");
  }
  return out;
}

struct SplitEngine::Entry {
  std::unique_ptr<SplitLattice> lattice;
  std::uint64_t origin = 0;
  std::unique_ptr<BandTimings> timing;  // fresh with each new lattice shape or state
  SummaryPacer pacer;
  std::uint64_t asked_generation = ~std::uint64_t{0};  // the state the newest request summarizes
  /// The frame (frames_) at which each recent request's state was current, by its generation.
  std::array<std::pair<std::uint64_t, std::uint64_t>, 4> asked{};
  std::size_t next_asked = 0;
};

SplitEngine::SplitEngine(std::vector<int> devices, SplitTuning tuning)
    : devices_(std::move(devices)), tuning_(tuning) {
  if (devices_.empty()) throw InputError("a split engine needs at least one device");
  check_split_tuning(tuning_);
  std::string why;
  const int count = cuda_device_count(&why);
  if (count == 0) throw DeviceError("no usable CUDA device (" + why + ")");
  for (const int d : devices_)
    if (d < 0 || d >= count)
      throw InputError("device " + std::to_string(d) + " does not exist; " + gpus_present());
  workers_ = std::make_unique<DeviceWorkers>(devices_);
}

SplitEngine::~SplitEngine() {
  instances_.clear();  // before the threads that own the devices' work stop
  workers_.reset();
}

std::string SplitEngine::device_name() const {
  std::string out;
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(devices_[i]);
  }
  return out;
}

int SplitEngine::cuda_device() const { return devices_.front(); }

std::vector<int> SplitEngine::instance_devices(std::size_t index) const {
  at(index);
  return devices_;
}

SplitEngine::Entry& SplitEngine::at(std::size_t index) const {
  if (index >= instances_.size())
    throw InputError("instance " + std::to_string(index) + " does not exist (there are " +
                     std::to_string(instances_.size()) + ")");
  return *instances_[index];
}

SplitLattice& SplitEngine::lattice(std::size_t index) const { return *at(index).lattice; }

std::unique_ptr<SplitLattice> SplitEngine::make(const InstanceSpec& spec, std::uint64_t generation) {
  if (const auto* copy = std::get_if<CopyInit>(&spec.init)) {
    SplitLattice& source = *at(copy->source).lattice;
    InstanceSpec s = spec;
    s.init = source.read();
    return std::make_unique<SplitLattice>(*workers_, s, source.generation(), nullptr, tuning_);
  }
  return std::make_unique<SplitLattice>(*workers_, spec, generation, nullptr, tuning_);
}

void SplitEngine::add(const InstanceSpec& spec) {
  auto e = std::make_unique<Entry>();
  e->origin = std::holds_alternative<CopyInit>(spec.init) ? at(std::get<CopyInit>(spec.init).source).origin
                                                          : start_origin(spec);
  e->lattice = make(spec);
  e->timing = std::make_unique<BandTimings>(devices_);
  instances_.push_back(std::move(e));
}

void SplitEngine::add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) {
  if (!std::holds_alternative<Lattice>(spec.init))
    throw InputError("a moved instance needs its lattice (spec.init must be a Lattice)");
  auto e = std::make_unique<Entry>();
  e->origin = origin;
  e->lattice = make(spec, generation);
  e->timing = std::make_unique<BandTimings>(devices_);
  instances_.push_back(std::move(e));
}

void SplitEngine::remove(std::size_t index) {
  at(index);
  instances_.erase(instances_.begin() + static_cast<std::ptrdiff_t>(index));
  timings_.forget(index);
}

void SplitEngine::replace(std::size_t index, const InstanceSpec& spec) {
  Entry& e = at(index);
  auto fresh = make(spec);
  auto timing = std::make_unique<BandTimings>(devices_);
  e.origin = std::holds_alternative<CopyInit>(spec.init) ? at(std::get<CopyInit>(spec.init).source).origin
                                                         : start_origin(spec);
  e.lattice = std::move(fresh);
  e.timing = std::move(timing);
}

namespace {

/// A new split lattice holding `old`'s state and generation under a changed spec (the new one is
/// made first, so a refusal changes nothing).
InstanceSpec respec(SplitLattice& old) {
  InstanceSpec s;
  s.width = old.width();
  s.height = old.height();
  s.rule = old.rule();
  s.variant = old.variant();
  s.generations_per_launch = old.generations_per_launch();
  s.init = old.read();
  return s;
}

}  // namespace

void SplitEngine::set_variant(std::size_t index, Variant variant) {
  Entry& e = at(index);
  if (e.lattice->variant() == variant) return;
  InstanceSpec s = respec(*e.lattice);
  s.variant = variant;
  rebuild(e, s);
}

void SplitEngine::set_generations_per_launch(std::size_t index, int k) {
  Entry& e = at(index);
  if (k < 1 || k > kMaxGenerationsPerLaunch)
    throw InputError("generations per launch " + std::to_string(k) + " is outside 1.." +
                     std::to_string(kMaxGenerationsPerLaunch));
  if (e.lattice->generations_per_launch() == k) return;
  // The halo depth follows k: rebuild (k is rarely changed; a step is not).
  InstanceSpec s = respec(*e.lattice);
  s.generations_per_launch = k;
  rebuild(e, s);
}

void SplitEngine::rebuild(Entry& e, const InstanceSpec& spec) {
  // Everything that can throw first: on an error the instance is as it was.
  auto timing = std::make_unique<BandTimings>(devices_);
  e.lattice = std::make_unique<SplitLattice>(*workers_, spec, e.lattice->generation(), nullptr, tuning_);
  e.timing = std::move(timing);
}

void SplitEngine::set_rule(std::size_t index, const Rule& rule) {
  Entry& e = at(index);
  if (e.lattice->rule() == rule) return;
  e.lattice->set_rule(rule);
  e.origin = rule_change_origin(e.origin, rule, e.lattice->generation());
}

void SplitEngine::set_cell(std::size_t index, int x, int y, bool alive) {
  Entry& e = at(index);
  e.lattice->set_cell(x, y, alive);
  e.origin = unique_origin();
}

void SplitEngine::set_timing_period(int period) {
  check_timing_period(period);
  timing_period_ = period;
  timings_.set_period(period);
}

void SplitEngine::harvest_timings() {
  std::vector<BandTimings*> list;
  list.reserve(instances_.size());
  for (auto& e : instances_) list.push_back(e->timing.get());
  timings_.harvest(list, devices_);
}

void SplitEngine::step(int generations) {
  if (generations <= 0 || instances_.empty()) return;  // no frame
  ++frames_;
  last_step_generations_ = generations;
  harvest_timings();
  const std::optional<std::uint64_t> timed = timings_.start_frame();
  for (auto& e : instances_) {
    e->timing->close();  // the last frame's summaries and snapshots are asked no more
    if (!timed) {
      e->lattice->step(generations);
      continue;
    }
    e->timing->claim(*timed, generations, clock_,
                     timings_.follows_timed_frame() && e->lattice->ran_nothing_since_step());
    BandTimings& t = *e->timing;
    e->lattice->step(generations, {t.start_hook(), t.end_hook(), t.mark(TimelineBar::Kind::exchange, false),
                                   t.mark(TimelineBar::Kind::exchange, true)});
  }
}

void SplitEngine::step_history(std::size_t index, std::vector<float>& out) const {
  at(index).timing->step_history(out);
}

std::uint64_t SplitEngine::borrowed_starts(std::size_t index) const {
  return at(index).timing->borrowed_starts();
}

void SplitEngine::request_summaries() {
  for (auto& e : instances_) {
    SplitLattice& l = *e->lattice;
    l.newest_summary();  // a poll; reads and measures a finished one
    const bool in_flight = l.summary_pending();
    if (const auto ms = l.take_summary_ms()) e->pacer.observe_cost(*ms);
    // One summary at a time: another queued behind one still running adds its whole cost to the
    // bands' streams and replaces the running one's result before it is read.
    const bool changed = l.generation() != e->asked_generation && !in_flight;
    const double work_ms = e->timing->step_ms().mean;
    if (!e->pacer.due(changed, work_ms, in_flight)) continue;
    l.request_summary(e->timing->mark(TimelineBar::Kind::summary, false),
                      e->timing->mark(TimelineBar::Kind::summary, true));
    e->asked_generation = l.generation();
    e->asked[e->next_asked++ % e->asked.size()] = {l.generation(), frames_};
  }
}

InstanceStatus SplitEngine::status(std::size_t index) const {
  const Entry& e = at(index);
  SplitLattice& l = *e.lattice;
  InstanceStatus s;
  s.width = l.width();
  s.height = l.height();
  s.rule = l.rule();
  s.variant = l.variant();
  s.generations_per_launch = l.generations_per_launch();
  s.generation = l.generation();
  s.origin = e.origin;
  s.summary = l.newest_summary();
  if (s.summary) {
    // Asked in one of the newest requests: as old as that request. Older than all of them (the
    // summaries take longer than the frames that ask for them): its age from the generations it
    // lags by, at the frames' present length, so that the label and the panel say which
    // generation it counted rather than pass it off as current.
    bool found = false;
    for (const auto& [generation, frame] : e.asked) {
      if (e.next_asked > 0 && generation == s.summary->generation) {
        s.summary_frames_ago = frames_ - frame;
        found = true;
      }
    }
    if (!found && s.summary->generation < s.generation)
      s.summary_frames_ago = std::max<std::uint64_t>(
          (s.generation - s.summary->generation) / static_cast<std::uint64_t>(last_step_generations_),
          kFreshSummaryFrames + 1);
  }
  s.step_ms = e.timing->step_ms();
  s.summary_ms = e.pacer.cost_ms();
  s.summary_every = e.pacer.every(s.step_ms.mean);
  if (s.step_ms.mean > 0)
    s.cups = static_cast<double>(s.width) * s.height * e.timing->mean_generations() / (s.step_ms.mean * 1e-3);
  return s;
}

std::pair<SplitLattice::BandHook, SplitLattice::BandHook> SplitEngine::display_marks(std::size_t index) {
  BandTimings& t = *at(index).timing;
  return {t.mark(TimelineBar::Kind::display, false), t.mark(TimelineBar::Kind::display, true)};
}

void SplitEngine::request_snapshots(std::uint64_t max_cells) {
  for (auto& e : instances_) {
    const SplitLattice& l = *e->lattice;
    if (static_cast<std::uint64_t>(l.width()) * static_cast<std::uint64_t>(l.height()) <= max_cells)
      e->lattice->request_snapshot(e->timing->mark(TimelineBar::Kind::snapshot, false),
                                   e->timing->mark(TimelineBar::Kind::snapshot, true));
  }
}

std::vector<HostSnapshot> SplitEngine::snapshots() const {
  std::vector<HostSnapshot> out;
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    std::optional<HostSnapshot> snap = instances_[i]->lattice->newest_snapshot();
    if (!snap) continue;
    snap->instance = i;
    out.push_back(std::move(*snap));
  }
  return out;
}

Lattice SplitEngine::read(std::size_t index) { return at(index).lattice->read(); }

StateSummary SplitEngine::summarize(std::size_t index) { return at(index).lattice->summarize(); }

void SplitEngine::finish() {
  // As CudaEngine's: the work given so far is done; a summary in flight lands, none is asked.
  for (auto& e : instances_) e->lattice->wait_idle();
  harvest_timings();  // every band's work is done: the newest frame reads at once
}

}  // namespace ls::multi
