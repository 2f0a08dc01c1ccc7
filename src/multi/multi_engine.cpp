// multi_engine.cpp — instances spread over device slots: placement, moves, and every Engine call
// forwarded to the slot that runs the instance (multi_engine.hpp says how timings merge).
#include "multi/multi_engine.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <tuple>
#include <utility>
#include <variant>

#include "core/error.hpp"
#include "multi/slot_threads.hpp"

namespace ls::multi {
namespace {

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

constexpr auto kPerSlot = static_cast<std::size_t>(kMaxInstancesPerDevice);

/// Runs `body`; an InputError from a child comes out naming where it refused ("GPU 1").
template <typename Body>
void on_device(const std::string& where, Body&& body) {
  try {
    body();
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

template <typename Body>
void on_device(int device, Body&& body) {
  on_device("GPU " + std::to_string(device), std::forward<Body>(body));
}

}  // namespace

MultiEngine::MultiEngine(std::vector<DeviceSlot> slots, SlotEnqueue enqueue)
    : MultiEngine(std::move(slots), false, enqueue) {}

MultiEngine::MultiEngine(std::vector<DeviceSlot> slots, RepeatedDevicesForTests, SlotEnqueue enqueue)
    : MultiEngine(std::move(slots), true, enqueue) {}

MultiEngine::MultiEngine(std::vector<DeviceSlot> slots, bool allow_repeats, SlotEnqueue enqueue)
    : slots_(std::move(slots)) {
  if (slots_.empty()) throw InputError("an engine over several devices needs at least one device");
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    if (!slots_[s].engine) throw InputError("device slot " + std::to_string(s) + " has no engine");
    if (use(s).size() != 0)
      throw InputError("device slot " + std::to_string(s) + "'s engine must start empty");
    for (std::size_t t = 0; t < s && !allow_repeats; ++t)
      if (slots_[t].device == slots_[s].device)
        throw InputError("device " + std::to_string(slots_[s].device) + " is listed twice");
  }
  mode_ = use(0).stream_mode();
  timing_period_ = use(0).timing_period();
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    use(s).set_stream_mode(mode_);
    use(s).set_timing_period(timing_period_);
  }
  if (enqueue == SlotEnqueue::per_slot_threads) {
    std::vector<std::function<void()>> enter;
    for (const DeviceSlot& slot : slots_) enter.push_back(slot.make_current);
    threads_ = std::make_unique<SlotThreads>(std::move(enter));
  }
}

MultiEngine::~MultiEngine() {
  split_.reset();  // its band threads make their devices current themselves
  // A child that cannot be released where it ran (its device lost) is released below with the slots.
  try {
    on_every_slot([this](Engine&, std::size_t s) { slots_[s].engine.reset(); });
  } catch (...) {
  }
  threads_.reset();
}

std::string MultiEngine::backend() const { return use(0).backend(); }

std::string MultiEngine::device_name() const {
  // One name for GPUs of one model ("NVIDIA H200 x 2 (0,1)"): the panel's title line is short.
  std::vector<std::string> names;
  std::string ordinals;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    names.push_back(use(s).device_name());
    if (s > 0) ordinals += ',';
    ordinals += std::to_string(slots_[s].device);
  }
  if (std::all_of(names.begin(), names.end(), [&](const std::string& n) { return n == names.front(); }))
    return names.front() + " x " + std::to_string(names.size()) + " (" + ordinals + ")";
  std::string out;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    if (!out.empty()) out += ", ";
    out += std::to_string(slots_[s].device) + ": " + names[s];
  }
  return out;
}

int MultiEngine::cuda_device() const { return use(0).cuda_device(); }

const MultiEngine::Place& MultiEngine::place(std::size_t index) const {
  if (index >= places_.size())
    throw InputError("instance " + std::to_string(index) + " does not exist (there are " +
                     std::to_string(places_.size()) + ")");
  return places_[index];
}

void MultiEngine::check_slot(std::size_t slot) const {
  if (slot >= slots_.size())
    throw InputError("device slot " + std::to_string(slot) + " does not exist (there are " +
                     std::to_string(slots_.size()) + ")");
}

int MultiEngine::slot_device(std::size_t slot) const {
  check_slot(slot);
  return slots_[slot].device;
}

std::size_t MultiEngine::slot_of_device(int device) const {
  std::vector<int> listed;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    if (slots_[s].device == device) return s;
    listed.push_back(slots_[s].device);
  }
  throw InputError("GPU " + std::to_string(device) + " is not one of this run's devices (" +
                   device_list_text(listed) + ")");
}

