// handoff_probe.cu — `ls_handoff_probe`: what handing CUDA's picture to GL costs per frame, against GL and
// CUDA merely sharing one GPU (figures in bench/NOTES.md). Each frame runs a DRAM-bound step (a 16384²
// byte lattice read and written as uint4, ~0.19 ms on an H100); its share of the frame (time alone x
// frames/s) is how much of the GPU the display leaves to the simulation. Frames are paced as the app
// paces them, the host waiting for a GL fence of two frames back. The modes:
//   A  the app's handoff: a GL texture registered with CUDA, mapped, written through a surface by a render
//      kernel (1024² pixels sampled from the lattice), unmapped, drawn by GL (the app's tile shaders) into
//      an offscreen 1920x1080 framebuffer.
//   B  no map: CUDA memory (cuMemCreate, exported as a POSIX file descriptor) imported into GL as a buffer
//      (GL_EXT_memory_object_fd), a ring of 3 slices. CUDA renders into a slice GL is done with (its GL
//      fence polled, never waited for); GL copies the newest slice CUDA has finished (its event queried)
//      into a texture and draws it. Checks first that GL reads what CUDA wrote. A linear-tiled texture
//      over the memory object would spare the copy, but the driver tried refuses one (GL_INVALID_VALUE).
//   C  the step and the same draw, no interop, also paced by a CUDA event of two frames back.
//   E  the step alone, paced by that event. Without GL_EXT_memory_object_fd, B is left out.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/unique_handle.hpp"
#include "interop/graphics_resource.hpp"
#include "kernels/cuda_check.hpp"
#include "render/gl.hpp"
#include "render/gl_sync.hpp"
#include "render/headless.hpp"
#include "render/paths.hpp"
#include "render/shader.hpp"
#include "sim/cuda_handles.hpp"
#include "sim/event_reads.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kSide = 16384;  // 256 MiB of cells: far past L2
constexpr std::size_t kCells = std::size_t{kSide} * kSide;
constexpr int kAtlas = 1024;  // the picture's side
constexpr std::size_t kSliceBytes = std::size_t{kAtlas} * kAtlas * 4;
constexpr int kRing = 3;
constexpr int kTargetWidth = 1920, kTargetHeight = 1080;
constexpr double kWarmupSeconds = 0.5;
constexpr std::uint64_t kFenceTimeoutNs = 1'000'000'000;

__device__ uint4 flipped(uint4 v) { return make_uint4(v.x ^ 1u, v.y ^ 1u, v.z ^ 1u, v.w ^ 1u); }
// As DRAM-bound as the engine's byte-cell step (every cell read and written once) without its arithmetic.
__global__ void step_kernel(const uint4* from, uint4* to, std::size_t words) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < words;
       i += std::size_t{gridDim.x} * blockDim.x)
    to[i] = flipped(from[i]);
}

// Pixel (x, y) of the picture, one cell of every 16x16 (green alive, grey dead; RGBA8 as a little-endian
// word), into a surface or, when `pixels` is set, into linear memory.
__global__ void render_kernel(const std::uint8_t* cells, cudaSurfaceObject_t surface, unsigned* pixels) {
  constexpr std::size_t kStride = kSide / kAtlas;
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  const unsigned colour = cells[y * kStride * kSide + x * kStride] ? 0xff00ff00u : 0xff202020u;
  if (pixels)
    pixels[y * kAtlas + x] = colour;
  else
    surf2Dwrite(colour, surface, static_cast<int>(x * 4), static_cast<int>(y));
}

/// A driver API entry point through the runtime, which loads the driver itself (not linking libcuda lets
/// --help, and the error on a machine without a driver, work); null when the lookup fails. Looked up at
/// each call: none is in the frame loop.
/// The driver API version whose entry points are asked for: every one used here is in CUDA 12.0, so a
/// 12.x driver serves them too.
constexpr unsigned kDriverApiVersion = 12000;
template <class Fn>
Fn driver_entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t e =
      cudaGetDriverEntryPointByVersion(name, &fn, kDriverApiVersion, cudaEnableDefault, &found);
  return e == cudaSuccess && found == cudaDriverEntryPointSuccess ? reinterpret_cast<Fn>(fn) : nullptr;
}
#define DRIVER(name) driver_entry<decltype(&::name)>(#name)

