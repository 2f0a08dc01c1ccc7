// tiles.cpp — tile textures, CUDA–GL interop (register once, map all in one call per frame), the
// textbook path it is measured against, the CPU backend's upload path; draws the tiles as
// textured quads.
#include "render/tiles.hpp"

#include <array>
#include <chrono>
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
using view::Placement;
using view::Rect;

#if defined(LIFESTREAMS_HAVE_CUDA)
namespace {

/// A GL texture registered with CUDA for surface loads and stores; unregistered in the
/// destructor. Mapped write-discard unless the kernel reads the last frame (age shading).
class GraphicsResource {
 public:
  explicit GraphicsResource(GLuint texture) {
    CUDA_CHECK(cudaGraphicsGLRegisterImage(&resource_, texture, GL_TEXTURE_2D,
                                           cudaGraphicsRegisterFlagsSurfaceLoadStore));
    CUDA_CHECK(cudaGraphicsResourceSetMapFlags(resource_, cudaGraphicsMapFlagsWriteDiscard));
  }
  GraphicsResource(const GraphicsResource&) = delete;
  GraphicsResource& operator=(const GraphicsResource&) = delete;
  ~GraphicsResource() {
    if (resource_) cudaGraphicsUnregisterResource(resource_);
  }
  cudaGraphicsResource_t get() const { return resource_; }
  /// Only while unmapped. Returns whether the flag changed.
  bool set_write_discard(bool discard) {
    if (discard == write_discard_) return false;
    CUDA_CHECK(cudaGraphicsResourceSetMapFlags(
        resource_, discard ? cudaGraphicsMapFlagsWriteDiscard : cudaGraphicsMapFlagsNone));
    write_discard_ = discard;
    return true;
  }

 private:
  cudaGraphicsResource_t resource_ = nullptr;
  bool write_discard_ = true;
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
  // Which path made the texture's pixels last: age shading fades from them only on the same path.
  enum class Drawn { never, host, device } drawn = Drawn::never;
  std::vector<std::uint32_t> pixels;  // the host paths' last pixels of this tile
#if defined(LIFESTREAMS_HAVE_CUDA)
  std::unique_ptr<GraphicsResource> resource;
  Surface surface;
  cuda::Event rendered;
  cuda::Event handoff;  // see update_cuda
#endif
};

namespace {
/// Events around one frame's map call on the render stream, read a few frames later.
struct MapWaitSlot {
#if defined(LIFESTREAMS_HAVE_CUDA)
  cuda::Event before{cuda::Event::Create{}};
  cuda::Event after{cuda::Event::Create{}};
#endif
  bool pending = false;
};
constexpr std::size_t kMapWaitSlots = 4;
}  // namespace

struct TileRenderer::Cuda {
#if defined(LIFESTREAMS_HAVE_CUDA)
  cuda::Stream stream{cuda::Stream::Create{}};
  cuda::Event mapped{cuda::Event::Create{}, false};
  std::vector<cudaGraphicsResource_t> resources;
  std::array<MapWaitSlot, kMapWaitSlots> map_waits;
  std::uint64_t frame = 0;
#endif
};

std::string_view display_path_name(DisplayPath path) {
  return path == DisplayPath::interop ? "interop" : "textbook";
}

std::optional<DisplayPath> parse_display_path(std::string_view name) {
  if (name == "interop") return DisplayPath::interop;
  if (name == "textbook") return DisplayPath::textbook;
  return std::nullopt;
}

Sampling sampling_for(const Placement& p, const DisplayOptions& options) {
  Sampling s;
  s.origin_x = p.origin_x;
  s.origin_y = p.origin_y;
  s.cells_per_pixel = 1.0 / p.pixels_per_cell;
  s.grid_lines = options.grid_lines && p.pixels_per_cell >= kGridMinPixelsPerCell;
  s.age_shading = options.age_shading;
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
    tile->width = w;
    tile->height = h;
    tile->texture = make_rgba8_texture(w, h);
#if defined(LIFESTREAMS_HAVE_CUDA)
    if (cuda_) {
      tile->resource = std::make_unique<GraphicsResource>(tile->texture.get());
      tile->rendered = cuda::Event(cuda::Event::Create{}, false);
      tile->handoff = cuda::Event(cuda::Event::Create{}, true);
    }
#endif
    if (i < tiles_.size())
      tiles_[i] = std::move(tile);
    else
      tiles_.push_back(std::move(tile));
  }
}

