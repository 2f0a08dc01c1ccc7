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

/// Runs `body`; an InputError from a slot's engine comes out naming the device it refused on.
template <typename Body>
void on_device(int device, Body&& body) {
  try {
    body();
  } catch (const InputError& e) {
    throw InputError("GPU " + std::to_string(device) + ": " + e.what());
  }
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
    ordinals += (s > 0 ? "," : "") + std::to_string(slots_[s].device);
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
  return {slots_[place(index).slot].device};
}

std::size_t MultiEngine::max_instances() const { return kPerSlot * slots_.size(); }

std::vector<std::size_t> MultiEngine::counts() const {
  std::vector<std::size_t> out;
  for (std::size_t s = 0; s < slots_.size(); ++s) out.push_back(use(s).size());
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
  if (use(slot).size() >= kPerSlot)
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
    const InstanceStatus s = use(source.slot).status(source.local);
    InstanceSpec moved = spec;
    moved.init = use(source.slot).read(source.local);
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
  const auto now = counts();
  const std::size_t slot = next_free_slot(now, next_slot_);
  if (slot == slots_.size())
    throw InputError("1 instance asked, " + std::to_string(max_instances()) + " running; " + room_text(now));
  add_on(spec, slot);
}

void MultiEngine::add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) {
  const auto now = counts();
  const std::size_t slot = next_free_slot(now, next_slot_);
  if (slot == slots_.size())
    throw InputError("1 instance asked, " + std::to_string(max_instances()) + " running; " + room_text(now));
  on_device(slots_[slot].device, [&] { use(slot).add_moved(spec, generation, origin); });
  places_.push_back(Place{slot, use(slot).size() - 1});
  next_slot_ = (slot + 1) % slots_.size();
}

void MultiEngine::check_room(const std::vector<InstanceSpec>& specs) const {
  // Placed as add() would place them; each slot's engine then checks its share.
  auto now = counts();
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
  use(p.slot).remove(p.local);
  places_.erase(places_.begin() + static_cast<std::ptrdiff_t>(index));
  forget_local(p.slot, p.local);
}

void MultiEngine::replace(std::size_t index, const InstanceSpec& spec) {
  const Place p = place(index);
  const auto* copy = std::get_if<CopyInit>(&spec.init);
  if (!copy) {
    on_device(slots_[p.slot].device, [&] { use(p.slot).replace(p.local, spec); });
    return;
  }
  const Place source = place(copy->source);
  if (source.slot == p.slot) {
    InstanceSpec local = spec;
    local.init = CopyInit{source.local};
    on_device(slots_[p.slot].device, [&] { use(p.slot).replace(p.local, local); });
    return;
  }
  // A copy from another device: appended to this slot with the copy's exact state, then the old
  // instance dropped; instance `index` now names the appended one.
  const InstanceStatus s = use(source.slot).status(source.local);
  InstanceSpec moved = spec;
  moved.init = use(source.slot).read(source.local);
  on_device(slots_[p.slot].device, [&] {
    use(p.slot).add_moved(moved, s.generation, s.rule == spec.rule ? s.origin : unique_origin());
  });
  try {
    use(p.slot).remove(p.local);
  } catch (...) {
    use(p.slot).remove(use(p.slot).size() - 1);  // as move(): a refusal leaves everything as it was
    throw;
  }
  forget_local(p.slot, p.local);
  places_[index] = Place{p.slot, use(p.slot).size() - 1};
}

void MultiEngine::move(std::size_t index, std::size_t slot) {
  const Place from = place(index);
  check_slot(slot);
  if (from.slot == slot) return;
  if (use(slot).size() >= kPerSlot)
    throw InputError("instance " + std::to_string(index) + " cannot move to GPU " +
                     std::to_string(slots_[slot].device) + ": 1 instance asked there; " +
                     room_text(counts()));
  const InstanceStatus s = use(from.slot).status(from.local);
  const InstanceSpec spec = spec_like(s, use(from.slot).read(from.local));
  // The target takes the state before the source lets it go: a refusal changes nothing.
  on_device(slots_[slot].device, [&] { use(slot).add_moved(spec, s.generation, s.origin); });
  try {
    use(from.slot).remove(from.local);
  } catch (...) {
    use(slot).remove(use(slot).size() - 1);
    throw;
  }
  forget_local(from.slot, from.local);
  places_[index] = Place{slot, use(slot).size() - 1};
}

void MultiEngine::set_instance_devices(std::size_t index, const std::vector<int>& devices) {
  place(index);
  if (devices.empty()) throw InputError("instance " + std::to_string(index) + " needs a device to run on");
  if (devices.size() > 1)
    throw InputError("instance " + std::to_string(index) + " on GPU " + device_list_text(devices) +
                     ": splitting an instance across GPUs is not available yet");
  move(index, slot_of_device(devices[0]));
}

void MultiEngine::set_variant(std::size_t index, Variant variant) {
  const Place& p = place(index);
  on_device(slots_[p.slot].device, [&] { use(p.slot).set_variant(p.local, variant); });
}

void MultiEngine::set_rule(std::size_t index, const Rule& rule) {
  const Place& p = place(index);
  use(p.slot).set_rule(p.local, rule);
}

void MultiEngine::set_generations_per_launch(std::size_t index, int k) {
  const Place& p = place(index);
  use(p.slot).set_generations_per_launch(p.local, k);
}

