// app_test_util.hpp — helpers for the app tests: a scratch directory, running the lifestreams
// binary through the shell, reading PNG screenshots.
#pragma once

#include <gtest/gtest.h>
#include <stb_image.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ls::test {

/// The lifestreams binary: $LS_APP, else the one built with these tests.
inline std::string app_binary() {
  if (const char* p = std::getenv("LS_APP"); p && *p) return p;
  return LS_APP_BINARY;
}

/// app_binary() in single quotes, for shell command lines.
inline std::string quoted_app() {
  std::string q(1, '\'');
  q += app_binary();
  q += '\'';
  return q;
}

/// The source tree (for assets/ and tests/app/): $LS_SOURCE_DIR, else the one built from.
inline std::string source_dir() {
  if (const char* p = std::getenv("LS_SOURCE_DIR"); p && *p) return p;
  return LS_SOURCE_DIR;
}

/// A fresh directory under the system's temp directory, removed at the end.
class ScratchDir {
 public:
  ScratchDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "lifestreams-app-XXXXXX").string();
    if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!std::getenv("LS_KEEP_TEST_DIRS")) std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(file(name)) << text; }
  std::string read(const std::string& name) const {
    std::ifstream f(file(name));
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
  }

 private:
  std::filesystem::path path_;
};

#if defined(__SANITIZE_ADDRESS__)
/// Under AddressSanitizer the programs these tests start run with ASan and UBSan but without the
/// leak check: their GL drivers (Mesa, loaded with dlopen and unloaded at exit) leave allocations
/// that LeakSanitizer cannot attribute to any library, so no suppression can name them. The tests'
/// own process keeps the leak check. They also take the fast unwind on malloc back (CI's
/// scripts/ci-extra.sh turns it off for the tests' own processes): the full unwind on every malloc
/// slowed the app under Xvfb past the window tests' time limits.
inline constexpr const char* kChildEnv =
    "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\"; "
    "export LSAN_OPTIONS=\"${LSAN_OPTIONS:+$LSAN_OPTIONS:}fast_unwind_on_malloc=1\"; ";
#else
inline constexpr const char* kChildEnv = "";
#endif

/// Runs `command` with /bin/sh in `dir`; stdout+stderr go to dir/out.txt. Returns the exit status
/// (or 128 + signal).
inline int shell(const ScratchDir& dir, const std::string& command) {
  const std::string full =
      std::string(kChildEnv) + "cd '" + dir.path().string() + "' && ( " + command + " ) >out.txt 2>&1";
  const int rc = std::system(full.c_str());
  if (rc == -1) return -1;
  if (WIFEXITED(rc)) return WEXITSTATUS(rc);
  if (WIFSIGNALED(rc)) return 128 + WTERMSIG(rc);
  return -1;
}

inline bool have_program(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

/// A shell command line that runs `command` under a fresh Xvfb that does not reset itself between
/// clients (tests/app/xvfb.sh). The display is searched from `display` upwards: tests that run in
/// parallel start at distinct numbers.
inline std::string under_xvfb(int display, const std::string& command) {
  return "sh '" + source_dir() + "/tests/app/xvfb.sh' " + std::to_string(display) + " " + command;
}

struct Png {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;
  bool ok() const { return width > 0; }
  /// 0xBBGGRR of pixel (x, y), the same packing as render::Palette without alpha.
  std::uint32_t at(int x, int y) const {
    const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 3;
    return rgb[i] | (rgb[i + 1] << 8) | (rgb[i + 2] << 16);
  }
};

inline Png load_png(const std::string& path) {
  Png png;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &png.width, &png.height, &channels, 3);
  if (!data) {
    png.width = png.height = 0;
    return png;
  }
  png.rgb.assign(data, data + static_cast<std::size_t>(png.width) * png.height * 3);
  stbi_image_free(data);
  return png;
}

/// What a run of the binary printed and how it ended.
struct Outcome {
  int status = -1;
  std::string out;
  std::string err;
};

/// Runs the binary with `args` in `dir` without a display, stdout and stderr kept apart.
inline Outcome run_app(const ScratchDir& dir, const std::string& args) {
  Outcome r;
  r.status = shell(
      dir, "env -u DISPLAY -u WAYLAND_DISPLAY " + quoted_app() + " " + args + " >stdout.txt 2>stderr.txt");
  r.out = dir.read("stdout.txt");
  r.err = dir.read("stderr.txt");
  return r;
}

inline long lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

/// A command line the program must refuse, and a fragment of the one line it must say.
struct Bad {
  const char* args;
  const char* message;
};

/// Runs `lifestreams b.args` and expects the refusal: status 2, nothing on stdout, one line on
/// stderr holding b.message and none of CLI11's own wording. The scratch directory holds bad.rle,
/// a pattern under an impossible rule, for arguments that load it.
inline void expect_refused(const Bad& b) {
  ScratchDir dir;
  dir.write("bad.rle", "x = 3, y = 1, rule = B9/S23\n3o!\n");
  const Outcome r = run_app(dir, b.args);
  EXPECT_EQ(r.status, 2) << b.args << "\n" << r.err;
  EXPECT_EQ(r.out, "") << b.args;
  EXPECT_EQ(lines(r.err), 1) << b.args << "\n" << r.err;
  EXPECT_NE(r.err.find(b.message), std::string::npos)
      << b.args << ": expected '" << b.message << "' in: " << r.err;
  EXPECT_EQ(r.err.find("CLI"), std::string::npos) << r.err;
}

}  // namespace ls::test