void TileRenderer::update(Engine& engine, const std::vector<Placement>& placements,
                          const DisplayOptions& options, const Palette& palette) {
  sync(placements);
  if (auto* cpu = dynamic_cast<CpuEngine*>(&engine)) {
    update_cpu(*cpu, placements, options, palette);
    return;
  }
#if defined(LIFESTREAMS_HAVE_CUDA)
  if (auto* gpu = dynamic_cast<CudaEngine*>(&engine)) {
    if (path_ == DisplayPath::textbook) {
      update_textbook(engine, placements, options, palette);
      return;
    }
    if (!cuda_) throw DeviceError("the tile renderer was made for the CPU engine");
    update_cuda(*gpu, placements, options, palette, true);
    return;
  }
#endif
  throw DeviceError("the tile renderer cannot draw the " + engine.backend() + " engine");
}

DisplayCost TileRenderer::measure(Engine& engine, const std::vector<Placement>& placements,
                                  const DisplayOptions& options, const Palette& palette, DisplayPath path,
                                  double min_seconds, int max_frames) {
  DisplayCost cost;
#if defined(LIFESTREAMS_HAVE_CUDA)
  auto* gpu = dynamic_cast<CudaEngine*>(&engine);
  if (!gpu || !cuda_) return cost;
  sync(placements);
  const std::size_t n = std::min(placements.size(), engine.size());
  if (n == 0) return cost;
  auto fill = [&] {
    if (path == DisplayPath::textbook)
      update_textbook(engine, placements, options, palette);
    else
      update_cuda(*gpu, placements, options, palette, false);
  };
  auto drain = [&] {
    CUDA_CHECK(cudaStreamSynchronize(cuda_state_->stream.get()));
    glFinish();
  };
  using Clock = std::chrono::steady_clock;
  engine.finish();
  drain();
  fill();  // warm-up: first maps, first launches, host buffers
  drain();
  const double map_before = map_host_ms_, unmap_before = unmap_host_ms_;
  const auto start = Clock::now();
  int frames = 0;
  do {
    fill();
    ++frames;
  } while (frames < max_frames && std::chrono::duration<double>(Clock::now() - start).count() < min_seconds);
  drain();
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  cost.tiles = static_cast<int>(n);
  cost.frames = frames;
  cost.ms_per_frame = ms / frames;
  cost.ms_per_tile = cost.ms_per_frame / static_cast<double>(n);
  cost.map_host_ms = (map_host_ms_ - map_before) / frames;
  cost.unmap_host_ms = (unmap_host_ms_ - unmap_before) / frames;
#else
  (void)engine, (void)placements, (void)options, (void)palette, (void)path, (void)min_seconds,
      (void)max_frames;
#endif
  return cost;
}

namespace {
/// The tile's sampling; age shading only where the tile's last pixels came from the same path.
Sampling tile_sampling(const Placement& p, const DisplayOptions& options, bool history) {
  Sampling s = sampling_for(p, options);
  s.age_shading = s.age_shading && history;
  return s;
}
}  // namespace

void TileRenderer::update_cpu(CpuEngine& engine, const std::vector<Placement>& placements,
                              const DisplayOptions& options, const Palette& palette) {
  const std::size_t n = std::min(placements.size(), engine.size());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  for (std::size_t i = 0; i < n; ++i) {
    Tile& tile = *tiles_[i];
    engine.begin_display(i);
    render_tile_host(engine.lattice(i), tile.width, tile.height,
                     tile_sampling(placements[i], options, tile.drawn == Tile::Drawn::host), palette,
                     tile.pixels);
    glTextureSubImage2D(tile.texture.get(), 0, 0, 0, tile.width, tile.height, GL_RGBA, GL_UNSIGNED_BYTE,
                        tile.pixels.data());
    tile.drawn = Tile::Drawn::host;
    engine.end_display(i);
  }
}

void TileRenderer::update_textbook(Engine& engine, const std::vector<Placement>& placements,
                                   const DisplayOptions& options, const Palette& palette) {
  const std::size_t n = std::min(placements.size(), engine.size());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  for (std::size_t i = 0; i < n; ++i) {
    Tile& tile = *tiles_[i];
    // The lattice to the host (a blocking copy: the textbook path cannot avoid this sync), its
    // pixels on the CPU, the upload through GL.
    const Lattice lattice = engine.read(i);
    render_tile_host(lattice, tile.width, tile.height,
                     tile_sampling(placements[i], options, tile.drawn == Tile::Drawn::host), palette,
                     tile.pixels);
    glTextureSubImage2D(tile.texture.get(), 0, 0, 0, tile.width, tile.height, GL_RGBA, GL_UNSIGNED_BYTE,
                        tile.pixels.data());
    tile.drawn = Tile::Drawn::host;
  }
}

