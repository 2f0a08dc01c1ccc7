// multi_tile_filler.hpp — the TileFiller of an engine whose instances run on several GPUs
// (multi::MultiEngine with one CudaEngine per slot): every tile is drawn into one shared texture on
// the display GPU, mapped once per frame. Tiles of the display slot's instances go exactly as on
// one GPU (render kernels on the instances' streams into the mapped atlas, or one display graph in
// stream mode graph); every other slot's tiles are drawn where their instances run and copied over
// (remote_tile.hpp), and a split instance's tile band by band (split_tile.hpp), ordered by events,
// the host waiting for no GPU.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "interop/interop_filler.hpp"
#include "sim/band_view.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::interop {

/// Where instance `index` of the several-GPU engine runs: its slot and its index in that slot's
/// engine; or, for an instance split across GPUs, its bands (then slot and local are unused).
struct InstancePlace {
  using BandMark = std::function<void(int band, cudaStream_t stream)>;
  std::size_t slot = 0;
  std::size_t local = 0;
  std::vector<sim::BandView> bands;  // non-empty: a split instance, drawn band by band
  /// A split instance's timeline brackets around each band's part of drawing its tile (its device
  /// current), where the frame is timed (SplitEngine::display_marks).
  BandMark display_start, display_end;
};
/// The places of instances 0..n-1 into `out` (resized to n), once per fill.
using InstancePlaces = std::function<void(std::size_t n, std::vector<InstancePlace>& out)>;

class MultiTileFiller final : public InteropFiller {
 public:
  /// `engine`: the several-GPU engine (its size, read() for the textbook path, finish()).
  /// `slots`: each slot's CUDA engine, in slot order (all must outlive the filler). A slot other
  /// than `display_slot` is remote even where its device is the display's (two test slots of one
  /// GPU: the copy is then within one device). `places`: where each instance runs. Makes the
  /// display GPU's render stream and opens the remote copies (peer access) at once; touches no GL
  /// until tiles are made.
  MultiTileFiller(Engine& engine, std::vector<sim::CudaEngine*> slots, std::size_t display_slot,
                  InstancePlaces places);
  ~MultiTileFiller() override;

  std::unique_ptr<render::TileAttachment> attach(const render::Tile& tile) override;
  /// InteropFiller's, and how remote tiles travel.
  render::InteropStats interop_stats() const override;

  /// How remote tiles travel: "host-staged" when any remote slot's GPU has no peer access to the
  /// display GPU, else "peer" ("" with no remote slot).
  std::string_view remote_copy() const;

 protected:
  /// The display slot's tiles as on one GPU, the other slots' rendered on their GPUs and copied
  /// over, split instances' band by band; the render stream waits for all of them.
  void fill_interop(render::Tiles tiles, const std::vector<view::Placement>& placements,
                    const render::DisplayOptions& options, const render::Palette& palette,
                    bool timed) override;
  /// The display GPU's render stream: maps, copies in, unmaps.
  cudaStream_t render_stream() const override;
  Counters counters() const override;

 private:
  struct State;
  void fill_display_slot(render::Tiles tiles, const std::vector<view::Placement>& placements,
                         const render::DisplayOptions& options, const render::Palette& palette, bool timed);
  void fill_remote_slot(std::size_t slot, render::Tiles tiles, const std::vector<view::Placement>& placements,
                        const render::DisplayOptions& options, const render::Palette& palette, bool timed);
  /// Split instances' tiles: buffers where needed, then each band's counts on its GPU.
  void count_split_tiles(render::Tiles tiles, const std::vector<view::Placement>& placements,
                         const render::DisplayOptions& options, const render::Palette& palette);

  Engine& engine_;
  std::unique_ptr<State> state_;
};

}  // namespace ls::interop
