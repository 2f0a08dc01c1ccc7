// remote_tile.hpp — one tile whose instance runs on another GPU than the display's: the render
// kernel draws it there into a CUDA array of the tile's screen size (kept from frame to frame, so
// age shading fades from its own last frame; a tile that changes GPU starts its trail afresh), the
// pixels travel to the display GPU, and a copy on the display's render stream writes them into the
// tile's place in the mapped atlas. Ordered by
// events on both sides, never by the host:
//
//   remote stream:   wait copied(N-1) -> render -> array to outbox -> record rendered(N)
//   display stream:  wait rendered(N) -> [peer: outbox to staging -> staging to atlas]
//                                        [host-staged: pinned outbox to atlas] -> record copied(N)
//
// The wait for copied(N-1) before the render keeps frame N from overwriting the array, the outbox
// or the staging buffer while frame N-1's pixels are still travelling.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string_view>

#include "core/instance_status.hpp"
#include "core/non_copyable.hpp"

namespace ls::interop {

/// How a remote tile's pixels reach the display GPU. peer: a device outbox, one cudaMemcpyPeerAsync
/// into a staging buffer on the display GPU (between two slots of one device, a copy within it);
/// host_staged: where the two GPUs have no peer access, an outbox in pinned host memory (a copy
/// down on the remote GPU, one up on the display GPU, both asynchronous).
enum class RemoteCopy { peer, host_staged };
/// "peer" | "host-staged".
std::string_view remote_copy_name(RemoteCopy copy);
/// How tiles of `remote` reach `display`: peer where cudaDeviceCanAccessPeer says so (peer access
/// enabled here for the display GPU, which pulls; once per pair, a second call finds it enabled)
/// or where both are one device; host_staged otherwise.
RemoteCopy open_remote_copy(int remote, int display);

/// Told of each copy a RemoteTile makes, right before and right after it on the stream it runs
/// on: where the timeline's copy brackets go.
class CopyMarks {
 public:
  virtual void begin(TimelineBar::Copy copy, std::uint64_t bytes, cudaStream_t stream) = 0;
  virtual void end(cudaStream_t stream) = 0;

 protected:
  ~CopyMarks() = default;
};

class RemoteTile : NonCopyable {
 public:
  /// Allocates the array, the outbox and the events on `remote`, the staging buffer and the
  /// display's event on `display` (each with its device current; the caller's device is kept).
  RemoteTile(int remote, int display, RemoteCopy copy, int width, int height);
  ~RemoteTile();

  int remote_device() const { return remote_; }
  int display_device() const { return display_; }
  int width() const { return width_; }
  int height() const { return height_; }
  /// The surface the render kernel writes on the remote GPU (the tile's pixel (0, 0) at (0, 0)).
  cudaSurfaceObject_t surface() const;

  /// Remote GPU current: before the render on `stream`, waits (on the device) until the display
  /// has taken the last frame's pixels.
  void before_render(cudaStream_t stream);
  /// Remote GPU current: after the render on `stream`, the pixels to the outbox and the event
  /// the display waits for; `marks` (where given) around the copy.
  void after_render(cudaStream_t stream, CopyMarks* marks = nullptr);
  /// Display GPU current, on its render stream while the atlas is mapped: waits for after_render's
  /// event, brings the pixels over and writes them at (x, y) of `atlas` (the mapped array);
  /// `marks` (where given) around each copy.
  void place(cudaArray_t atlas, int x, int y, cudaStream_t stream, CopyMarks* marks = nullptr);

 private:
  struct RemoteSide;
  struct DisplaySide;
  int remote_ = 0;
  int display_ = 0;
  RemoteCopy copy_ = RemoteCopy::peer;
  int width_ = 0;
  int height_ = 0;
  std::unique_ptr<RemoteSide> remote_side_;
  std::unique_ptr<DisplaySide> display_side_;
};

}  // namespace ls::interop