#if defined(LIFESTREAMS_HAVE_CUDA)
void TileRenderer::harvest_map_waits() {
  for (MapWaitSlot& slot : cuda_state_->map_waits) {
    if (!slot.pending) continue;
    // Not finished yet: read in a later frame (cudaEventQuery never blocks).
    if (cudaEventQuery(slot.after.get()) != cudaSuccess) continue;
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, slot.before.get(), slot.after.get()));
    map_wait_.add(ms);
    slot.pending = false;
  }
}

void TileRenderer::update_cuda(CudaEngine& engine, const std::vector<Placement>& placements,
                               const DisplayOptions& options, const Palette& palette, bool timed) {
  const std::size_t n = std::min(placements.size(), engine.size());
  if (n == 0) return;
  Cuda& c = *cuda_state_;
  c.resources.clear();
  for (std::size_t i = 0; i < n; ++i) {
    Tile& tile = *tiles_[i];
    // Pixels last written under write-discard are not promised to be there: start afresh.
    if (tile.resource->set_write_discard(!options.age_shading) && options.age_shading)
      tile.drawn = Tile::Drawn::never;
    c.resources.push_back(tile.resource->get());
  }
  const cudaStream_t stream = c.stream.get();
  MapWaitSlot* wait = nullptr;
  if (timed) {
    harvest_map_waits();
    wait = &c.map_waits[c.frame++ % kMapWaitSlots];
    if (wait->pending) wait = nullptr;  // still in flight: this frame goes unmeasured
  }
  if (wait) wait->before.record(stream);
  using Clock = std::chrono::steady_clock;
  const auto map_start = Clock::now();
  // One map for all tiles: mapping each on its own stream costs ~60x more.
  CUDA_CHECK(cudaGraphicsMapResources(static_cast<int>(n), c.resources.data(), stream));
  map_host_ms_ += std::chrono::duration<double, std::milli>(Clock::now() - map_start).count();
  if (wait) {
    wait->after.record(stream);
    wait->pending = true;
  }
  c.mapped.record(stream);
  for (std::size_t i = 0; i < n; ++i) {
    Tile& tile = *tiles_[i];
    cudaArray_t array = nullptr;
    CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, tile.resource->get(), 0, 0));
    const cudaSurfaceObject_t surface = tile.surface.get(array);
    const DeviceLatticeView v = engine.device_view(i);
    const Sampling s = tile_sampling(placements[i], options, tile.drawn == Tile::Drawn::device);
    kernels::TileView tv;
    tv.origin_x = s.origin_x;
    tv.origin_y = s.origin_y;
    tv.cells_per_pixel = s.cells_per_pixel;
    tv.grid_lines = s.grid_lines;
    tv.age_shading = s.age_shading;
    tv.live_rgba = palette.live;
    tv.dead_rgba = palette.dead;
    tv.grid_rgba = palette.grid;
    // The render kernel runs on the instance's own stream, after its step work, once mapped.
    CUDA_CHECK(cudaStreamWaitEvent(v.stream, c.mapped.get(), 0));
    // A timing event right after that wait and before the kernel: without one the frame loop's
    // map waited ~2.7 ms a frame for OpenGL instead of ~0.5 (16 x 1024², H100: 534 -> 1224
    // frames/s; a non-timing event or a stream query there, or timing events elsewhere, did not
    // help; bench/NOTES.md). On timed frames the engine's display start event is that event.
    const bool bracketed = timed && engine.begin_display(i);
    if (!bracketed) tile.handoff.record(v.stream);
    kernels::launch_render_tile(v.layout, v.cells, v.width, v.height, surface, tile.width, tile.height, tv,
                                v.stream);
    if (bracketed) engine.end_display(i);
    tile.rendered.record(v.stream);
    tile.drawn = Tile::Drawn::device;
    CUDA_CHECK(cudaStreamWaitEvent(stream, tile.rendered.get(), 0));
  }
  const auto unmap_start = Clock::now();
  CUDA_CHECK(cudaGraphicsUnmapResources(static_cast<int>(n), c.resources.data(), stream));
  unmap_host_ms_ += std::chrono::duration<double, std::milli>(Clock::now() - unmap_start).count();
}
#else
void TileRenderer::harvest_map_waits() {}
void TileRenderer::update_cuda(CudaEngine&, const std::vector<Placement>&, const DisplayOptions&,
                               const Palette&, bool) {
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