/// Calls driver function `name` and throws DeviceError naming the call when it is missing or fails.
#define DRIVER_CHECK(name, ...) \
  call_driver(DRIVER(name), #name "(" #__VA_ARGS__ ")", __FILE__, __LINE__, __VA_ARGS__)
template <class Fn, class... Args>
void call_driver(Fn fn, const char* call, const char* file, int line, Args... args) {
  const CUresult result = fn ? fn(args...) : CUDA_ERROR_NOT_FOUND;
  const char* name = "no such entry point";
  if (fn && result != CUDA_SUCCESS)
    if (const auto error_name = DRIVER(cuGetErrorName)) error_name(result, &name);
  if (!fn || result != CUDA_SUCCESS)
    throw ls::DeviceError(std::string("CUDA driver error: ") + call + " failed: " + name + " at " + file +
                          ":" + std::to_string(line));
}

template <class Handle, void (*Destroy)(Handle)>  // UniqueHandle's traits for a release function
struct Calls {
  static void destroy(Handle h) { Destroy(h); }
};

using Range = std::pair<CUdeviceptr, std::size_t>;  // reserved addresses, the memory mapped there or not yet
// Teardown never throws: a lookup that fails (a lost context) leaves the memory to the process's end.
void unmap_and_free(Range r) {
  if (auto unmap = DRIVER(cuMemUnmap)) unmap(r.first, r.second);  // nothing mapped yet: fails, harmless
  if (auto free = DRIVER(cuMemAddressFree)) free(r.first, r.second);
}
void release(CUmemGenericAllocationHandle h) {
  if (auto f = DRIVER(cuMemRelease)) f(h);
}
void delete_memory_object(GLuint id) { glDeleteMemoryObjectsEXT(1, &id); }

/// Device memory GL reads as a buffer: made with cuMemCreate, exported as a file descriptor and imported
/// into GL as a memory object. The members go in the reverse order of their making, once neither API
/// uses the memory any more (run_frames ends by waiting for both).
class ExportedMemory {
 public:
  ExportedMemory(int device, std::size_t min_bytes) {
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, device};
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    std::size_t granularity = 1;
    DRIVER_CHECK(cuMemGetAllocationGranularity, &granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    const std::size_t bytes = (min_bytes + granularity - 1) / granularity * granularity;
    DRIVER_CHECK(cuMemCreate, allocation_.out(), bytes, &prop, 0);
    CUdeviceptr ptr = 0;
    DRIVER_CHECK(cuMemAddressReserve, &ptr, bytes, 0, 0, 0);
    range_ = decltype(range_)(Range{ptr, bytes});
    DRIVER_CHECK(cuMemMap, ptr, bytes, 0, allocation_.get(), 0);
    const CUmemAccessDesc access{prop.location, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    DRIVER_CHECK(cuMemSetAccess, ptr, bytes, &access, 1);
    int fd = -1;
    DRIVER_CHECK(cuMemExportToShareableHandle, &fd, allocation_.get(),
                 CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    GLuint id = 0;
    glCreateMemoryObjectsEXT(1, &id);
    memory_ = decltype(memory_)(id);
    const GLint dedicated = GL_FALSE;  // cuMemCreate memory is no dedicated allocation in Vulkan's sense
    glMemoryObjectParameterivEXT(id, GL_DEDICATED_MEMORY_OBJECT_EXT, &dedicated);
    // Any earlier GL error reported now, so that the check after the import is the import's own.
    ls::render::check_gl("before importing CUDA's memory into GL");
    glImportMemoryFdEXT(id, bytes, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
    // A successful import owns the descriptor, a failed one leaves it ours.
    if (glGetError() != GL_NO_ERROR) {
      close(fd);
      throw ls::render::GlError("GL refused CUDA's memory (glImportMemoryFdEXT)");
    }
    glCreateBuffers(1, &id);
    buffer_ = ls::render::GlBuffer(id);
    glNamedBufferStorageMemEXT(id, static_cast<GLsizeiptr>(bytes), memory_.get(), 0);
    ls::render::check_gl("making a GL buffer over CUDA's memory (glNamedBufferStorageMemEXT)");
  }
  unsigned* pixels() const { return reinterpret_cast<unsigned*>(range_.get().first); }
  GLuint buffer() const { return buffer_.get(); }

 private:
  ls::UniqueHandle<CUmemGenericAllocationHandle, Calls<CUmemGenericAllocationHandle, release>> allocation_;
  ls::UniqueHandle<Range, Calls<Range, unmap_and_free>> range_;
  ls::UniqueHandle<GLuint, Calls<GLuint, delete_memory_object>> memory_;
  ls::render::GlBuffer buffer_;
};

/// Two lattices on one stream, each step writing one from the other.
struct Lattice {
  cudaStream_t stream;
  int blocks;
  ls::cuda::DeviceBuffer front{kCells}, back{kCells};
  void step() {
    step_kernel<<<blocks, 512, 0, stream>>>(front.as<const uint4>(), back.as<uint4>(), kCells / 16);
    CUDA_CHECK_LAUNCH();
    std::swap(front, back);
  }
  void render(cudaSurfaceObject_t surface, unsigned* pixels) const {
    render_kernel<<<dim3(kAtlas / 256, kAtlas), 256, 0, stream>>>(front.as<std::uint8_t>(), surface, pixels);
    CUDA_CHECK_LAUNCH();
  }
};

double step_alone_ms(Lattice& lattice) {
  constexpr int kSteps = 50;
  const ls::cuda::Event start(ls::cuda::Event::Create{}), end(ls::cuda::Event::Create{});
  for (int i = 0; i < 5; ++i) lattice.step();
  start.record(lattice.stream);
  for (int i = 0; i < kSteps; ++i) lattice.step();
  end.record(lattice.stream);
  CUDA_CHECK(cudaEventSynchronize(end.get()));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), end.get()));
  return ms / kSteps;
}

/// The app's tile draw (set up in run()): the picture one texel per pixel, top left in the cleared
/// 1920x1080 framebuffer.
void draw(GLuint texture) {
  glClear(GL_COLOR_BUFFER_BIT);
  glBindTextureUnit(0, texture);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Runs frame(i, counted) for kWarmupSeconds + `seconds`, counting the frames after the warm-up, waits
/// for CUDA and GL to finish them, prints the mode's row and returns the seconds counted. `gl_paced`: the
/// app's pacing, frame i starting once the GL work of frame i - 2 is done.
template <class Frame>
double run_frames(const char* mode, const Lattice& lattice, double seconds, double step_ms, bool gl_paced,
                  Frame&& frame) {
  ls::render::GlSync fences[2];
  const auto start = Clock::now();
  auto counted_from = start;
  long frames = 0;
  for (long i = 0; since(start) < kWarmupSeconds + seconds; ++i) {
    const bool counted = since(start) >= kWarmupSeconds;
    if (counted && frames == 0) counted_from = Clock::now();
    frames += counted;
    if (gl_paced) fences[i % 2].wait_and_reset(kFenceTimeoutNs);
    frame(i, counted);
    if (!gl_paced) continue;
    fences[i % 2] = ls::render::GlSync::fence();
    glFlush();  // the GPU starts on this frame now, not when a later frame waits
  }
  const double counted_seconds = since(counted_from);
  CUDA_CHECK(cudaStreamSynchronize(lattice.stream));
  glFinish();
  ls::render::check_gl(mode);
  const double fps = static_cast<double>(frames) / counted_seconds;
  std::printf("%-32s %6.0f frames/s  %7.3f ms/frame  step share %.2f\n", mode, fps, 1e3 / fps,
              step_ms * fps / 1e3);
  return counted_seconds;
}

void run_mapped(Lattice& lattice, double seconds, double step_ms) {
  const ls::render::GlTexture texture = ls::render::make_rgba8_texture(kAtlas, kAtlas);
  ls::interop::GraphicsResource resource(texture.get());
  ls::interop::Surface surface;
  run_frames("A registered texture, map/unmap:", lattice, seconds, step_ms, true, [&](long, bool) {
    lattice.step();
    cudaGraphicsResource_t r = resource.get();
    CUDA_CHECK(cudaGraphicsMapResources(1, &r, lattice.stream));
    cudaArray_t array = nullptr;
    CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, r, 0, 0));
    lattice.render(surface.get(array), nullptr);
    CUDA_CHECK(cudaGraphicsUnmapResources(1, &r, lattice.stream));
    draw(texture.get());
  });
}

