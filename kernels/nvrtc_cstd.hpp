// nvrtc_cstd.hpp — what the NVRTC program of rule_kernels.cpp sees as <cstdint> and <cstddef>:
// NVRTC brings no C++ library (it knows size_t and the CUDA vector types), and the device headers
// it compiles use only these few names from them. Embedded under both names.
#ifndef LS_KERNELS_NVRTC_CSTD_HPP
#define LS_KERNELS_NVRTC_CSTD_HPP

namespace std {
using int8_t = signed char;
using uint8_t = unsigned char;
using int16_t = short;
using uint16_t = unsigned short;
using int32_t = int;
using uint32_t = unsigned int;
using int64_t = long long;
using uint64_t = unsigned long long;
using size_t = ::size_t;
using ptrdiff_t = decltype(static_cast<char*>(nullptr) - static_cast<char*>(nullptr));
}  // namespace std

static_assert(sizeof(std::uint64_t) == 8 && sizeof(std::size_t) == 8, "a 64-bit NVRTC target");

#endif
