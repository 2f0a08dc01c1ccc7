// numbered_path.hpp — file names that never overwrite (`save` without a name, screenshots): plain
// C++, shared by the command executor and the screen.
#pragma once

#include <string>

namespace ls::app {

/// `stem-0001.ext`, `stem-0002.ext`, ...: the first name in `dir` that does not exist yet.
std::string next_numbered_path(const std::string& dir, const std::string& stem, const std::string& ext);

}  // namespace ls::app