std::size_t MultiEngine::slot_of(std::size_t index) const { return place(index).slot; }

std::size_t MultiEngine::local_of(std::size_t index) const { return place(index).local; }

Engine& MultiEngine::slot_engine(std::size_t slot) const {
  check_slot(slot);
  return use(slot);
}

Engine& MultiEngine::use(std::size_t slot) const {
  const DeviceSlot& s = slots_[slot];
  if (s.make_current) s.make_current();
  return *s.engine;
}

void MultiEngine::on_every_slot(const std::function<void(Engine& engine, std::size_t slot)>& job) {
  if (threads_) {
    // On slot s's thread, whose device its make_current made current once.
    threads_->run_on_all([&](int s) {
      const auto slot = static_cast<std::size_t>(s);
      job(*slots_[slot].engine, slot);
    });
    return;
  }
  std::exception_ptr first;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    try {
      job(use(s), s);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

std::vector<int> MultiEngine::instance_devices(std::size_t index) const {
  const Place& p = place(index);
  if (p.slot == kSplit) return all_devices();
  return {slots_[p.slot].device};
}

std::vector<int> MultiEngine::all_devices() const {
  std::vector<int> out;
  for (const DeviceSlot& slot : slots_) out.push_back(slot.device);
  return out;
}

Engine& MultiEngine::engine_of(const Place& p) const {
  if (p.slot == kSplit) return split_engine();
  return use(p.slot);
}

std::string MultiEngine::where(const Place& p) const {
  if (p.slot == kSplit) return "GPUs " + device_list_text(all_devices());
  return "GPU " + std::to_string(slots_[p.slot].device);
}

void MultiEngine::enable_splits(std::function<std::unique_ptr<Engine>()> make) {
  make_split_ = std::move(make);
}

void MultiEngine::set_split_new(bool on) {
  if (on && !make_split_) throw InputError("splitting instances across GPUs is not available here");
  if (on && slots_.size() < 2)
    throw InputError("splitting instances needs at least two GPUs (this run has GPU " +
                     device_list_text(all_devices()) + ")");
  split_new_ = on;
}

bool MultiEngine::is_split(std::size_t index) const { return place(index).slot == kSplit; }

Engine& MultiEngine::split_engine() const {
  if (!split_) throw InputError("no instance is split across GPUs");
  return *split_;
}

Engine& MultiEngine::split_child() {
  if (!make_split_) throw InputError("splitting instances across GPUs is not available here");
  if (!split_) {
    auto made = make_split_();
    made->set_stream_mode(mode_);
    made->set_timing_period(timing_period_);
    split_ = std::move(made);
  }
  return *split_;
}

void MultiEngine::add_split(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) {
  const auto now = counts();
  for (std::size_t s = 0; s < slots_.size(); ++s)
    if (now[s] >= kPerSlot)
      throw InputError("1 split instance asked on GPUs " + device_list_text(all_devices()) + "; " +
                       room_text(now));
  Engine& split = split_child();
  const Place where_to{kSplit, 0};
  if (std::holds_alternative<Lattice>(spec.init))
    on_device(where(where_to), [&] { split.add_moved(spec, generation, origin); });
  else
    on_device(where(where_to), [&] { split.add(spec); });
  places_.push_back(Place{kSplit, split.size() - 1});
}

std::size_t MultiEngine::max_instances() const {
  // New instances split over every GPU count on each: kPerSlot of them fill every GPU.
  return split_new_ ? kPerSlot : kPerSlot * slots_.size();
}

std::vector<std::size_t> MultiEngine::counts() const {
  // A split instance counts on every GPU.
  const std::size_t split = split_ ? split_->size() : 0;
  std::vector<std::size_t> out;
  for (std::size_t s = 0; s < slots_.size(); ++s) out.push_back(use(s).size() + split);
  return out;
}

std::size_t MultiEngine::next_free_slot(const std::vector<std::size_t>& counts, std::size_t from) const {
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const std::size_t s = (from + i) % slots_.size();
    if (counts[s] < kPerSlot) return s;
  }
  return slots_.size();
}

std::string MultiEngine::room_text(const std::vector<std::size_t>& counts) const {
  std::string out = "free: ";
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    if (s > 0) out += ", ";
    out += "GPU " + std::to_string(slots_[s].device) + ": " +
           std::to_string(kPerSlot - std::min(counts[s], kPerSlot));
  }
  return out + " (of " + std::to_string(kPerSlot) + " instances per GPU)";
}

