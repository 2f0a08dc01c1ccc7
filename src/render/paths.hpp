// paths.hpp — where the app's run-time data (shaders/, assets/) lives, wherever it is started from.
#pragma once

#include <string>

namespace ls::render {

/// The directory holding `name` (e.g. "shaders" or "assets/patterns"). Searched in order:
/// $LIFESTREAMS_DATA_DIR, the working directory, the executable's directory and its parents (up
/// to three levels: build/, .dev-x/bin/), and the source tree this binary was built from.
/// Throws DeviceError naming every place it looked when none has it.
std::string find_data_dir(const std::string& name);

/// The directory of the running executable ("" if unknown).
std::string executable_dir();

}  // namespace ls::render
