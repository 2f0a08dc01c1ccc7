// split_tile.cpp — implements split_tile.hpp.
#include "interop/split_tile.hpp"

#include <cstddef>
#include <cstdint>

#include "core/error.hpp"
#include "interop/remote_tile.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {
namespace {

cuda::Event ordering_event() { return cuda::Event(cuda::Event::Create{}, /*timing=*/false); }

}  // namespace

/// One band's side, all on the band's GPU (made and freed with it current).
struct SplitTile::Band {
  int device = 0;
  int first_row = 0;
  int rows = 0;
  RemoteCopy copy = RemoteCopy::peer;
  cuda::DeviceBuffer counts;
  cuda::PinnedBuffer pinned;  // host_staged: the counts on their way
  cuda::Event counted = ordering_event();
};

/// The display GPU's side: every band's counts side by side, and the event the bands wait for
/// before they overwrite their counts.
struct SplitTile::DisplaySide {
  cuda::DeviceBuffer sums;
  cuda::Event copied = ordering_event();
};

SplitTile::SplitTile(const std::vector<sim::BandView>& bands, int display, int width, int height)
    : display_(display), width_(width), height_(height) {
  if (bands.empty()) throw InputError("a split tile needs at least one band");
  lattice_width_ = bands.front().width;
  lattice_height_ = bands.front().height;
  const std::size_t bytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
  try {
    for (const sim::BandView& v : bands) {
      const RemoteCopy copy = open_remote_copy(v.device, display);
      cuda::DeviceGuard on(v.device);
      auto b = std::make_unique<Band>();
      b->device = v.device;
      b->first_row = v.first_row;
      b->rows = v.rows;
      b->copy = copy;
      b->counts = cuda::DeviceBuffer(bytes);
      if (copy == RemoteCopy::host_staged) b->pinned = cuda::PinnedBuffer(bytes);
      bands_.push_back(std::move(b));
    }
    cuda::DeviceGuard on(display);
    display_side_ = std::make_unique<DisplaySide>();
    display_side_->sums = cuda::DeviceBuffer(bytes * bands.size());
  } catch (...) {
    for (auto& b : bands_) {
      cuda::DeviceGuard on(b->device);
      b.reset();
    }
    throw;
  }
}

SplitTile::~SplitTile() {
  // Each side freed with its device current; the filler finished its writes before a tile goes.
  try {
    for (auto& b : bands_) {
      cuda::DeviceGuard on(b->device);
      b.reset();
    }
    cuda::DeviceGuard on(display_);
    display_side_.reset();
  } catch (...) {
  }
}

bool SplitTile::fits(const std::vector<sim::BandView>& bands, int width, int height) const {
  if (width != width_ || height != height_ || bands.size() != bands_.size()) return false;
  if (bands.front().width != lattice_width_ || bands.front().height != lattice_height_) return false;
  for (std::size_t i = 0; i < bands.size(); ++i)
    if (bands[i].device != bands_[i]->device || bands[i].first_row != bands_[i]->first_row ||
        bands[i].rows != bands_[i]->rows)
      return false;
  return true;
}

bool SplitTile::host_staged() const {
  for (const auto& b : bands_)
    if (b->copy == RemoteCopy::host_staged) return true;
  return false;
}

void SplitTile::count(const std::vector<sim::BandView>& bands, const kernels::TileView& view,
                      const BandMark& start, const BandMark& end) {
  const std::size_t bytes = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 4;
  for (std::size_t i = 0; i < bands.size(); ++i) {
    const sim::BandView& v = bands[i];
    Band& b = *bands_[i];
    cuda::DeviceGuard on(b.device);
    // The display has taken the last frame's counts before this frame's overwrite them.
    CUDA_CHECK(cudaStreamWaitEvent(v.stream, display_side_->copied.get(), 0));
    if (start) start(static_cast<int>(i), v.stream);
    kernels::launch_count_tile_band(v.layout, v.own_rows, v.width, v.height, v.first_row, v.rows,
                                    b.counts.as<std::uint32_t>(), width_, height_, view, v.stream);
    if (b.copy == RemoteCopy::host_staged)
      CUDA_CHECK(cudaMemcpyAsync(b.pinned.get(), b.counts.get(), bytes, cudaMemcpyDeviceToHost, v.stream));
    if (end) end(static_cast<int>(i), v.stream);
    b.counted.record(v.stream);
  }
}

void SplitTile::shade(cudaSurfaceObject_t surface, const kernels::TileView& view, cudaStream_t stream) {
  const std::size_t bytes = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 4;
  DisplaySide& d = *display_side_;
  for (std::size_t i = 0; i < bands_.size(); ++i) {
    Band& b = *bands_[i];
    std::byte* into = d.sums.as<std::byte>() + i * bytes;
    CUDA_CHECK(cudaStreamWaitEvent(stream, b.counted.get(), 0));
    if (b.copy == RemoteCopy::peer)
      CUDA_CHECK(cudaMemcpyPeerAsync(into, display_, b.counts.get(), b.device, bytes, stream));
    else
      CUDA_CHECK(cudaMemcpyAsync(into, b.pinned.get(), bytes, cudaMemcpyHostToDevice, stream));
  }
  kernels::launch_shade_tile(d.sums.as<std::uint32_t>(), static_cast<int>(bands_.size()), lattice_width_,
                             lattice_height_, surface, width_, height_, view, stream);
  d.copied.record(stream);
}

}  // namespace ls::interop
