// test_cuda_device.cpp — facts about finding CUDA devices. Runs only where no device is usable (as
// on a build machine without a GPU): the reason given names what is missing, not a driver version.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>

#include "core/error.hpp"
#include "sim/cuda_engine.hpp"

namespace ls {
namespace {

// `--backend cuda` on a machine without a GPU names what is missing (no driver, no device), not an
// insufficient driver version.
TEST(CudaDevice, WithoutADeviceTheReasonNamesTheMissingDriverOrDevice) {
  std::string why;
  if (cuda_device_count(&why) > 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(cuda_device_count(), 0);  // the reason is optional
  int driver = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  if (driver == 0) {
    EXPECT_EQ(why.rfind("no NVIDIA driver is loaded, cudaGetDeviceCount answers cudaError", 0), 0u) << why;
    EXPECT_EQ(why.find("version"), std::string::npos)
        << "a driver version blamed where there is no driver: " << why;
  } else {
    EXPECT_TRUE(why.find("no CUDA device found") != std::string::npos ||
                why.find("older than this build's CUDA") != std::string::npos ||
                why.find("cannot use a device") != std::string::npos)
        << why;
  }
  EXPECT_EQ(why.find("insufficient"), std::string::npos) << why;
  // The engine refuses to start with the same reason.
  try {
    sim::CudaEngine engine;
    ADD_FAILURE() << "the CUDA engine started without a device";
  } catch (const DeviceError& e) {
    EXPECT_EQ(std::string(e.what()), "the CUDA engine cannot start: " + why);
  }
}

}  // namespace
}  // namespace ls
