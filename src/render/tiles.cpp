// tiles.cpp — tile textures, CUDA–GL interop (register once, map all in one call per frame) and
// the CPU backend's upload path; draws the tiles as textured quads.
#include "render/tiles.hpp"

#include <stdexcept>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "render/shader.hpp"

#if defined(LIFESTREAMS_HAVE_CUDA)
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include "cuda_check.hpp"
#include "life_kernels.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"
#endif

namespace ls::render {

#if defined(LIFESTREAMS_HAVE_CUDA)
namespace {

/// A GL texture registered with CUDA for surface writes; unregistered in the destructor.
class GraphicsResource {
 public:
  explicit GraphicsResource(GLuint texture) {
    CUDA_CHECK(cudaGraphicsGLRegisterImage(
        &resource_, texture, GL_TEXTURE_2D,
        cudaGraphicsRegisterFlagsSurfaceLoadStore | cudaGraphicsRegisterFlagsWriteDiscard));
  }
  GraphicsResource(const GraphicsResource&) = delete;
  GraphicsResource& operator=(const GraphicsResource&) = delete;
  ~GraphicsResource() {
    if (resource_) cudaGraphicsUnregisterResource(resource_);
  }
  cudaGraphicsResource_t get() const { return resource_; }

 private:
  cudaGraphicsResource_t resource_ = nullptr;
};

/// A surface object over a mapped array (the array of a registered texture stays the same while
/// the registration lives, so it is made once and kept).
class Surface {
 public:
  Surface() = default;
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;
  ~Surface() { reset(); }
  cudaSurfaceObject_t get(cudaArray_t array) {
    if (array != array_) {
      reset();
      cudaResourceDesc desc{};
      desc.resType = cudaResourceTypeArray;
      desc.res.array.array = array;
      CUDA_CHECK(cudaCreateSurfaceObject(&surface_, &desc));
      array_ = array;
    }
    return surface_;
  }

 private:
  void reset() noexcept {
    if (surface_) cudaDestroySurfaceObject(surface_);
    surface_ = 0;
    array_ = nullptr;
  }
  cudaSurfaceObject_t surface_ = 0;
  cudaArray_t array_ = nullptr;
};

}  // namespace
#endif

struct TileRenderer::Tile {
  GlTexture texture;
  int width = 0;
  int height = 0;
#if defined(LIFESTREAMS_HAVE_CUDA)
  std::unique_ptr<GraphicsResource> resource;
  Surface surface;
  cuda::Event rendered;
#endif
};

struct TileRenderer::Cuda {
#if defined(LIFESTREAMS_HAVE_CUDA)
  cuda::Stream stream{cuda::Stream::Create{}};
  cuda::Event mapped{cuda::Event::Create{}, false};
  std::vector<cudaGraphicsResource_t> resources;
#endif
};

Sampling sampling_for(const Placement& p, bool grid) {
  Sampling s;
  s.origin_x = p.origin_x;
  s.origin_y = p.origin_y;
  s.cells_per_pixel = 1.0 / p.pixels_per_cell;
  s.grid_lines = grid && p.pixels_per_cell >= kGridMinPixelsPerCell;
  return s;
}

TileRenderer::TileRenderer(const std::string& shader_dir, bool cuda) : cuda_(cuda) {
#if !defined(LIFESTREAMS_HAVE_CUDA)
  if (cuda) throw DeviceError("this build has no CUDA: tiles can only be drawn from the CPU engine");
#else
  if (cuda) cuda_state_ = std::make_unique<Cuda>();
#endif
  program_ = load_program(shader_dir, "tile.vert", "tile.frag");
  rect_location_ = glGetUniformLocation(program_.get(), "u_rect");
  origin_location_ = glGetUniformLocation(program_.get(), "u_origin");
  const GLint texture_location = glGetUniformLocation(program_.get(), "u_texture");
  glProgramUniform1i(program_.get(), texture_location, 0);
  GLuint vao = 0;
  glCreateVertexArrays(1, &vao);
  vao_ = GlVertexArray(vao);
  check_gl("creating the tile program");
}

TileRenderer::~TileRenderer() {
#if defined(LIFESTREAMS_HAVE_CUDA)
  // Unregistering a resource the render stream may still write would be a hazard.
  if (cuda_state_) cudaStreamSynchronize(cuda_state_->stream.get());
#endif
}

std::size_t TileRenderer::size() const { return tiles_.size(); }

void TileRenderer::sync(const std::vector<Placement>& placements) {
  bool changes = tiles_.size() != placements.size();
  for (std::size_t i = 0; i < placements.size() && i < tiles_.size() && !changes; ++i)
    changes = tiles_[i]->width != placements[i].quad.w || tiles_[i]->height != placements[i].quad.h;
  if (!changes) return;
#if defined(LIFESTREAMS_HAVE_CUDA)
  // Only when the layout changes (resize, instance count): let the last frame's render work
  // finish before textures it writes are unregistered.
  if (cuda_state_) CUDA_CHECK(cudaStreamSynchronize(cuda_state_->stream.get()));
#endif
  tiles_.resize(std::min(tiles_.size(), placements.size()));
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const int w = std::max(1, placements[i].quad.w);
    const int h = std::max(1, placements[i].quad.h);
    if (i < tiles_.size() && tiles_[i]->width == w && tiles_[i]->height == h) continue;
    auto tile = std::make_unique<Tile>();
    tile->texture = make_rgba8_texture(w, h);
    tile->width = w;
    tile->height = h;
#if defined(LIFESTREAMS_HAVE_CUDA)
    if (cuda_) {
      tile->resource = std::make_unique<GraphicsResource>(tile->texture.get());
      tile->rendered = cuda::Event(cuda::Event::Create{}, false);
    }
#endif
    if (i < tiles_.size())
      tiles_[i] = std::move(tile);
    else
      tiles_.push_back(std::move(tile));
  }
}