void copy_slice(const ExportedMemory& memory, GLuint texture, int slice) {
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, memory.buffer());
  glTextureSubImage2D(texture, 0, 0, 0, kAtlas, kAtlas, GL_RGBA, GL_UNSIGNED_BYTE,
                      reinterpret_cast<const void*>(static_cast<std::uintptr_t>(slice) * kSliceBytes));
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

struct Slice {
  ls::cuda::Event rendered{ls::cuda::Event::Create{}, false};
  ls::render::GlSync
      gl_read;        // after GL's copy out of the slice: CUDA writes it again once this has signalled
  long picture = -1;  // the frame whose picture it holds
};

void run_exported(Lattice& lattice, int device, double seconds, double step_ms) {
  const ls::render::GlTexture texture = ls::render::make_rgba8_texture(kAtlas, kAtlas);
  const ExportedMemory memory(device, kSliceBytes * kRing);
  // First, whether GL reads what CUDA wrote into slice 0, through the buffer and through the texture.
  lattice.render(0, memory.pixels());
  std::vector<unsigned> by_cuda(kSliceBytes / 4), by_buffer(by_cuda.size()), by_texture(by_cuda.size());
  CUDA_CHECK(cudaStreamSynchronize(lattice.stream));
  CUDA_CHECK(cudaMemcpy(by_cuda.data(), memory.pixels(), kSliceBytes, cudaMemcpyDeviceToHost));
  glGetNamedBufferSubData(memory.buffer(), 0, kSliceBytes, by_buffer.data());
  copy_slice(memory, texture.get(), 0);
  glGetTextureImage(texture.get(), 0, GL_RGBA, GL_UNSIGNED_BYTE, kSliceBytes, by_texture.data());
  ls::render::check_gl("reading CUDA's pixels through GL");
  std::printf("B check: GL reads what CUDA wrote: through the buffer %s, through the texture %s\n",
              by_buffer == by_cuda ? "yes" : "NO", by_texture == by_cuda ? "yes" : "NO");
  if (by_buffer != by_cuda || by_texture != by_cuda)
    throw ls::DeviceError("GL does not read what CUDA wrote into the exported memory: mode B not timed");
  Slice ring[kRing];
  long shown = -1, pictures = 0, skipped = 0;
  const auto frame = [&](long i, bool counted) {
    lattice.step();
    // CUDA draws into the oldest slice GL is done with, or skips this frame's picture.
    int target = -1;
    for (int k = 0; k < kRing; ++k)
      if (ring[k].gl_read.signalled() && (target < 0 || ring[k].picture < ring[target].picture)) target = k;
    if (target >= 0) {
      ring[target].gl_read.reset();
      lattice.render(0, memory.pixels() + static_cast<std::size_t>(target) * kSliceBytes / 4);
      ring[target].rendered.record(lattice.stream);
      ring[target].picture = i;
    }
    skipped += counted && target < 0;
    // GL takes the newest picture CUDA has finished, when it is newer than the one shown.
    int newest = -1;
    for (int k = 0; k < kRing; ++k)
      if (ring[k].picture > shown && (newest < 0 || ring[k].picture > ring[newest].picture) &&
          ls::sim::event_done(ring[k].rendered.get()))
        newest = k;
    if (newest >= 0) {
      copy_slice(memory, texture.get(), newest);
      ring[newest].gl_read = ls::render::GlSync::fence();
      shown = ring[newest].picture;
      pictures += counted;
    }
    draw(texture.get());
  };
  const double measured = run_frames("B exported memory, ring of 3:", lattice, seconds, step_ms, true, frame);
  std::printf("B exported memory: new pictures %.0f/s, renders skipped %.0f/s\n", pictures / measured,
              skipped / measured);
}

