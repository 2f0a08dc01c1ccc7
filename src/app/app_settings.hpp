// app_settings.hpp — what the desktop app remembers across runs (the panel's width), in a small
// text file in the user's config directory beside ImGui's imgui.ini. A missing or bad file, or a
// bad line in it, gives the defaults: the file never stops the app.
#pragma once

#include <string>

namespace ls::app {

/// $XDG_CONFIG_HOME/lifestreams, else $HOME/.config/lifestreams; "" when neither is set.
std::string config_dir();

/// The settings file's name in config_dir().
inline constexpr const char* kSettingsFileName = "settings.ini";

struct AppSettings {
  float panel_width = 0;  // ImGui pixels; 0: the panel's default (ui::Panel::set_width)
  friend bool operator==(const AppSettings&, const AppSettings&) = default;
};

/// The settings in `path`: lines `key = value`; unknown keys, bad values and a missing or
/// unreadable file are ignored (those settings keep their defaults).
AppSettings load_settings(const std::string& path);

/// Writes `settings` to `path` (a temporary file renamed over it, so a crash leaves the old file
/// whole), creating its directory. False when it could not (the app goes on without).
bool save_settings(const std::string& path, const AppSettings& settings);

}  // namespace ls::app
