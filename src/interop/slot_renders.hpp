// slot_renders.hpp — one slot's tiles drawn on the slot's GPU by the render kernel: on each
// instance's own stream (bracketed by the engine's display events on timed frames), or in stream
// mode graph as one display graph (display_graph.hpp) on the stream of the slot's first tile's
// instance. Where the pixels go and what orders the renders against the display GPU is a
// TileRoute's (tile_routes.hpp): the mapped atlas for the display slot's tiles, each tile's own
// array on its GPU for a remote slot's.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "interop/display_graph.hpp"
#include "kernels/life_kernels.hpp"
#include "render/tile_filler.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::interop {

/// One tile of a slot's frame: the tile, its instance's index in the slot's engine, and how it
/// samples its lattice (made before the tile counts as drawn: a tile without a last frame is not
/// aged).
struct SlotTile {
  render::Tile* tile = nullptr;
  std::size_t local = 0;
  kernels::TileView view;
  /// This frame's render was bracketed in its engine's timed frame: the copies that carry its
  /// pixels on are timed too (set by SlotRenders::draw).
  bool timed = false;
};

/// Where a route's copies after a render are timed: instance `local` of `engine`, in its current
/// timed frame (sim::CudaEngine::begin_tile_copy); engine null: not timed.
struct CopyTiming {
  sim::CudaEngine* engine = nullptr;
  std::size_t local = 0;
};

/// Where a render kernel writes a tile: a surface and the tile's top-left pixel there.
struct RenderTarget {
  cudaSurfaceObject_t surface = 0;
  int x = 0;
  int y = 0;
};

/// Where a slot's renders write and what orders them against the display GPU's render stream.
class TileRoute {
 public:
  virtual ~TileRoute() = default;
  virtual RenderTarget target(render::Tile& tile) const = 0;
  /// On the instance's stream, before its tile's render and outside its display bracket.
  virtual void before(render::Tile& tile, cudaStream_t stream) = 0;
  /// On the instance's stream right before the render where the frame has no display bracket
  /// (whose start event would stand there). None by default.
  virtual void unbracketed(render::Tile& tile, cudaStream_t stream);
  /// On the instance's stream, after its tile's render and its display bracket; copies made there
  /// are bracketed as `timing` says.
  virtual void after(render::Tile& tile, cudaStream_t stream, const CopyTiming& timing) = 0;
  /// On `frame`, before and after the one display graph of all of `tiles`: by default each tile's
  /// before and after there (untimed: a graph frame is timed by stamps).
  virtual void before_graph(const std::vector<SlotTile>& tiles, cudaStream_t frame);
  virtual void after_graph(const std::vector<SlotTile>& tiles, cudaStream_t frame);
};

/// A slot of the filler: one CUDA engine, its device, its display graphs and this frame's tiles.
class SlotRenders {
 public:
  /// Makes the slot's display graphs with the engine's device current (the caller's is kept).
  explicit SlotRenders(sim::CudaEngine& engine);

  sim::CudaEngine& engine() const { return *engine_; }
  int device() const { return device_; }
  /// This frame's tiles of the slot's instances, in tile order (kept: no allocation once grown).
  std::vector<SlotTile>& tiles() { return tiles_; }
  const std::vector<SlotTile>& tiles() const { return tiles_; }

  /// Draws every tile of the frame through `route`, with the slot's GPU current (the caller's is
  /// kept); each tile then counts as drawn on the device. `timed`: the frame loop's fill (display
  /// brackets or stamps on timed frames), not a measurement's.
  void draw(TileRoute& route, bool timed);

 private:
  void draw_on_streams(TileRoute& route, bool timed);
  void draw_as_graph(TileRoute& route, bool timed);

  sim::CudaEngine* engine_;
  int device_;
  std::unique_ptr<DisplayGraphs> graphs_;
  std::vector<RenderJob> jobs_;
  std::vector<SlotTile> tiles_;
};

}  // namespace ls::interop
