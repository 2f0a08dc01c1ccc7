// app_settings.cpp — implements app_settings.hpp.
#include "app/app_settings.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace ls::app {
namespace {

/// A remembered width beyond this is no width a person dragged (the panel clamps to the display).
constexpr float kMaxPanelWidth = 100000.f;
/// Larger files are no settings file of ours: not read.
constexpr std::uintmax_t kMaxSettingsBytes = 64 * 1024;

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return {};
  const auto b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

}  // namespace

std::string config_dir() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/lifestreams";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.config/lifestreams";
  return {};
}

AppSettings load_settings(const std::string& path) {
  AppSettings settings;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) ||
      std::filesystem::file_size(path, ec) > kMaxSettingsBytes || ec)
    return settings;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = trim(line.substr(0, eq));
    const std::string value = trim(line.substr(eq + 1));
    if (key == "panel_width") {
      char* end = nullptr;
      const float w = std::strtof(value.c_str(), &end);
      if (end && end != value.c_str() && *end == '\0' && std::isfinite(w) && w > 0 && w <= kMaxPanelWidth)
        settings.panel_width = w;
    }
  }
  return settings;
}

bool save_settings(const std::string& path, const AppSettings& settings) {
  std::error_code ec;
  const std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  const std::string temp = path + ".tmp";
  {
    std::ofstream f(temp, std::ios::trunc);
    if (!f) return false;
    f << "# lifestreams: what the app remembers across runs\n";
    if (settings.panel_width > 0) f << "panel_width = " << std::lround(settings.panel_width) << "\n";
    if (!f.flush()) return false;
  }
  std::filesystem::rename(temp, target, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    return false;
  }
  return true;
}

}  // namespace ls::app
