// test_nvtx_ranges.cpp — lifestreams names its work for Nsight Systems: run under the recording
// NVTX tool (loaded through NVTX_INJECTION64_PATH, as nsys loads its own), `lifestreams run` marks
// each step and the app marks each frame and its phases, in the "lifestreams" domain, by
// registered strings. CPU backend: no device needed.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "nvtx_record.hpp"

namespace ls::test {
namespace {

/// A scratch directory, removed at the end.
class Scratch {
 public:
  Scratch() {
    std::string templ = (std::filesystem::temp_directory_path() / "lifestreams-nvtx-XXXXXX").string();
    if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

#if defined(__SANITIZE_ADDRESS__)
// The programs started here run without the leak check: their GL drivers' allocations cannot be
// attributed (as in tests/support/app_test_util.hpp).
constexpr const char* kChildEnv =
    "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\"; "
    "export LSAN_OPTIONS=\"${LSAN_OPTIONS:+$LSAN_OPTIONS:}fast_unwind_on_malloc=1\"; ";
#else
constexpr const char* kChildEnv = "";
#endif

/// $name when set and not empty (a bundle carried to another machine: $LS_APP, $LS_NVTX_RECORDER),
/// else the build's own path.
std::string env_or(const char* name, const char* built) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : built;
}

/// Runs lifestreams with `args` under the recording tool; returns its exit status and fills `lines`.
int run_recorded(const Scratch& dir, const std::string& prefix, const std::string& args,
                 std::vector<RecordLine>& lines) {
  const std::string record = dir.file("nvtx.tsv");
  const std::string command = std::string(kChildEnv) + "cd '" + dir.file("") + "' && " + prefix +
                              " NVTX_INJECTION64_PATH='" + env_or("LS_NVTX_RECORDER", LS_NVTX_RECORDER) +
                              "' LS_NVTX_RECORD='" + record + "' '" + env_or("LS_APP", LS_APP_BINARY) + "' " +
                              args + " >out.txt 2>&1";
  const int rc = std::system(command.c_str());
  lines = read_record(record);
  return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::size_t count_named(const std::vector<RecordedRange>& ranges, const std::string& name) {
  std::size_t n = 0;
  for (const RecordedRange& r : ranges) n += r.name == name ? 1 : 0;
  return n;
}

TEST(NvtxRanges, RunMarksEachStepInTheLifestreamsDomain) {
  Scratch dir;
  std::vector<RecordLine> lines;
  // 12 generations printed every 4: three steps of 4.
  ASSERT_EQ(
      run_recorded(dir, "env", "run --backend cpu --width 64 --height 64 --generations 12 --every 4", lines),
      0);
  ASSERT_FALSE(lines.empty()) << "the tool was not loaded";
  EXPECT_EQ(lines.front(), RecordLine{"attached"});
  EXPECT_EQ(lines[1], (RecordLine{"domain", "lifestreams"}));
  bool balanced = false;
  const std::vector<RecordedRange> ranges = lifestreams_ranges(lines, balanced);
  EXPECT_TRUE(balanced);
  ASSERT_EQ(ranges.size(), 3u);
  for (const RecordedRange& r : ranges) {
    EXPECT_EQ(r.name, "run step");
    EXPECT_TRUE(r.registered);
  }
}

TEST(NvtxRanges, WithoutAToolRunStillSucceeds) {
  Scratch dir;
  std::vector<RecordLine> lines;
  // The tool attaches nothing when it has nowhere to record: NVTX calls are then no-ops.
  ASSERT_EQ(run_recorded(dir, "env LS_NVTX_RECORD=",
                         "run --backend cpu --width 64 --height 64 --generations 3", lines),
            0);
}

#if defined(LS_HAVE_GUI)
TEST(NvtxRanges, HeadlessAppMarksEachFrameAndItsPhases) {
  Scratch dir;
  std::vector<RecordLine> lines;
  constexpr int kFrames = 6;
  ASSERT_EQ(
      run_recorded(dir, "env -u DISPLAY -u WAYLAND_DISPLAY",
                   "--headless --backend cpu --size 640x360 --width 64 --height 64 --instances 2 --frames " +
                       std::to_string(kFrames),
                   lines),
      0);
  bool balanced = false;
  const std::vector<RecordedRange> ranges = lifestreams_ranges(lines, balanced);
  EXPECT_TRUE(balanced);
  ASSERT_EQ(ranges.size(), static_cast<std::size_t>(kFrames));
  for (const RecordedRange& frame : ranges) {
    EXPECT_EQ(frame.name, "frame");
    EXPECT_TRUE(frame.registered);
    // Every frame waits, steps, displays, composites and presents once, in that order.
    for (const char* phase : {"wait", "step enqueue", "display", "composite", "present"})
      EXPECT_EQ(count_named(frame.inside, phase), 1u) << phase;
    for (const RecordedRange& phase : frame.inside) EXPECT_TRUE(phase.registered) << phase.name;
  }
  // The UI is rebuilt on the first frame (and the last, which a screenshot would keep).
  const RecordedRange& first = ranges.front();
  std::vector<std::string> order;
  for (const RecordedRange& phase : first.inside) order.push_back(phase.name);
  EXPECT_EQ(order, (std::vector<std::string>{"wait", "input", "panel", "step enqueue", "labels", "display",
                                             "composite", "present"}));
}
#endif

}  // namespace
}  // namespace ls::test
