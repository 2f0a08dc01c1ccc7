// shader.hpp — GLSL programs loaded from the shaders/ folder at run time.
#pragma once

#include <string>

#include "render/gl.hpp"

namespace ls::render {

/// Compiles `dir/vertex_file` and `dir/fragment_file` and links them. Compile and link logs are
/// always written to stderr when the driver gives one; a failure throws DeviceError with the file
/// name and the log.
GlProgram load_program(const std::string& dir, const std::string& vertex_file,
                       const std::string& fragment_file);

}  // namespace ls::render
