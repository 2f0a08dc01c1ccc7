// instance.cpp — implements instance.hpp: one allocation per instance, initial states (random,
// uploaded, copied), layout changes, stream modes and the free-memory check.
#include "sim/instance.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/splitmix.hpp"

namespace ls::sim {

using kernels::Layout;

namespace {

/// Device memory left free beyond a lattice's own needs, for the runtime (launches, streams).
constexpr std::size_t kHeadroomBytes = std::size_t{16} << 20;
constexpr std::size_t kAlign = 256;

std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

/// Whole MiB: rounded to nearest for what is asked, down for what is free.
std::string mib_text(std::size_t bytes, bool nearest) {
  const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
  return std::to_string(static_cast<unsigned long long>(nearest ? std::llround(mib) : std::floor(mib)));
}

/// Bytes of one instance's device allocation: two lattices and the summary results.
std::size_t instance_bytes(Layout layout, int width, int height) {
  return 2 * round_up(kernels::layout_bytes(layout, width, height), kAlign) + kSummaryResultBytes;
}

/// Points front/back/results into `memory`, laid out for `layout`.
void carve(Instance& inst, Layout layout) {
  auto* base = static_cast<unsigned char*>(inst.memory.get());
  const std::size_t lattice = round_up(kernels::layout_bytes(layout, inst.width, inst.height), kAlign);
  inst.front = base;
  inst.back = base + lattice;
  inst.results_device = reinterpret_cast<std::uint64_t*>(base + 2 * lattice);
}

}  // namespace

Layout layout_of(Variant v) {
  switch (v) {
    case Variant::naive:
      return Layout::int32_cells;
    case Variant::bitpacked:
      return Layout::bit_cells;
    default:
      return Layout::byte_cells;
  }
}

void check_generations_per_launch(int k) {
  if (k < 1 || k > kMaxGenerationsPerLaunch)
    throw InputError("generations per launch " + std::to_string(k) + " is outside 1.." +
                     std::to_string(kMaxGenerationsPerLaunch));
}

Instances::Instances(HostSyncs& syncs) : syncs_(syncs), shared_(cuda::Stream::Create{}) {}

Instance& Instances::at(std::size_t index) const {
  if (index >= list_.size())
    throw InputError("instance " + std::to_string(index) + " does not exist (there are " +
                     std::to_string(list_.size()) + ")");
  return *list_[index];
}

cuda::DeviceBuffer Instances::allocate(std::size_t bytes, int width, int height, Variant variant) {
  syncs_.count();
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const auto too_big = [&] {
    return InputError("lattice " + std::to_string(width) + "x" + std::to_string(height) + " (" +
                      std::string(variant_name(variant)) + ") needs " + mib_text(bytes, true) +
                      " MiB of device memory; " + mib_text(free_bytes, false) + " MiB free");
  };
  if (bytes > free_bytes || free_bytes - bytes < kHeadroomBytes) throw too_big();
  cuda::DeviceBuffer buffer = cuda::DeviceBuffer::try_allocate(bytes);
  if (!buffer) throw too_big();
  return buffer;
}

std::unique_ptr<Instance> Instances::make(const InstanceSpec& spec) {
  check_generations_per_launch(spec.generations_per_launch);
  auto inst = std::make_unique<Instance>();
  inst->rule = spec.rule;
  inst->variant = spec.variant;
  inst->k = spec.generations_per_launch;
  inst->serial = next_serial_++;

  const Instance* source = nullptr;
  if (const auto* copy = std::get_if<CopyInit>(&spec.init)) {
    source = &at(copy->source);
    inst->width = source->width;
    inst->height = source->height;
  } else if (const auto* lattice = std::get_if<Lattice>(&spec.init)) {
    check_lattice_size(lattice->width(), lattice->height());
    inst->width = lattice->width();
    inst->height = lattice->height();
  } else {
    check_lattice_size(spec.width, spec.height);
    inst->width = spec.width;
    inst->height = spec.height;
  }
  const Layout layout = inst->layout();
  const std::size_t bits_bytes = kernels::layout_bytes(Layout::bit_cells, inst->width, inst->height);

  // One allocation per instance, so that removing it gives back exactly what adding took.
  inst->memory =
      allocate(instance_bytes(layout, inst->width, inst->height), inst->width, inst->height, inst->variant);
  carve(*inst, layout);
  inst->stream = cuda::Stream(cuda::Stream::Create{});
  inst->summaries.results_host = cuda::PinnedBuffer(kSummaryHostBytes);
  std::memset(inst->summaries.results_host.get(), 0, inst->summaries.results_host.bytes());
  const cudaStream_t stream = stream_of(*inst);

  if (const auto* random = std::get_if<RandomInit>(&spec.init)) {
    const FillThreshold threshold = fill_threshold(random->density);
    kernels::launch_random_fill(layout, inst->front, inst->width, inst->height, threshold.threshold,
                                threshold.all, random->seed, stream);
    inst->origin = start_origin(spec);
  } else if (const auto* lattice = std::get_if<Lattice>(&spec.init)) {
    // Uploaded once: pinned staging, one copy, then a conversion into the layout on the device.
    cuda::PinnedBuffer pinned(bits_bytes);
    std::memcpy(pinned.get(), lattice->words().data(), bits_bytes);
    cuda::DeviceBuffer staging;
    if (layout != Layout::bit_cells)
      staging = allocate(bits_bytes, inst->width, inst->height, Variant::bitpacked);
    void* bits = layout == Layout::bit_cells ? inst->front : staging.get();
    CUDA_CHECK(cudaMemcpyAsync(bits, pinned.get(), bits_bytes, cudaMemcpyHostToDevice, stream));
    if (layout != Layout::bit_cells)
      kernels::launch_convert(Layout::bit_cells, bits, layout, inst->front, inst->width, inst->height,
                              stream);
    syncs_.stream(stream);  // the staging buffers go away at the end of this scope
    inst->origin = start_origin(spec);
  } else {
    // Copy: wait for the source's pending work, and make the source wait for the copy before it
    // overwrites the buffer being read.
    const cudaStream_t source_stream = stream_of(*source);
    source->order.record(source_stream);
    CUDA_CHECK(cudaStreamWaitEvent(stream, source->order.get(), 0));
    kernels::launch_convert(source->layout(), source->front, layout, inst->front, inst->width, inst->height,
                            stream);
    inst->order.record(stream);
    CUDA_CHECK(cudaStreamWaitEvent(source_stream, inst->order.get(), 0));
    inst->generation = source->generation;
    inst->origin = source->rule == inst->rule ? source->origin : unique_origin();
  }
  return inst;
}

void Instances::remove(std::size_t index) {
  at(index);
  list_.erase(list_.begin() + static_cast<std::ptrdiff_t>(index));
}

void Instances::replace(std::size_t index, std::unique_ptr<Instance> inst) {
  at(index);
  list_[index] = std::move(inst);
}

void Instances::set_layout(Instance& inst, Variant variant) {
  const Layout from = inst.layout();
  const Layout to = layout_of(variant);
  if (from == to) return;
  // New pair first (may throw, changing nothing), convert on the device, then drop the old pair.
  cuda::DeviceBuffer memory =
      allocate(instance_bytes(to, inst.width, inst.height), inst.width, inst.height, variant);
  const cudaStream_t stream = stream_of(inst);
  kernels::launch_convert(from, inst.front, to, memory.get(), inst.width, inst.height, stream);
  // Pending summaries copy out of the old results area: let them and the conversion finish.
  syncs_.stream(stream);
  inst.frame_graphs.drop();
  inst.summary_graphs.drop();
  inst.memory = std::move(memory);
  carve(inst, to);
}

void Instances::set_mode(StreamMode mode) {
  const bool own_before = mode_ == StreamMode::per_instance, own_after = mode == StreamMode::per_instance;
  if (own_before == own_after) {  // shared <-> graph: outside work stays on the engine's stream
    mode_ = mode;
    return;
  }
  if (!own_after) {
    for (const auto& inst : list_) {
      inst->order.record(inst->stream.get());
      CUDA_CHECK(cudaStreamWaitEvent(shared_.get(), inst->order.get(), 0));
    }
  } else {
    shared_order_.record(shared_.get());
    for (const auto& inst : list_)
      CUDA_CHECK(cudaStreamWaitEvent(inst->stream.get(), shared_order_.get(), 0));
  }
  mode_ = mode;
}

}  // namespace ls::sim