/// C with `gl`, E without: the step, and the draw of a texture nobody writes, no interop.
void run_shared(Lattice& lattice, bool gl, double seconds, double step_ms) {
  const ls::render::GlTexture texture = ls::render::make_rgba8_texture(kAtlas, kAtlas);
  const ls::cuda::Event steps[2] = {ls::cuda::Event(ls::cuda::Event::Create{}, false),
                                    ls::cuda::Event(ls::cuda::Event::Create{}, false)};
  const char* mode = gl ? "C step + GL draw, no interop:" : "E step only:";
  run_frames(mode, lattice, seconds, step_ms, gl, [&](long i, bool) {
    CUDA_CHECK(cudaEventSynchronize(steps[i % 2].get()));  // not yet recorded: returns at once
    lattice.step();
    steps[i % 2].record(lattice.stream);
    if (gl) draw(texture.get());
  });
}

constexpr const char* kUsage =
    "usage: ls_handoff_probe [--device N] [--seconds S]\n"
    "The CUDA-GL handoff's cost per frame against GL and CUDA merely sharing one GPU (needs EGL).\n"
    "  --device N   the CUDA device, and the EGL device that is it (default 0)\n"
    "  --seconds S  seconds measured per mode, after 0.5 s of warm-up (default 2)\n"
    "  --help       this text\n";

