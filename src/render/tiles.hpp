// tiles.hpp — the render side of the instances: TileRenderer keeps one Tile per instance (a texture
// the size of its quad), has them filled every frame by the TileFiller that fits the engine
// (render/tile_filler.hpp), and draws them as quads with the GLSL program from shaders/.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"
#include "render/gl.hpp"
#include "render/tile_filler.hpp"
#include "render/tile_pixels.hpp"
#include "view/view.hpp"

namespace ls::render {

/// Draws the tiles and has them filled. Needs a current GL context for its whole life.
class TileRenderer {
 public:
  /// Loads tile.vert / tile.frag from `shader_dir`. `filler` fills the tiles from the engine it
  /// was made for (the engine factory hands out the one that fits).
  TileRenderer(const std::string& shader_dir, std::unique_ptr<TileFiller> filler);
  ~TileRenderer();
  TileRenderer(const TileRenderer&) = delete;
  TileRenderer& operator=(const TileRenderer&) = delete;

  /// One tile per placement, its texture the size of the placement's quad (textures, and what the
  /// filler keeps beside them, are only made again when a size changes).
  void sync(const std::vector<view::Placement>& placements);

  /// Fills every tile from the filler's engine (sync first). With a CUDA engine by the display
  /// path (interop: all resources mapped in one call, one render kernel per tile on its
  /// instance's stream, one unmap); the display work of each tile is bracketed with
  /// engine.begin_display/end_display. With age shading, each tile fades from the pixels it showed
  /// last (none yet, or last made by the other path: drawn without fading).
  void update(const std::vector<view::Placement>& placements, const DisplayOptions& options,
              const Palette& palette);

  /// The path update() takes with a CUDA engine (default interop).
  void set_display_path(DisplayPath path) { path_ = path; }
  DisplayPath display_path() const { return path_; }

  /// Fills every tile by `path` again and again (TileFiller::measure; sync first) and returns the
  /// cost. Blocks: not for the frame loop. Empty (tiles 0) on the CPU engine.
  DisplayCost measure(const std::vector<view::Placement>& placements, const DisplayOptions& options,
                      const Palette& palette, DisplayPath path, double min_seconds, int max_frames);

  /// Interop, in the frame loop: how long the render stream waited in the one map call (GL
  /// releasing the textures), from events read a few frames late without blocking.
  StatSummary map_wait_ms() const { return filler_->interop_stats().map_wait_ms; }
  /// Interop: host time spent in the map and unmap calls so far, in total.
  double map_host_ms() const { return filler_->interop_stats().map_host_ms; }
  double unmap_host_ms() const { return filler_->interop_stats().unmap_host_ms; }
  /// How tiles of other GPUs reach the display GPU (InteropStats::remote_copy; "" for none).
  std::string_view remote_copy() const { return filler_->interop_stats().remote_copy; }

  /// Draws the tiles into the bound framebuffer (fb_width x fb_height pixels).
  void draw(const std::vector<view::Placement>& placements, int fb_width, int fb_height);

  std::size_t size() const { return tiles_.size(); }
  /// The tiles, for tests (tiles[i] shows instance i).
  Tiles tiles() { return tiles_; }

 private:
  // Declared first: destroyed after the tiles, whose attachments it made.
  std::unique_ptr<TileFiller> filler_;
  DisplayPath path_ = DisplayPath::interop;
  GlProgram program_;
  GlVertexArray vao_;
  GLint rect_location_ = -1;
  GLint origin_location_ = -1;
  GLint offset_location_ = -1;
  std::vector<std::unique_ptr<Tile>> tiles_;
};

}  // namespace ls::render
