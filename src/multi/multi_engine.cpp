// multi_engine.cpp — instances spread over device slots (multi_engine.hpp): the slots, their
// threads and where each instance runs; the calls over every slot (a frame, summaries, snapshots,
// the settings).
#include "multi/multi_engine.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <utility>

#include "core/error.hpp"
#include "multi/slot_threads.hpp"

namespace ls::multi {

namespace {

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

MultiEngine::MultiEngine(std::vector<DeviceSlot> slots, SlotEnqueue enqueue)
    : MultiEngine(std::move(slots), false, enqueue) {}

MultiEngine::MultiEngine(std::vector<DeviceSlot> slots, RepeatedDevicesForTests, SlotEnqueue enqueue)
    : MultiEngine(std::move(slots), true, enqueue) {}

MultiEngine::MultiEngine(std::vector<DeviceSlot> slots, bool allow_repeats, SlotEnqueue enqueue)
    : slots_(std::move(slots)), enqueue_(enqueue) {
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
    use(s).set_timeline_clock(timeline_clock_);
  }
  if (enqueue != SlotEnqueue::calling_thread) {
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

void MultiEngine::on_every_slot(const std::function<void(Engine& engine, std::size_t slot)>& job,
                                bool on_threads) {
  if (threads_ && on_threads) {
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

void MultiEngine::on_device(const std::string& where, const std::function<void()>& body) {
  try {
    body();
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
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
  if (mode != mode_) choice_.restart();  // a frame's calls per GPU are another number now
  mode_ = mode;
}

void MultiEngine::set_timing_period(int period) {
  check_timing_period(period);
  for (std::size_t s = 0; s < slots_.size(); ++s) use(s).set_timing_period(period);
  if (split_) split_->set_timing_period(period);
  timing_period_ = period;
}

void MultiEngine::set_timeline_clock(bool on) {
  for (std::size_t s = 0; s < slots_.size(); ++s) use(s).set_timeline_clock(on);
  if (split_) split_->set_timeline_clock(on);
  timeline_clock_ = on;
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
  const bool measured = enqueue_ == SlotEnqueue::measured;
  step_on_threads_ = !measured || choice_.threads();
  on_every_slot(
      [generations](Engine& engine, std::size_t) {
        if (engine.size() > 0) engine.step(generations);
      },
      step_on_threads_);
  if (measured) choice_.record(now_ms() - start);
  // The split instances' bands: each band's own thread enqueues its part.
  if (split_ && split_->size() > 0) split_->step(generations);
  host_enqueue_.add(now_ms() - start);
}

// The frame's other calls go the way its step went: after a step on the caller's thread the slots'
// threads sleep, and waking them for these would cost that way what its trial did not time.
void MultiEngine::request_summaries() {
  on_every_slot([](Engine& engine, std::size_t) { engine.request_summaries(); }, step_on_threads_);
  if (split_ && split_->size() > 0) split_->request_summaries();
}

void MultiEngine::request_snapshots(std::uint64_t max_cells) {
  on_every_slot([max_cells](Engine& engine, std::size_t) { engine.request_snapshots(max_cells); },
                step_on_threads_);
  if (split_ && split_->size() > 0) split_->request_snapshots(max_cells);
}

void MultiEngine::finish() {
  on_every_slot([](Engine& engine, std::size_t) { engine.finish(); });
  if (split_) split_->finish();
}

}  // namespace ls::multi
