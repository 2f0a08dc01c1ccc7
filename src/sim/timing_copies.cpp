// timing_copies.cpp — implements TimingRing's copy brackets (timing_ring.hpp): the events around
// the copies made in a timed frame beside its work (a snapshot's staging and its copy to the host,
// an instance's handoff pulse and tile pixels, copies for another engine's instances); timing_ring.cpp
// reads them with the frame's other events.
#include "sim/timing_ring.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>

#include "kernels/life_kernels.hpp"
#include "sim/instance.hpp"

namespace ls::sim {

void TimingRing::staged_snapshot(Instance& inst, const CopyWhat& what, cudaStream_t stream) const {
  const int s = current_timed_slot();
  if (s < 0) return;
  TimingSlot& slot = inst.timing.slots[static_cast<std::size_t>(s)];
  if (slot.frame != frame_count_ - 1 || !slot.snapshot.begun || slot.snapshot.ended) return;
  SnapshotParts& parts = slot.snapshot_parts;
  if (parts.staged_recorded) return;
  if (std::uint64_t* stamps = graph_stamps(inst)) {
    kernels::launch_stamp(stamps + kSnapshotStaged, stream);
  } else {
    if (!parts.staged) parts.staged = cuda::Event(cuda::Event::Create{});
    parts.staged.record(stream);
  }
  parts.staging = what.copy;
  parts.bytes = what.bytes;
  parts.staged_recorded = true;
}

void TimingRing::copying_snapshot(Instance& inst, cudaStream_t stream) const {
  TimingSlot* slot = event_slot(inst);
  if (!slot || !slot->snapshot.begun || slot->snapshot.ended || !slot->snapshot_parts.staged_recorded) return;
  SnapshotParts& parts = slot->snapshot_parts;
  if (parts.copying_recorded) return;
  if (!parts.copying) parts.copying = cuda::Event(cuda::Event::Create{});
  parts.copying.record(stream);
  parts.copying_recorded = true;
}

TimingSlot* TimingRing::event_slot(Instance& inst) const {
  const int s = current_timed_slot();
  if (s < 0 || frames_[static_cast<std::size_t>(s)].mode == StreamMode::graph) return nullptr;
  TimingSlot& slot = inst.timing.slots[static_cast<std::size_t>(s)];
  return slot.frame == frame_count_ - 1 ? &slot : nullptr;
}

bool TimingRing::begin_copy(Instance& inst, CopyBracket TimingSlot::*which, const CopyWhat& what,
                            cudaStream_t stream) const {
  TimingSlot* slot = event_slot(inst);
  if (!slot) return false;
  CopyBracket& b = slot->*which;
  if (b.begun) return false;
  if (!b.start) b.start = cuda::Event(cuda::Event::Create{});
  if (!b.end) b.end = cuda::Event(cuda::Event::Create{});
  b.start.record(stream);
  b.copy = what.copy;
  b.peer = what.peer;
  b.bytes = what.bytes;
  b.begun = true;
  b.ended = false;
  return true;
}

void TimingRing::end_copy(Instance& inst, CopyBracket TimingSlot::*which, cudaStream_t stream) const {
  TimingSlot* slot = event_slot(inst);
  if (!slot) return;
  CopyBracket& b = slot->*which;
  if (!b.begun || b.ended) return;
  b.end.record(stream);
  b.ended = true;
}

int TimingRing::begin_copy_for(int device, std::size_t index, TimelineBar::Kind kind, const CopyWhat& what,
                               cudaStream_t stream) {
  const int s = current_timed_slot();
  if (s < 0) return -1;
  FrameRecord& record = frames_[static_cast<std::size_t>(s)];
  if (record.mode == StreamMode::graph) return -1;
  // Grown once to the most copies a frame has made; kept for the frames that reuse the slot.
  if (record.foreign_used == record.foreign.size()) record.foreign.push_back(std::make_unique<ForeignCopy>());
  ForeignCopy& c = *record.foreign[record.foreign_used];
  c.device = device;
  c.index = index;
  c.kind = kind;
  c.what = what;
  c.ended = false;
  c.start.record(stream);
  return static_cast<int>(record.foreign_used++);
}

void TimingRing::end_copy_for(int handle, cudaStream_t stream) {
  const int s = current_timed_slot();
  if (s < 0 || handle < 0) return;
  FrameRecord& record = frames_[static_cast<std::size_t>(s)];
  if (static_cast<std::size_t>(handle) >= record.foreign_used) return;
  ForeignCopy& c = *record.foreign[static_cast<std::size_t>(handle)];
  if (c.ended) return;
  c.end.record(stream);
  c.ended = true;
}

}  // namespace ls::sim
