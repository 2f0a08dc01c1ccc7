// multi_engine_placement.cpp — instances added to the slots with room, and removed or replaced
// (multi_engine.hpp says how add() goes round the slots and how copies cross devices).
#include "multi/multi_engine.hpp"

#include <algorithm>
#include <tuple>
#include <utility>
#include <variant>

#include "core/error.hpp"

namespace ls::multi {

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
    on_device(where(Place{slot, 0}), [&] { use(slot).add(spec); });
  } else if (source.slot == slot) {
    InstanceSpec local = spec;
    local.init = CopyInit{source.local};
    on_device(where(Place{slot, 0}), [&] { use(slot).add(local); });
  } else {
    // A copy of an instance on another device: its exact state and generation, and its origin
    // under the same rule, as a copy on one device gets.
    const InstanceStatus s = engine_of(source).status(source.local);
    InstanceSpec moved = spec;
    moved.init = engine_of(source).read(source.local);
    on_device(where(Place{slot, 0}), [&] {
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
  on_device(where(Place{slot, 0}), [&] { use(slot).add_moved(spec, generation, origin); });
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
    if (!shares[s].empty()) on_device(where(Place{s, 0}), [&] { use(s).check_room(shares[s]); });
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

}  // namespace ls::multi
