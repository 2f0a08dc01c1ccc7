// numbered_path.cpp — implements numbered_path.hpp.
#include "control/numbered_path.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "core/error.hpp"

namespace ls::app {

std::string next_numbered_path(const std::string& dir, const std::string& stem, const std::string& ext) {
  namespace fs = std::filesystem;
  for (int n = 1; n < 1000000; ++n) {
    char name[64];
    std::snprintf(name, sizeof name, "-%04d", n);
    const fs::path p = fs::path(dir.empty() ? "." : dir) / (stem + name + ext);
    std::error_code ec;
    if (!fs::exists(p, ec) && !ec) return dir.empty() ? (stem + name + ext) : p.string();
  }
  throw InputError("no free numbered file name for " + stem + ext);
}

}  // namespace ls::app
