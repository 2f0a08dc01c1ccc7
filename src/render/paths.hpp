// paths.hpp — where the app's run-time data (shaders/, assets/) lives: set by the environment, beside an
// installed program, or in the source tree of a program run from its build tree.
#pragma once

#include <string>

namespace ls::render {

/// The directory holding `name` (e.g. "shaders" or "assets/patterns"). Searched in order:
/// $LIFESTREAMS_DATA_DIR; ../share/lifestreams from the executable's directory (an installed
/// program: P/bin/lifestreams finds P/share/lifestreams); the source tree this binary was built
/// from, for an executable inside the build tree that built it. Never the working directory.
/// Throws DeviceError naming every place it looked when none has it.
std::string find_data_dir(const std::string& name);

/// The directory of the running executable ("" if unknown).
std::string executable_dir();

}  // namespace ls::render
