// tiles.hpp — the render side of the instances: one Tile per instance owns its tile-sized RGBA8
// texture (and, with CUDA, the texture's graphics resource, registered once); TileRenderer fills
// them every frame (CUDA render kernels through interop, or host pixels on the CPU backend) and
// draws them as quads with the GLSL program from shaders/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "render/gl.hpp"
#include "render/tile_pixels.hpp"
#include "render/view.hpp"

namespace ls {
class CpuEngine;
class CudaEngine;
}  // namespace ls

namespace ls::render {

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
  void sync(const std::vector<Placement>& placements);

  /// Fills every tile from the engine: CpuEngine (host pixels + glTextureSubImage2D) or
  /// CudaEngine (all resources mapped in one call, one render kernel per tile on its instance's
  /// stream, one unmap). Brackets each tile with engine.begin_display/end_display.
  void update(Engine& engine, const std::vector<Placement>& placements, bool grid, const Palette& palette);

  /// Draws the tiles into the bound framebuffer (fb_width x fb_height pixels).
  void draw(const std::vector<Placement>& placements, int fb_width, int fb_height);

  std::size_t size() const;

 private:
  struct Tile;
  struct Cuda;
  void update_cpu(CpuEngine& engine, const std::vector<Placement>& placements, bool grid,
                  const Palette& palette);
  void update_cuda(CudaEngine& engine, const std::vector<Placement>& placements, bool grid,
                   const Palette& palette);

  bool cuda_;
  GlProgram program_;
  GlVertexArray vao_;
  GLint rect_location_ = -1;
  GLint origin_location_ = -1;
  std::vector<std::unique_ptr<Tile>> tiles_;
  std::unique_ptr<Cuda> cuda_state_;
  std::vector<std::uint32_t> pixels_;  // reused host buffer of the CPU path
};

/// The sampling a tile uses for its placement (grid lines from kGridMinPixelsPerCell on).
Sampling sampling_for(const Placement& placement, bool grid);

}  // namespace ls::render
