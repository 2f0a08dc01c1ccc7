// snapshots.cpp — implements snapshots.hpp: the device-side conversion on the instance's stream,
// the copy to pinned memory on a low-priority stream, and reading finished copies without the
// device.
#include "sim/snapshots.hpp"

#include <cstring>

#include "core/error.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/instance.hpp"
#include "sim/timing_ring.hpp"

namespace ls::sim {

using kernels::Layout;

void poll_snapshot(const Instance& inst) noexcept {
  const InstanceSnapshots& snap = inst.snapshot;
  if (snap.in_flight < 0) return;
  const cudaError_t err = cudaEventQuery(snap.copied.get());
  if (err == cudaSuccess) {
    snap.newest = snap.in_flight;
    snap.in_flight = -1;
  } else if (err == cudaErrorNotReady && cudaPeekAtLastError() == cudaErrorNotReady) {
    cudaGetLastError();
  }
}

void SnapshotCopier::request(Instances& instances, std::uint64_t max_cells, const TimingRing* timing) {
  for (const auto& p : instances.all()) {
    Instance& inst = *p;
    InstanceSnapshots& snap = inst.snapshot;
    poll_snapshot(inst);
    if (snap.in_flight >= 0) continue;
    if (static_cast<std::uint64_t>(inst.width) * static_cast<std::uint64_t>(inst.height) > max_cells)
      continue;
    const std::size_t bits = kernels::layout_bytes(Layout::bit_cells, inst.width, inst.height);
    if (!snap.staging) {
      try {
        snap.staging = instances.allocate(bits, inst.width, inst.height, Variant::bitpacked);
      } catch (const InputError&) {
        continue;  // no room for the staging buffer: this instance goes without a snapshot
      }
    }
    if (!stream_) {
      stream_ = cuda::Stream(cuda::Stream::Create{}, cuda::stream_priorities().least);
    }
    const int target = snap.newest == 0 ? 1 : 0;
    auto& host = snap.host[static_cast<std::size_t>(target)];
    if (!host) {
      instances.syncs().count();  // cudaMallocHost blocks; once per instance and buffer
      host = cuda::PinnedBuffer(bits);
    }
    // The fast device-side copy goes on the instance's stream (ordered with its steps); the slow
    // copy to the host runs on the low-priority stream, off the instance's critical path.
    const cudaStream_t stream = instances.stream_of(inst);
    const bool timed = timing && timing->begin_snapshot(inst, stream);
    const bool copy_in_device = inst.layout() == Layout::bit_cells;
    if (copy_in_device)
      CUDA_CHECK(cudaMemcpyAsync(snap.staging.get(), inst.front, bits, cudaMemcpyDeviceToDevice, stream));
    else
      kernels::launch_convert(inst.layout(), inst.front, Layout::bit_cells, snap.staging.get(), inst.width,
                              inst.height, stream);
    // Timed, its two parts show apart: the staging on the instance's row (a kernel) or D2D lane (a
    // copy), the copy to the host on the D2H lane. The staging's end goes before `converted`, so
    // the copy starts after it even where it is a stamp (stream mode graph).
    if (timed)
      timing->staged_snapshot(
          inst, CopyWhat{copy_in_device ? TimelineBar::Copy::d2d : TimelineBar::Copy::none, -1, bits},
          stream);
    snap.converted.record(stream);
    CUDA_CHECK(cudaStreamWaitEvent(stream_.get(), snap.converted.get(), 0));
    if (timed) timing->copying_snapshot(inst, stream_.get());
    CUDA_CHECK(cudaMemcpyAsync(host.get(), snap.staging.get(), bits, cudaMemcpyDeviceToHost, stream_.get()));
    // The end before `copied`: in stream mode graph it is a stamp, read once `copied` is done.
    if (timed) timing->end_snapshot(inst, stream_.get());
    snap.copied.record(stream_.get());
    snap.generation[static_cast<std::size_t>(target)] = inst.generation;
    snap.rule[static_cast<std::size_t>(target)] = inst.rule;
    snap.in_flight = target;
  }
}

std::vector<HostSnapshot> SnapshotCopier::read(const Instances& instances) {
  std::vector<HostSnapshot> out;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const Instance& inst = *instances.all()[i];
    poll_snapshot(inst);
    if (inst.snapshot.newest < 0) continue;
    const auto n = static_cast<std::size_t>(inst.snapshot.newest);
    HostSnapshot snap{i, inst.snapshot.generation[n], inst.snapshot.rule[n],
                      Lattice(inst.width, inst.height)};
    std::memcpy(snap.cells.words().data(), inst.snapshot.host[n].get(),
                snap.cells.words().size() * sizeof(std::uint32_t));
    out.push_back(std::move(snap));
  }
  return out;
}

}  // namespace ls::sim
