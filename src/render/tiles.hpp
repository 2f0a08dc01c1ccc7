// tiles.hpp — the render side of the instances: one Tile per instance owns its tile-sized RGBA8
// texture (and, with CUDA, the texture's graphics resource, registered once); TileRenderer fills
// them every frame (CUDA render kernels through interop, the textbook path for comparison, or
// host pixels on the CPU backend) and draws them as quads with the GLSL program from shaders/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"
#include "core/stats.hpp"
#include "render/gl.hpp"
#include "render/tile_pixels.hpp"
#include "view/view.hpp"

namespace ls {
class CpuEngine;
class CudaEngine;
}  // namespace ls

namespace ls::render {

/// How a CUDA engine's lattices reach the tiles. interop: a render kernel per tile writes its
/// mapped texture (all mapped in one call); textbook: each lattice is copied to the host, its
/// pixels are made on the CPU (render_tile_host) and uploaded with glTextureSubImage2D — the
/// path interop is measured against. The CPU engine always uploads host pixels.
enum class DisplayPath { interop, textbook };
std::string_view display_path_name(DisplayPath path);
std::optional<DisplayPath> parse_display_path(std::string_view name);

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

/// Draws and fills the tiles. Needs a current GL context for its whole life.
class TileRenderer {
 public:
  /// Loads tile.vert / tile.frag from `shader_dir`. `cuda`: the tiles are filled by CUDA kernels
  /// (the engine's device must be current and interoperable with the GL context).
  TileRenderer(const std::string& shader_dir, bool cuda);
  ~TileRenderer();
  TileRenderer(const TileRenderer&) = delete;
  TileRenderer& operator=(const TileRenderer&) = delete;

  /// One tile per placement, its texture the size of the placement's quad (textures and graphics
  /// resources are only made again when a size changes).
  void sync(const std::vector<view::Placement>& placements);

  /// Fills every tile from the engine: CpuEngine (host pixels + glTextureSubImage2D) or
  /// CudaEngine by the display path (interop: all resources mapped in one call, one render
  /// kernel per tile on its instance's stream, one unmap; the interop work of each tile is
  /// bracketed with engine.begin_display/end_display). With age shading, each tile fades from
  /// the pixels it showed last (none yet, or last made by the other path: drawn without fading).
  void update(Engine& engine, const std::vector<view::Placement>& placements, const DisplayOptions& options,
              const Palette& palette);

  /// The path update() takes with a CUDA engine (default interop).
  void set_display_path(DisplayPath path) { path_ = path; }
  DisplayPath display_path() const { return path_; }

  /// Fills every tile by `path` again and again from the engine's current state (no steps, no
  /// display brackets) for at least `min_seconds` (at least one fill after a warm-up, at most
  /// `max_frames`), waits for the GPU, and returns the cost. Blocks: not for the frame loop.
  /// Empty (tiles 0) on the CPU engine.
  DisplayCost measure(Engine& engine, const std::vector<view::Placement>& placements,
                      const DisplayOptions& options, const Palette& palette, DisplayPath path,
                      double min_seconds, int max_frames);

  /// Interop, in the frame loop: how long the render stream waited in the one map call (GL
  /// releasing the textures), from events read a few frames late without blocking.
  StatSummary map_wait_ms() const { return map_wait_.summary(); }
  /// Interop: host time spent in the map and unmap calls so far, in total.
  double map_host_ms() const { return map_host_ms_; }
  double unmap_host_ms() const { return unmap_host_ms_; }

  /// Draws the tiles into the bound framebuffer (fb_width x fb_height pixels).
  void draw(const std::vector<view::Placement>& placements, int fb_width, int fb_height);

  std::size_t size() const;

 private:
  struct Tile;
  struct Cuda;
  void update_cpu(CpuEngine& engine, const std::vector<view::Placement>& placements,
                  const DisplayOptions& options, const Palette& palette);
  void update_cuda(CudaEngine& engine, const std::vector<view::Placement>& placements,
                   const DisplayOptions& options, const Palette& palette, bool timed);
  void update_textbook(Engine& engine, const std::vector<view::Placement>& placements,
                       const DisplayOptions& options, const Palette& palette);
  void harvest_map_waits();

  bool cuda_;
  double map_host_ms_ = 0;
  double unmap_host_ms_ = 0;
  DisplayPath path_ = DisplayPath::interop;
  RollingStats map_wait_;
  GlProgram program_;
  GlVertexArray vao_;
  GLint rect_location_ = -1;
  GLint origin_location_ = -1;
  std::vector<std::unique_ptr<Tile>> tiles_;
  std::unique_ptr<Cuda> cuda_state_;
};

/// The sampling a tile uses for its placement (grid lines from kGridMinPixelsPerCell on).
Sampling sampling_for(const view::Placement& placement, const DisplayOptions& options);

}  // namespace ls::render
