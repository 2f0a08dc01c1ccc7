// test_nvtx_streams.cpp — the CUDA engine names each instance's stream "#i variant WxH" for a
// profiler, and names it again when its variant or size changes or a remove renumbers it. The
// recording NVTX tool is attached before the first NVTX call (main sets NVTX_INJECTION64_PATH).
// Skips without a CUDA device.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "nvtx_record.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::test {
namespace {

std::string g_record;  // the tool's file, set by main before any NVTX call

std::string handle(cudaStream_t s) {
  char text[32];
  std::snprintf(text, sizeof text, "%" PRIxPTR, reinterpret_cast<std::uintptr_t>(s));
  return text;
}

InstanceSpec spec(int w, int h, Variant v) {
  InstanceSpec s;
  s.width = w;
  s.height = h;
  s.variant = v;
  return s;
}

TEST(NvtxStreams, EachInstanceStreamIsNamedByIndexVariantAndSizeAndRenamedOnChanges) {
  std::string why;
  if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no CUDA device: " << why;
  sim::CudaEngine engine(0);
  engine.add(spec(64, 64, Variant::global));
  engine.add(spec(128, 64, Variant::shared));
  engine.add(spec(64, 128, Variant::bitpacked));
  const cudaStream_t a = engine.device_view(0).stream, b = engine.device_view(1).stream,
                     c = engine.device_view(2).stream;
  auto names = stream_names(read_record(g_record));
  ASSERT_FALSE(names.empty()) << "the tool was not loaded";
  EXPECT_EQ(names[handle(a)], "#0 global 64x64");
  EXPECT_EQ(names[handle(b)], "#1 shared 128x64");
  EXPECT_EQ(names[handle(c)], "#2 bitpacked 64x128");

  engine.set_variant(1, Variant::iterate);
  names = stream_names(read_record(g_record));
  EXPECT_EQ(names[handle(b)], "#1 iterate 128x64");

  // The remove renumbers the later instances: their streams' names follow.
  engine.remove(0);
  names = stream_names(read_record(g_record));
  EXPECT_EQ(names[handle(engine.device_view(0).stream)], "#0 iterate 128x64");
  EXPECT_EQ(names[handle(engine.device_view(1).stream)], "#1 bitpacked 64x128");

  engine.replace(1, spec(256, 96, Variant::bitpacked));
  names = stream_names(read_record(g_record));
  EXPECT_EQ(names[handle(engine.device_view(1).stream)], "#1 bitpacked 256x96");
}

}  // namespace
}  // namespace ls::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // NVTX looks for its tool once, at the process's first NVTX call: the environment is set first.
  std::string templ = (std::filesystem::temp_directory_path() / "lifestreams-nvtx-XXXXXX").string();
  const int fd = mkstemp(templ.data());
  if (fd < 0) return 2;
  close(fd);
  ls::test::g_record = templ;
  // $LS_NVTX_RECORDER: the tool elsewhere (a bundle carried to another machine).
  const char* recorder = std::getenv("LS_NVTX_RECORDER");
  setenv("NVTX_INJECTION64_PATH", recorder != nullptr && *recorder != '\0' ? recorder : LS_NVTX_RECORDER, 1);
  setenv("LS_NVTX_RECORD", templ.c_str(), 1);
  const int status = RUN_ALL_TESTS();
  std::filesystem::remove(templ);
  return status;
}