void MultiEngine::set_cell(std::size_t index, int x, int y, bool alive) {
  const Place& p = place(index);
  use(p.slot).set_cell(p.local, x, y, alive);
}

void MultiEngine::set_stream_mode(StreamMode mode) {
  std::size_t done = 0;
  try {
    for (; done < slots_.size(); ++done) use(done).set_stream_mode(mode);
  } catch (...) {
    for (std::size_t s = 0; s < done; ++s) use(s).set_stream_mode(mode_);
    throw;
  }
  mode_ = mode;
}

void MultiEngine::set_timing_period(int period) {
  check_timing_period(period);
  for (std::size_t s = 0; s < slots_.size(); ++s) use(s).set_timing_period(period);
  timing_period_ = period;
}

bool MultiEngine::frame_timed() const {
  for (std::size_t s = 0; s < slots_.size(); ++s)
    if (use(s).frame_timed()) return true;
  return false;
}

void MultiEngine::step(int generations) {
  if (generations < 0) throw InputError("cannot step a negative number of generations");
  if (generations == 0 || places_.empty()) return;  // no frame, as on one device
  const double start = now_ms();
  on_every_slot([generations](Engine& engine, std::size_t) {
    if (engine.size() > 0) engine.step(generations);
  });
  host_enqueue_.add(now_ms() - start);
}

std::uint64_t MultiEngine::host_syncs_in_last_step() const {
  std::uint64_t n = 0;
  for (std::size_t s = 0; s < slots_.size(); ++s) n += use(s).host_syncs_in_last_step();
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
}

InstanceStatus MultiEngine::status(std::size_t index) const {
  const Place& p = place(index);
  return use(p.slot).status(p.local);
}

FrameTimings MultiEngine::frame_timings() const {
  FrameTimings out;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    const FrameTimings t = use(s).frame_timings();
    if (!t.valid) continue;
    out.valid = true;
    out.gpu_span_ms = std::max(out.gpu_span_ms, t.gpu_span_ms);
    out.busy_ms += t.busy_ms;
  }
  out.concurrency = out.gpu_span_ms > 0 ? out.busy_ms / out.gpu_span_ms : 0;
  return out;
}

void MultiEngine::step_history(std::size_t index, std::vector<float>& out) const {
  const Place& p = place(index);
  use(p.slot).step_history(p.local, out);
}

void MultiEngine::span_history(std::vector<float>& out) const {
  out.clear();
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    use(s).span_history(child_history_);
    // Aligned at the newest frame: a slot that ran no instance for a while has a shorter history.
    if (child_history_.size() > out.size()) out.insert(out.begin(), child_history_.size() - out.size(), 0.0f);
    const std::size_t skip = out.size() - child_history_.size();
    for (std::size_t i = 0; i < child_history_.size(); ++i)
      out[skip + i] = std::max(out[skip + i], child_history_[i]);
  }
}

std::vector<TimelineBar> MultiEngine::timeline() const {
  // Global numbers of each slot's instances, by their index in the slot's engine.
  std::vector<std::vector<std::size_t>> global(slots_.size());
  for (std::size_t s = 0; s < slots_.size(); ++s) global[s].resize(use(s).size());
  for (std::size_t i = 0; i < places_.size(); ++i) global[places_[i].slot][places_[i].local] = i;
  std::vector<TimelineBar> out;
  int row_offset = 0;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    int rows = 0;
    for (TimelineBar bar : use(s).timeline()) {
      if (bar.instance >= global[s].size()) continue;  // removed since the frame was read
      rows = std::max(rows, bar.stream + 1);
      bar.instance = global[s][bar.instance];
      bar.stream += row_offset;
      out.push_back(bar);
    }
    row_offset += rows;
  }
  return out;
}

bool MultiEngine::begin_display(std::size_t index) {
  const Place& p = place(index);
  return use(p.slot).begin_display(p.local);
}

void MultiEngine::end_display(std::size_t index) {
  const Place& p = place(index);
  use(p.slot).end_display(p.local);
}

void MultiEngine::request_snapshots(std::uint64_t max_cells) {
  on_every_slot([max_cells](Engine& engine, std::size_t) { engine.request_snapshots(max_cells); });
}

std::vector<HostSnapshot> MultiEngine::snapshots() const {
  // Host memory only, and no make_current: after a fatal device error (which a CUDA call such as
  // cudaSetDevice may report again) this must still answer, so that the app can save every instance.
  std::vector<std::vector<std::size_t>> global(slots_.size());
  for (std::size_t s = 0; s < slots_.size(); ++s) global[s].resize(slots_[s].engine->size());
  for (std::size_t i = 0; i < places_.size(); ++i) global[places_[i].slot][places_[i].local] = i;
  std::vector<HostSnapshot> out;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    for (HostSnapshot& snap : slots_[s].engine->snapshots()) {
      if (snap.instance >= global[s].size()) continue;
      snap.instance = global[s][snap.instance];
      out.push_back(std::move(snap));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const HostSnapshot& a, const HostSnapshot& b) { return a.instance < b.instance; });
  return out;
}

Lattice MultiEngine::read(std::size_t index) {
  const Place& p = place(index);
  return use(p.slot).read(p.local);
}

StateSummary MultiEngine::summarize(std::size_t index) {
  const Place& p = place(index);
  return use(p.slot).summarize(p.local);
}

void MultiEngine::finish() {
  on_every_slot([](Engine& engine, std::size_t) { engine.finish(); });
}

}  // namespace ls::multi
