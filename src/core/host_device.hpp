// host_device.hpp — LS_HOST_DEVICE marks a header function that both the host and, compiled by
// nvcc, the device run (the hash and fill formulas, the summary walk, the pixel arithmetic), so
// that the CPU and CUDA code share one definition.
#pragma once

#if defined(__CUDACC__)
#define LS_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define LS_HOST_DEVICE inline
#endif
