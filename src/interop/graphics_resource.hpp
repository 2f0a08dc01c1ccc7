// graphics_resource.hpp — move-only owners of the CUDA–GL interop handles: GraphicsResource (a GL
// texture registered with CUDA) and Surface (a surface object over a mapped texture's array).
//
// Like src/sim/cuda_handles.hpp: each type owns exactly one handle, creates it in its constructor
// (throwing ls::DeviceError through CUDA_CHECK on failure) and releases it in a non-throwing
// destructor. A moved-from object is empty.
#pragma once

// GLAD before cuda_gl_interop.h, which would otherwise bring in the system's GL header.
#include "render/gl.hpp"
// clang-format off
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>
// clang-format on

#include <utility>

#include "kernels/cuda_check.hpp"

namespace ls::interop {

/// A GL texture registered with CUDA for surface loads and stores; unregistered in the destructor
/// (while the texture still exists: its owner destroys this first). Mapped write-discard unless
/// the kernel reads the last frame (age shading).
class GraphicsResource {
 public:
  GraphicsResource() = default;
  /// Registers `texture` (a GL_TEXTURE_2D of the current GL context), mapped write-discard.
  explicit GraphicsResource(GLuint texture) {
    CUDA_CHECK(cudaGraphicsGLRegisterImage(&resource_, texture, GL_TEXTURE_2D,
                                           cudaGraphicsRegisterFlagsSurfaceLoadStore));
    try {
      CUDA_CHECK(cudaGraphicsResourceSetMapFlags(resource_, cudaGraphicsMapFlagsWriteDiscard));
    } catch (...) {
      reset();
      throw;
    }
  }
  GraphicsResource(GraphicsResource&& other) noexcept
      : resource_(std::exchange(other.resource_, nullptr)),
        write_discard_(std::exchange(other.write_discard_, true)) {}
  GraphicsResource& operator=(GraphicsResource&& other) noexcept {
    if (this != &other) {
      reset();
      resource_ = std::exchange(other.resource_, nullptr);
      write_discard_ = std::exchange(other.write_discard_, true);
    }
    return *this;
  }
  GraphicsResource(const GraphicsResource&) = delete;
  GraphicsResource& operator=(const GraphicsResource&) = delete;
  ~GraphicsResource() { reset(); }

  cudaGraphicsResource_t get() const { return resource_; }
  explicit operator bool() const { return resource_ != nullptr; }
  /// Only while unmapped. Returns whether the flag changed.
  bool set_write_discard(bool discard) {
    if (discard == write_discard_) return false;
    CUDA_CHECK(cudaGraphicsResourceSetMapFlags(
        resource_, discard ? cudaGraphicsMapFlagsWriteDiscard : cudaGraphicsMapFlagsNone));
    write_discard_ = discard;
    return true;
  }

 private:
  void reset() noexcept {
    if (resource_) cudaGraphicsUnregisterResource(resource_);
    resource_ = nullptr;
    write_discard_ = true;
  }
  cudaGraphicsResource_t resource_ = nullptr;
  bool write_discard_ = true;
};

/// A surface object over a mapped array. The array of a registered texture stays the same while
/// the registration lives, so the surface is made on first use and kept; a different array makes
/// it again.
class Surface {
 public:
  Surface() = default;
  Surface(Surface&& other) noexcept
      : surface_(std::exchange(other.surface_, 0)), array_(std::exchange(other.array_, nullptr)) {}
  Surface& operator=(Surface&& other) noexcept {
    if (this != &other) {
      reset();
      surface_ = std::exchange(other.surface_, 0);
      array_ = std::exchange(other.array_, nullptr);
    }
    return *this;
  }
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;
  ~Surface() { reset(); }

  /// The surface over `array` (a mapped resource's array).
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

}  // namespace ls::interop