int run(int device, double seconds) {
  CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const ls::render::HeadlessContext egl(device);
  std::printf("%s; %s; GL %s\n", prop.name, egl.description().c_str(), ls::render::gl_description().c_str());
  const ls::cuda::Stream stream(ls::cuda::Stream::Create{});
  // A few blocks per SM keep enough loads in flight to saturate DRAM.
  Lattice lattice{stream.get(), prop.multiProcessorCount * 8};
  CUDA_CHECK(cudaMemsetAsync(lattice.front.get(), 0, kCells, stream.get()));  // a third alive: two colours
  CUDA_CHECK(cudaMemsetAsync(lattice.front.get(), 1, kCells / 3, stream.get()));
  const double step_ms = step_alone_ms(lattice);
  std::printf("step alone: %.3f ms (%dx%d bytes read and written as uint4)\n", step_ms, kSide, kSide);

  // The draw's state, which nothing else here changes: the app's tile shaders, the offscreen target.
  const ls::render::GlProgram program =
      ls::render::load_program(ls::render::find_data_dir("shaders"), "tile.vert", "tile.frag");
  const ls::render::OffscreenTarget target(kTargetWidth, kTargetHeight);
  GLuint vao = 0;
  glCreateVertexArrays(1, &vao);
  const ls::render::GlVertexArray vao_owner(vao);
  const GLuint p = program.get();  // u_offset and the sampler's unit stay 0
  glProgramUniform4f(p, glGetUniformLocation(p, "u_rect"), -1.0f, 1.0f - 2.0f * kAtlas / kTargetHeight,
                     -1.0f + 2.0f * kAtlas / kTargetWidth, 1.0f);
  glProgramUniform2i(p, glGetUniformLocation(p, "u_origin"), 0, kTargetHeight - 1);
  target.bind();
  glViewport(0, 0, kTargetWidth, kTargetHeight);
  glUseProgram(p);
  glBindVertexArray(vao);
  ls::render::check_gl("setting up the draw");

  run_mapped(lattice, seconds, step_ms);
  if (GLAD_GL_EXT_memory_object && GLAD_GL_EXT_memory_object_fd)
    run_exported(lattice, device, seconds, step_ms);
  else
    std::printf("B exported memory: not measured: this GL has no GL_EXT_memory_object_fd\n");
  run_shared(lattice, true, seconds, step_ms);
  run_shared(lattice, false, seconds, step_ms);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return ls::exit_status_of("ls_handoff_probe", [&] {
    double device = 0, seconds = 2;
    for (int i = 1; i < argc; ++i) {
      const std::string option = argv[i];
      if (option == "--help") return std::fputs(kUsage, stdout) < 0 ? 1 : 0;
      char* end = nullptr;
      const double value = i + 1 < argc ? std::strtod(argv[++i], &end) : 0;
      if ((option != "--device" && option != "--seconds") || !end || end == argv[i] || *end)
        throw ls::InputError("unknown option or bad value: " + option + " (--help lists the options)");
      (option == "--device" ? device : seconds) = value;
    }
    if (!(device >= 0 && device <= 1024 && device == static_cast<int>(device) && seconds > 0 &&
          seconds <= 3600))
      throw ls::InputError("--device wants a device number from 0, --seconds a time in (0, 3600]");
    return run(static_cast<int>(device), seconds);
  });
}
