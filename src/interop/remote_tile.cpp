// remote_tile.cpp — implements remote_tile.hpp.
#include "interop/remote_tile.hpp"

#include <cstddef>
#include <utility>

#include "interop/graphics_resource.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {
namespace {

/// A CUDA array of RGBA8 texels the render kernel can write through a surface; freed in the
/// destructor (its device current, RemoteTile's destructor sees to it).
class PixelArray {
 public:
  PixelArray(int width, int height) {
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    CUDA_CHECK(cudaMallocArray(&array_, &desc, static_cast<std::size_t>(width),
                               static_cast<std::size_t>(height), cudaArraySurfaceLoadStore));
  }
  ~PixelArray() {
    if (array_) cudaFreeArray(array_);
  }
  PixelArray(const PixelArray&) = delete;
  PixelArray& operator=(const PixelArray&) = delete;
  cudaArray_t get() const { return array_; }

 private:
  cudaArray_t array_ = nullptr;
};

cuda::Event ordering_event() { return cuda::Event(cuda::Event::Create{}, /*timing=*/false); }

}  // namespace

struct RemoteTile::RemoteSide {
  RemoteSide(int width, int height, RemoteCopy copy) : array(width, height) {
    const std::size_t bytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
    if (copy == RemoteCopy::peer)
      outbox = cuda::DeviceBuffer(bytes);
    else
      pinned = cuda::PinnedBuffer(bytes);
    surface_object = surface.get(array.get());
  }
  PixelArray array;
  Surface surface;  // declared after the array: destroyed before it
  cudaSurfaceObject_t surface_object = 0;
  cuda::DeviceBuffer outbox;  // peer
  cuda::PinnedBuffer pinned;  // host_staged
  cuda::Event rendered = ordering_event();
};

struct RemoteTile::DisplaySide {
  DisplaySide(int width, int height, RemoteCopy copy) {
    if (copy == RemoteCopy::peer)
      staging = cuda::DeviceBuffer(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
  }
  cuda::DeviceBuffer staging;  // peer
  cuda::Event copied = ordering_event();
};

std::string_view remote_copy_name(RemoteCopy copy) {
  return copy == RemoteCopy::peer ? "peer" : "host-staged";
}

RemoteCopy open_remote_copy(int remote, int display) {
  if (remote == display) return RemoteCopy::peer;
  int can = 0;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can, display, remote));
  if (!can) return RemoteCopy::host_staged;
  // The display's stream copies, so the display's context maps the remote GPU's memory.
  cuda::DeviceGuard on_display(display);
  const cudaError_t err = cudaDeviceEnablePeerAccess(remote, 0);
  if (err == cudaErrorPeerAccessAlreadyEnabled)
    cudaGetLastError();
  else
    CUDA_CHECK(err);
  return RemoteCopy::peer;
}

RemoteTile::RemoteTile(int remote, int display, RemoteCopy copy, int width, int height)
    : remote_(remote), display_(display), copy_(copy), width_(width), height_(height) {
  {
    cuda::DeviceGuard on(remote);
    remote_side_ = std::make_unique<RemoteSide>(width, height, copy);
  }
  try {
    cuda::DeviceGuard on(display);
    display_side_ = std::make_unique<DisplaySide>(width, height, copy);
  } catch (...) {
    cuda::DeviceGuard on(remote);
    remote_side_.reset();
    throw;
  }
}

RemoteTile::~RemoteTile() {
  // Each side's memory and events freed with its own device current. The filler's writes are
  // finished before a tile goes (TileFiller::finish_writes), so nothing still uses them.
  try {
    {
      cuda::DeviceGuard on(remote_);
      remote_side_.reset();
    }
    cuda::DeviceGuard on(display_);
    display_side_.reset();
  } catch (...) {
  }
}

cudaSurfaceObject_t RemoteTile::surface() const { return remote_side_->surface_object; }

void RemoteTile::before_render(cudaStream_t stream) {
  CUDA_CHECK(cudaStreamWaitEvent(stream, display_side_->copied.get(), 0));
}

void RemoteTile::after_render(cudaStream_t stream, CopyMarks* marks) {
  RemoteSide& r = *remote_side_;
  const std::size_t row = static_cast<std::size_t>(width_) * 4;
  const std::size_t rows = static_cast<std::size_t>(height_);
  const bool peer = copy_ == RemoteCopy::peer;
  if (marks) marks->begin(peer ? TimelineBar::Copy::d2d : TimelineBar::Copy::d2h, row * rows, stream);
  if (peer) {
    CUDA_CHECK(cudaMemcpy2DFromArrayAsync(r.outbox.get(), row, r.array.get(), 0, 0, row, rows,
                                          cudaMemcpyDeviceToDevice, stream));
  } else {
    CUDA_CHECK(cudaMemcpy2DFromArrayAsync(r.pinned.get(), row, r.array.get(), 0, 0, row, rows,
                                          cudaMemcpyDeviceToHost, stream));
  }
  if (marks) marks->end(stream);
  r.rendered.record(stream);
}

void RemoteTile::place(cudaArray_t atlas, int x, int y, cudaStream_t stream, CopyMarks* marks) {
  RemoteSide& r = *remote_side_;
  DisplaySide& d = *display_side_;
  const std::size_t row = static_cast<std::size_t>(width_) * 4;
  const std::size_t rows = static_cast<std::size_t>(height_);
  const std::size_t x_bytes = static_cast<std::size_t>(x) * 4;
  const std::size_t y_rows = static_cast<std::size_t>(y);
  CUDA_CHECK(cudaStreamWaitEvent(stream, r.rendered.get(), 0));
  if (copy_ == RemoteCopy::peer) {
    // Between two slots of one device (tests) the "peer" copy stays within it.
    if (marks)
      marks->begin(remote_ == display_ ? TimelineBar::Copy::d2d : TimelineBar::Copy::peer, row * rows,
                   stream);
    CUDA_CHECK(cudaMemcpyPeerAsync(d.staging.get(), display_, r.outbox.get(), remote_, row * rows, stream));
    if (marks) marks->end(stream);
    if (marks) marks->begin(TimelineBar::Copy::d2d, row * rows, stream);
    CUDA_CHECK(cudaMemcpy2DToArrayAsync(atlas, x_bytes, y_rows, d.staging.get(), row, row, rows,
                                        cudaMemcpyDeviceToDevice, stream));
    if (marks) marks->end(stream);
  } else {
    if (marks) marks->begin(TimelineBar::Copy::h2d, row * rows, stream);
    CUDA_CHECK(cudaMemcpy2DToArrayAsync(atlas, x_bytes, y_rows, r.pinned.get(), row, row, rows,
                                        cudaMemcpyHostToDevice, stream));
    if (marks) marks->end(stream);
  }
  d.copied.record(stream);
}

}  // namespace ls::interop
