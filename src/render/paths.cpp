// paths.cpp — finds shaders/ and assets/ from $LIFESTREAMS_DATA_DIR, the installed layout around the
// executable, and the source tree of a program run from its build tree.
#include "render/paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "core/error.hpp"

namespace ls::render {

namespace fs = std::filesystem;

namespace {

// Whether `path` is `dir` or lies below it (both made canonical, so a symlinked build tree counts).
bool lies_within(const fs::path& path, const fs::path& dir) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(path, ec);
  if (ec) return false;
  const fs::path d = fs::weakly_canonical(dir, ec);
  if (ec || d.empty()) return false;
  const fs::path rel = p.lexically_relative(d);
  return !rel.empty() && *rel.begin() != "..";
}

// Where to look, in order: the environment, the installed layout, then (for a program in its build
// tree only) the source tree it was built from. The working directory is not a root: a program run
// from a stranger's folder must not pick up that folder's shaders/.
std::vector<fs::path> data_roots() {
  std::vector<fs::path> roots;
  if (const char* env = std::getenv("LIFESTREAMS_DATA_DIR"); env && *env) roots.emplace_back(env);
  const std::string exe = executable_dir();
  if (!exe.empty()) roots.push_back(fs::path(exe).parent_path() / "share" / "lifestreams");
#if defined(LS_SOURCE_DIR) && defined(LS_BINARY_DIR)
  if (!exe.empty() && lies_within(exe, LS_BINARY_DIR)) roots.emplace_back(LS_SOURCE_DIR);
#endif
  return roots;
}

}  // namespace

std::string executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe.parent_path().string();
}

std::string find_data_dir(const std::string& name) {
  std::string looked;
  std::error_code ec;
  for (const fs::path& root : data_roots()) {
    const fs::path candidate = root / name;
    if (fs::is_directory(candidate, ec)) return candidate.string();
    looked += (looked.empty() ? "" : ", ") + candidate.string();
  }
  throw DeviceError("cannot find the app's '" + name + "' folder (looked in " +
                    (looked.empty() ? std::string("no place") : looked) +
                    "); set LIFESTREAMS_DATA_DIR to the folder holding shaders/ and assets/ (the source "
                    "tree, or an install's share/lifestreams)");
}

}  // namespace ls::render