void MultiEngine::add_to_slot(const InstanceSpec& spec, std::size_t slot) {
  if (counts()[slot] >= kPerSlot)
    throw InputError("1 instance asked on GPU " + std::to_string(slots_[slot].device) + "; " +
                     room_text(counts()));
  const auto* copy = std::get_if<CopyInit>(&spec.init);
  const Place source = copy ? place(copy->source) : Place{};
  if (!copy) {
    on_device(slots_[slot].device, [&] { use(slot).add(spec); });
  } else if (source.slot == slot) {
    InstanceSpec local = spec;
    local.init = CopyInit{source.local};
    on_device(slots_[slot].device, [&] { use(slot).add(local); });
  } else {
    // A copy of an instance on another device: its exact state and generation, and its origin
    // under the same rule, as a copy on one device gets.
    const InstanceStatus s = engine_of(source).status(source.local);
    InstanceSpec moved = spec;
    moved.init = engine_of(source).read(source.local);
    on_device(slots_[slot].device, [&] {
      use(slot).add_moved(moved, s.generation, s.rule == spec.rule ? s.origin : unique_origin());
    });
  }
  places_.push_back(Place{slot, use(slot).size() - 1});
}

void MultiEngine::add_on(const InstanceSpec& spec, std::size_t slot) {
  check_slot(slot);
  add_to_slot(spec, slot);
  next_slot_ = (slot + 1) % slots_.size();
}

void MultiEngine::add(const InstanceSpec& spec) {
  if (split_new_) {
    const auto* copy = std::get_if<CopyInit>(&spec.init);
    if (!copy) {
      add_split(spec, 0, 0);
      return;
    }
    // A copy: the source's exact state, generation and (same rule) origin.
    const Place source = place(copy->source);
    const InstanceStatus s = engine_of(source).status(source.local);
    InstanceSpec moved = spec;
    moved.init = engine_of(source).read(source.local);
    add_split(moved, s.generation, s.rule == spec.rule ? s.origin : unique_origin());
    return;
  }
  const auto now = counts();
  const std::size_t slot = next_free_slot(now, next_slot_);
  if (slot == slots_.size())
    throw InputError("1 instance asked, " + std::to_string(max_instances()) + " running; " + room_text(now));
  add_on(spec, slot);
}

void MultiEngine::add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) {
  if (split_new_) {
    add_split(spec, generation, origin);
    return;
  }
  const auto now = counts();
  const std::size_t slot = next_free_slot(now, next_slot_);
  if (slot == slots_.size())
    throw InputError("1 instance asked, " + std::to_string(max_instances()) + " running; " + room_text(now));
  on_device(slots_[slot].device, [&] { use(slot).add_moved(spec, generation, origin); });
  places_.push_back(Place{slot, use(slot).size() - 1});
  next_slot_ = (slot + 1) % slots_.size();
}

void MultiEngine::check_room(const std::vector<InstanceSpec>& specs) const {
  auto now = counts();
  if (split_new_) {
    // Each new instance split over every GPU (the split lattice checks its memory when made).
    for (std::size_t s = 0; s < slots_.size(); ++s)
      if (now[s] + specs.size() > kPerSlot)
        throw InputError(std::to_string(specs.size()) + " split instances asked, " + std::to_string(size()) +
                         " running; " + room_text(now));
    return;
  }
  // Placed as add() would place them; each slot's engine then checks its share.
  std::vector<std::vector<InstanceSpec>> shares(slots_.size());
  std::vector<std::pair<int, int>> dims;  // of each spec, for copies of copies
  std::size_t cursor = next_slot_;
  for (const InstanceSpec& spec : specs) {
    const std::size_t slot = next_free_slot(now, cursor);
    if (slot == slots_.size())
      throw InputError(std::to_string(specs.size()) + " instances asked, " + std::to_string(size()) +
                       " running; " + room_text(counts()));
    // The engines size a share by its lattices; a copy is sized by its source.
    InstanceSpec sized = spec;
    if (const auto* l = std::get_if<Lattice>(&spec.init)) {
      sized.width = l->width();
      sized.height = l->height();
    } else if (const auto* c = std::get_if<CopyInit>(&spec.init)) {
      if (c->source < size()) {
        const InstanceStatus s = status(c->source);
        sized.width = s.width;
        sized.height = s.height;
      } else if (c->source - size() < dims.size()) {
        std::tie(sized.width, sized.height) = dims[c->source - size()];
      }
      sized.init = RandomInit{};
    }
    dims.emplace_back(sized.width, sized.height);
    shares[slot].push_back(std::move(sized));
    ++now[slot];
    cursor = (slot + 1) % slots_.size();
  }
  for (std::size_t s = 0; s < slots_.size(); ++s)
    if (!shares[s].empty()) on_device(slots_[s].device, [&] { use(s).check_room(shares[s]); });
}

