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

#include "core/unique_handle.hpp"
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
    CUDA_CHECK(cudaGraphicsGLRegisterImage(resource_.out(), texture, GL_TEXTURE_2D,
                                           cudaGraphicsRegisterFlagsSurfaceLoadStore));
    CUDA_CHECK(cudaGraphicsResourceSetMapFlags(get(), cudaGraphicsMapFlagsWriteDiscard));
  }

  cudaGraphicsResource_t get() const { return resource_.get(); }
  explicit operator bool() const { return static_cast<bool>(resource_); }
  /// Only while unmapped. Returns whether the flag changed.
  bool set_write_discard(bool discard) {
    if (discard == write_discard_) return false;
    CUDA_CHECK(cudaGraphicsResourceSetMapFlags(
        get(), discard ? cudaGraphicsMapFlagsWriteDiscard : cudaGraphicsMapFlagsNone));
    write_discard_ = discard;
    return true;
  }

 private:
  struct Traits {
    static void destroy(cudaGraphicsResource_t resource) { cudaGraphicsUnregisterResource(resource); }
  };
  // A constructor that throws after registering unregisters: the member is built by then.
  UniqueHandle<cudaGraphicsResource_t, Traits> resource_;
  bool write_discard_ = true;
};

/// A surface object over a mapped array. The array of a registered texture stays the same while
/// the registration lives, so the surface is made on first use and kept; a different array makes
/// it again.
class Surface {
 public:
  /// The surface over `array` (a mapped resource's array).
  cudaSurfaceObject_t get(cudaArray_t array) {
    if (array != array_ || !surface_) {
      array_ = nullptr;
      cudaResourceDesc desc{};
      desc.resType = cudaResourceTypeArray;
      desc.res.array.array = array;
      CUDA_CHECK(cudaCreateSurfaceObject(surface_.out(), &desc));
      array_ = array;
    }
    return surface_.get();
  }

 private:
  struct Traits {
    static void destroy(cudaSurfaceObject_t surface) { cudaDestroySurfaceObject(surface); }
  };
  UniqueHandle<cudaSurfaceObject_t, Traits> surface_;
  cudaArray_t array_ = nullptr;
};

}  // namespace ls::interop
