// paths.cpp — finds shaders/ and assets/ relative to the environment, the working directory, the
// executable and the source tree.
#include "render/paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "core/error.hpp"

namespace ls::render {

namespace fs = std::filesystem;

std::string executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe.parent_path().string();
}

std::string find_data_dir(const std::string& name) {
  std::vector<fs::path> roots;
  if (const char* env = std::getenv("LIFESTREAMS_DATA_DIR"); env && *env) roots.emplace_back(env);
  std::error_code ec;
  roots.push_back(fs::current_path(ec));
  if (const std::string exe = executable_dir(); !exe.empty()) {
    fs::path p = exe;
    for (int up = 0; up < 4 && !p.empty(); ++up) {
      roots.push_back(p);
      p = p.parent_path();
    }
  }
#if defined(LS_SOURCE_DIR)
  roots.emplace_back(LS_SOURCE_DIR);
#endif
  std::string looked;
  for (const fs::path& root : roots) {
    const fs::path candidate = root / name;
    if (fs::is_directory(candidate, ec)) return candidate.string();
    looked += (looked.empty() ? "" : ", ") + candidate.string();
  }
  throw DeviceError("cannot find the app's '" + name + "' folder (looked in " + looked +
                    "); set LIFESTREAMS_DATA_DIR to the source tree");
}

}  // namespace ls::render