void MultiEngine::forget_local(std::size_t slot, std::size_t local) {
  for (Place& p : places_)
    if (p.slot == slot && p.local > local) --p.local;
}

void MultiEngine::remove(std::size_t index) {
  const Place p = place(index);
  engine_of(p).remove(p.local);
  places_.erase(places_.begin() + static_cast<std::ptrdiff_t>(index));
  forget_local(p.slot, p.local);
}

void MultiEngine::replace(std::size_t index, const InstanceSpec& spec) {
  const Place p = place(index);
  const auto* copy = std::get_if<CopyInit>(&spec.init);
  if (!copy) {
    on_device(where(p), [&] { engine_of(p).replace(p.local, spec); });
    return;
  }
  const Place source = place(copy->source);
  if (source.slot == p.slot) {
    InstanceSpec local = spec;
    local.init = CopyInit{source.local};
    on_device(where(p), [&] { engine_of(p).replace(p.local, local); });
    return;
  }
  // A copy from another device: appended to this slot with the copy's exact state, then the old
  // instance dropped; instance `index` now names the appended one.
  const InstanceStatus s = engine_of(source).status(source.local);
  InstanceSpec moved = spec;
  moved.init = engine_of(source).read(source.local);
  Engine& target = engine_of(p);
  on_device(where(p),
            [&] { target.add_moved(moved, s.generation, s.rule == spec.rule ? s.origin : unique_origin()); });
  try {
    target.remove(p.local);
  } catch (...) {
    target.remove(target.size() - 1);  // as move(): a refusal leaves everything as it was
    throw;
  }
  forget_local(p.slot, p.local);
  places_[index] = Place{p.slot, target.size() - 1};
}

void MultiEngine::move(std::size_t index, std::size_t slot) {
  const Place from = place(index);
  check_slot(slot);
  if (from.slot == slot) return;
  // A split instance (merging back) already counts on the target GPU.
  if (counts()[slot] - (from.slot == kSplit ? 1 : 0) >= kPerSlot)
    throw InputError("instance " + std::to_string(index) + " cannot move to GPU " +
                     std::to_string(slots_[slot].device) + ": 1 instance asked there; " +
                     room_text(counts()));
  const InstanceStatus s = engine_of(from).status(from.local);
  const InstanceSpec spec = spec_like(s, engine_of(from).read(from.local));
  // The target takes the state before the source lets it go: a refusal changes nothing.
  on_device(slots_[slot].device, [&] { use(slot).add_moved(spec, s.generation, s.origin); });
  try {
    engine_of(from).remove(from.local);
  } catch (...) {
    use(slot).remove(use(slot).size() - 1);
    throw;
  }
  forget_local(from.slot, from.local);
  places_[index] = Place{slot, use(slot).size() - 1};
}

void MultiEngine::set_instance_devices(std::size_t index, const std::vector<int>& devices) {
  const Place p = place(index);
  if (devices.empty()) throw InputError("instance " + std::to_string(index) + " needs a device to run on");
  if (devices.size() == 1) {
    move(index, slot_of_device(devices[0]));
    return;
  }
  std::vector<int> asked = devices, all = all_devices();
  std::sort(asked.begin(), asked.end());
  std::sort(all.begin(), all.end());
  if (asked != all)
    throw InputError("instance " + std::to_string(index) + " on GPU " + device_list_text(devices) +
                     ": a split instance runs on every GPU of this run (" + device_list_text(all_devices()) +
                     ")");
  if (p.slot == kSplit) return;
  if (!make_split_)
    throw InputError("instance " + std::to_string(index) + " on GPU " + device_list_text(devices) +
                     ": this engine cannot split an instance across GPUs");
  const auto now = counts();
  for (std::size_t s = 0; s < slots_.size(); ++s)
    if (s != p.slot && now[s] >= kPerSlot)
      throw InputError("instance " + std::to_string(index) + " cannot be split: 1 instance asked on GPU " +
                       std::to_string(slots_[s].device) + "; " + room_text(now));
  const InstanceStatus s = use(p.slot).status(p.local);
  const InstanceSpec spec = spec_like(s, use(p.slot).read(p.local));
  // The split lattice takes the state before the slot lets it go: a refusal (a band too thin, a
  // GPU without the memory) changes nothing.
  Engine& split = split_child();
  on_device(where(Place{kSplit, 0}), [&] { split.add_moved(spec, s.generation, s.origin); });
  try {
    use(p.slot).remove(p.local);
  } catch (...) {
    split.remove(split.size() - 1);
    throw;
  }
  forget_local(p.slot, p.local);
  places_[index] = Place{kSplit, split.size() - 1};
}