void TileRenderer::update(Engine& engine, const std::vector<Placement>& placements, bool grid,
                          const Palette& palette) {
  sync(placements);
  if (auto* cpu = dynamic_cast<CpuEngine*>(&engine)) {
    update_cpu(*cpu, placements, grid, palette);
    return;
  }
#if defined(LIFESTREAMS_HAVE_CUDA)
  if (auto* gpu = dynamic_cast<CudaEngine*>(&engine)) {
    if (!cuda_) throw DeviceError("the tile renderer was made for the CPU engine");
    update_cuda(*gpu, placements, grid, palette);
    return;
  }
#endif
  throw DeviceError("the tile renderer cannot draw the " + engine.backend() + " engine");
}

void TileRenderer::update_cpu(CpuEngine& engine, const std::vector<Placement>& placements, bool grid,
                              const Palette& palette) {
  const std::size_t n = std::min(placements.size(), engine.size());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  for (std::size_t i = 0; i < n; ++i) {
    Tile& tile = *tiles_[i];
    engine.begin_display(i);
    render_tile_host(engine.lattice(i), tile.width, tile.height, sampling_for(placements[i], grid), palette,
                     pixels_);
    glTextureSubImage2D(tile.texture.get(), 0, 0, 0, tile.width, tile.height, GL_RGBA, GL_UNSIGNED_BYTE,
                        pixels_.data());
    engine.end_display(i);
  }
}

#if defined(LIFESTREAMS_HAVE_CUDA)
void TileRenderer::update_cuda(CudaEngine& engine, const std::vector<Placement>& placements, bool grid,
                               const Palette& palette) {
  const std::size_t n = std::min(placements.size(), engine.size());
  if (n == 0) return;
  Cuda& c = *cuda_state_;
  c.resources.clear();
  for (std::size_t i = 0; i < n; ++i) c.resources.push_back(tiles_[i]->resource->get());
  const cudaStream_t stream = c.stream.get();
  // One map for all tiles: mapping each on its own stream costs ~60x more.
  CUDA_CHECK(cudaGraphicsMapResources(static_cast<int>(n), c.resources.data(), stream));
  c.mapped.record(stream);
  for (std::size_t i = 0; i < n; ++i) {
    Tile& tile = *tiles_[i];
    cudaArray_t array = nullptr;
    CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, tile.resource->get(), 0, 0));
    const cudaSurfaceObject_t surface = tile.surface.get(array);
    const DeviceLatticeView v = engine.device_view(i);
    const Sampling s = sampling_for(placements[i], grid);
    kernels::TileView tv;
    tv.origin_x = s.origin_x;
    tv.origin_y = s.origin_y;
    tv.cells_per_pixel = s.cells_per_pixel;
    tv.grid_lines = s.grid_lines;
    tv.live_rgba = palette.live;
    tv.dead_rgba = palette.dead;
    tv.grid_rgba = palette.grid;
    // The render kernel runs on the instance's own stream, after its step work, once mapped.
    CUDA_CHECK(cudaStreamWaitEvent(v.stream, c.mapped.get(), 0));
    engine.begin_display(i);
    kernels::launch_render_tile(v.layout, v.cells, v.width, v.height, surface, tile.width, tile.height, tv,
                                v.stream);
    engine.end_display(i);
    tile.rendered.record(v.stream);
    CUDA_CHECK(cudaStreamWaitEvent(stream, tile.rendered.get(), 0));
  }
  CUDA_CHECK(cudaGraphicsUnmapResources(static_cast<int>(n), c.resources.data(), stream));
}
#else
void TileRenderer::update_cuda(CudaEngine&, const std::vector<Placement>&, bool, const Palette&) {
  throw DeviceError("this build has no CUDA");
}
#endif

void TileRenderer::draw(const std::vector<Placement>& placements, int fb_width, int fb_height) {
  if (fb_width <= 0 || fb_height <= 0) return;
  glUseProgram(program_.get());
  glBindVertexArray(vao_.get());
  const std::size_t n = std::min(placements.size(), tiles_.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Rect& q = placements[i].quad;
    const float left = 2.f * q.x / fb_width - 1.f;
    const float right = 2.f * (q.x + tiles_[i]->width) / fb_width - 1.f;
    const float top = 1.f - 2.f * q.y / fb_height;
    const float bottom = 1.f - 2.f * (q.y + tiles_[i]->height) / fb_height;
    glUniform4f(rect_location_, left, bottom, right, top);
    glUniform2i(origin_location_, q.x, fb_height - 1 - q.y);
    glBindTextureUnit(0, tiles_[i]->texture.get());
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace ls::render
