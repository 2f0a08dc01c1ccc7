// image.hpp — screenshots: reads back the framebuffer and writes PNG (stb_image_write).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ls::render {

/// RGBA8 pixels, row 0 at the top.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;
};

/// Reads the bound read framebuffer's (0, 0, width, height) and flips it so row 0 is the top.
Image read_framebuffer(int width, int height);

/// Writes `image` as PNG (RGB, opaque) to `path`, replacing a file already there. Throws
/// InputError naming the path when it cannot be written.
void write_png(const std::string& path, const Image& image);

}  // namespace ls::render