void MultiEngine::set_variant(std::size_t index, Variant variant) {
  const Place& p = place(index);
  on_device(where(p), [&] { engine_of(p).set_variant(p.local, variant); });
}

void MultiEngine::set_rule(std::size_t index, const Rule& rule) {
  const Place& p = place(index);
  engine_of(p).set_rule(p.local, rule);
}

void MultiEngine::set_generations_per_launch(std::size_t index, int k) {
  const Place& p = place(index);
  on_device(where(p), [&] { engine_of(p).set_generations_per_launch(p.local, k); });
}

void MultiEngine::set_cell(std::size_t index, int x, int y, bool alive) {
  const Place& p = place(index);
  engine_of(p).set_cell(p.local, x, y, alive);
}

void MultiEngine::set_stream_mode(StreamMode mode) {
  std::size_t done = 0;
  try {
    for (; done < slots_.size(); ++done) use(done).set_stream_mode(mode);
  } catch (...) {
    for (std::size_t s = 0; s < done; ++s) use(s).set_stream_mode(mode_);
    throw;
  }
  if (split_) split_->set_stream_mode(mode);
  mode_ = mode;
}

void MultiEngine::set_timing_period(int period) {
  check_timing_period(period);
  for (std::size_t s = 0; s < slots_.size(); ++s) use(s).set_timing_period(period);
  if (split_) split_->set_timing_period(period);
  timing_period_ = period;
}

bool MultiEngine::frame_timed() const {
  for (std::size_t s = 0; s < slots_.size(); ++s)
    if (use(s).frame_timed()) return true;
  return split_ && split_->size() > 0 && split_->frame_timed();
}

void MultiEngine::step(int generations) {
  if (generations < 0) throw InputError("cannot step a negative number of generations");
  if (generations == 0 || places_.empty()) return;  // no frame, as on one device
  const double start = now_ms();
  on_every_slot([generations](Engine& engine, std::size_t) {
    if (engine.size() > 0) engine.step(generations);
  });
  // The split instances' bands: each band's own thread enqueues its part.
  if (split_ && split_->size() > 0) split_->step(generations);
  host_enqueue_.add(now_ms() - start);
}

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

void MultiEngine::request_summaries() {
  on_every_slot([](Engine& engine, std::size_t) { engine.request_summaries(); });
  if (split_ && split_->size() > 0) split_->request_summaries();
}

InstanceStatus MultiEngine::status(std::size_t index) const {
  const Place& p = place(index);
  return engine_of(p).status(p.local);
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

void MultiEngine::step_history(std::size_t index, std::vector<float>& out) const {
  const Place& p = place(index);
  engine_of(p).step_history(p.local, out);
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
      if (bar.instance >= global[s].size()) continue;  // removed since the frame was read
      rows = std::max(rows, bar.stream + 1);
      bar.instance = global[s][bar.instance];
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

bool MultiEngine::begin_display(std::size_t index) {
  const Place& p = place(index);
  return engine_of(p).begin_display(p.local);
}

void MultiEngine::end_display(std::size_t index) {
  const Place& p = place(index);
  engine_of(p).end_display(p.local);
}

void MultiEngine::request_snapshots(std::uint64_t max_cells) {
  on_every_slot([max_cells](Engine& engine, std::size_t) { engine.request_snapshots(max_cells); });
  if (split_ && split_->size() > 0) split_->request_snapshots(max_cells);
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

Lattice MultiEngine::read(std::size_t index) {
  const Place& p = place(index);
  return engine_of(p).read(p.local);
}

StateSummary MultiEngine::summarize(std::size_t index) {
  const Place& p = place(index);
  return engine_of(p).summarize(p.local);
}

void MultiEngine::finish() {
  on_every_slot([](Engine& engine, std::size_t) { engine.finish(); });
  if (split_) split_->finish();
}

}  // namespace ls::multi
