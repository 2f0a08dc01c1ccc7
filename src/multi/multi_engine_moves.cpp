// multi_engine_moves.cpp — an instance moved to another slot, split over every slot's device
// or merged back, keeping its exact state (multi_engine.hpp); the split child made on first use.
#include "multi/multi_engine.hpp"

#include <algorithm>
#include <utility>
#include <variant>

#include "core/error.hpp"

namespace ls::multi {

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
    made->set_timeline_clock(timeline_clock_);
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
  on_device(where(Place{slot, 0}), [&] { use(slot).add_moved(spec, s.generation, s.origin); });
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

}  // namespace ls::multi
