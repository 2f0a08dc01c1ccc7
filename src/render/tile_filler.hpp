// tile_filler.hpp — how the tile textures get their pixels: the Tile (a texture the size of its
// quad) and the abstract TileFiller that TileRenderer calls every frame. Like Golly's liferender,
// the renderer knows GL and the engine contract only; each kind of engine comes with the filler
// that reaches its cells (host pixels for the CPU engine in render/host_filler.hpp, CUDA–GL
// interop for the CUDA engine in src/interop), handed out by the app's engine factory.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"
#include "core/non_copyable.hpp"
#include "render/gl.hpp"
#include "render/tile_pixels.hpp"
#include "view/view.hpp"

namespace ls::render {

/// How a CUDA engine's lattices reach the tiles. interop: a render kernel per tile writes its
/// mapped texture (all mapped in one call); textbook: each lattice is copied to the host, its
/// pixels are made on the CPU (render_tile_host) and uploaded with glTextureSubImage2D — the
/// path interop is measured against. The CPU engine always uploads host pixels.
enum class DisplayPath { interop, textbook };
std::string_view display_path_name(DisplayPath path);
std::optional<DisplayPath> parse_display_path(std::string_view name);
/// How the frame loop's tiles reach the screen, as the report and the panel name it: the path's
/// name, and for interop with tiles of other GPUs, how those travel (InteropStats::remote_copy):
/// "interop", "interop+peer", "interop+host-staged" or "textbook".
std::string display_path_text(DisplayPath path, std::string_view remote_copy);

/// What the scene asks of every tile beyond its view.
struct DisplayOptions {
  bool grid_lines = true;    // cell grid lines, from kGridMinPixelsPerCell on
  bool age_shading = false;  // dead cells fade out over frames (see Sampling::age_shading)
};

/// What filling every tile once costs by one path, measured outside the frame loop.
struct DisplayCost {
  int tiles = 0;
  int frames = 0;           // fills timed (after one untimed warm-up)
  double ms_per_frame = 0;  // wall time per fill of all tiles, until the GPU has finished
  double ms_per_tile = 0;
  double map_host_ms = 0;  // interop: host time in the map call per fill
  double unmap_host_ms = 0;
};

/// The interop path's costs inside the frame loop (all zero for fillers without one).
struct InteropStats {
  StatSummary map_wait_ms;   // the render stream's wait in the one map call (GL releasing the
                             // textures), from events read a few frames late without blocking
  double map_host_ms = 0;    // host time in the map calls so far, in total
  double unmap_host_ms = 0;  // likewise in the unmap calls
  /// How tiles of instances on other GPUs reach the display GPU's texture: "" (none: one GPU, or
  /// the CPU), "peer" (peer copies, or copies within one device) or "host-staged" (through pinned
  /// host memory where two GPUs have no peer access). Names with static storage.
  std::string_view remote_copy;
};

/// What a filler keeps beside one tile texture (interop: the texture's registration with CUDA).
/// The tile owns it and destroys it before the texture.
class TileAttachment {
 public:
  virtual ~TileAttachment() = default;
};

/// One instance's tile: an RGBA8 texture of width x height pixels and what its filler keeps.
struct Tile {
  GlTexture texture;
  int width = 0;
  int height = 0;
  /// Which path made the texture's pixels last: age shading fades from them only on the same path.
  enum class Drawn { never, host, device } drawn = Drawn::never;
  std::vector<std::uint32_t> pixels;  // the host paths' last pixels of this tile
  /// Where the tile's pixels were made last, when not in `texture`: a filler may draw every tile
  /// into one shared texture (interop maps one texture per frame instead of one per tile: the
  /// map's cost is per texture), at (source_x, source_y) there. 0: `texture` itself.
  GLuint source = 0;
  int source_x = 0;
  int source_y = 0;
  /// Declared after the texture: destroyed first (a CUDA registration must go before its texture).
  std::unique_ptr<TileAttachment> attachment;
};

/// The tiles a filler fills: tiles[i] shows instance i.
using Tiles = std::span<const std::unique_ptr<Tile>>;

/// Fills the tiles of one engine's instances. Made by the engine factory for the engine it makes,
/// and refers to it: the engine must outlive the filler. Filling needs the GL context current.
class TileFiller : NonCopyable {
 public:
  virtual ~TileFiller() = default;

  /// What to keep beside a newly made tile texture (none unless the filler says otherwise).
  virtual std::unique_ptr<TileAttachment> attach(const Tile& tile) {
    (void)tile;
    return nullptr;
  }
  /// Before the renderer deletes or remakes tile textures (layout changes only): returns when no
  /// work of the filler may still write one.
  virtual void finish_writes() {}

  /// Fills tiles[i] from instance i for every i below the tiles', the placements' and the
  /// engine's counts, for this frame: each tile's display work bracketed with
  /// engine.begin_display/end_display. `path` matters only where the filler has a choice.
  virtual void fill(Tiles tiles, const std::vector<view::Placement>& placements,
                    const DisplayOptions& options, const Palette& palette, DisplayPath path) = 0;

  /// Fills the tiles by `path` again and again from the engine's current state (no steps, no
  /// display brackets) for at least `min_seconds` (at least one fill after a warm-up, at most
  /// `max_frames`), waits for the device, and returns the cost. Blocks: not for the frame loop.
  /// Empty (tiles 0) where there is no device to measure (the CPU engine).
  virtual DisplayCost measure(Tiles tiles, const std::vector<view::Placement>& placements,
                              const DisplayOptions& options, const Palette& palette, DisplayPath path,
                              double min_seconds, int max_frames) {
    (void)tiles, (void)placements, (void)options, (void)palette, (void)path, (void)min_seconds,
        (void)max_frames;
    return {};
  }

  virtual InteropStats interop_stats() const { return {}; }
};

/// The sampling a tile uses for its placement (grid lines from kGridMinPixelsPerCell on).
Sampling sampling_for(const view::Placement& placement, const DisplayOptions& options);
/// The same, with age shading only where the tile's last pixels came from the same path
/// (`history`): otherwise there is nothing to fade from.
Sampling tile_sampling(const view::Placement& placement, const DisplayOptions& options, bool history);

}  // namespace ls::render
