// image.cpp — framebuffer read-back and PNG writing.
#include "render/image.hpp"

#include <stb_image_write.h>

#include <algorithm>
#include <filesystem>

#include "core/error.hpp"
#include "render/gl.hpp"

namespace ls::render {

Image read_framebuffer(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  std::vector<std::uint8_t> raw(static_cast<std::size_t>(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, raw.data());
  check_gl("reading back the frame");
  image.rgba.resize(raw.size());
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  for (int y = 0; y < height; ++y)
    std::copy_n(raw.data() + static_cast<std::size_t>(height - 1 - y) * row, row,
                image.rgba.data() + static_cast<std::size_t>(y) * row);
  return image;
}

void write_png(const std::string& path, const Image& image) {
  // Opaque RGB: what a person sees has no transparency.
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(image.width) * image.height * 3);
  for (std::size_t i = 0, n = static_cast<std::size_t>(image.width) * image.height; i < n; ++i) {
    rgb[3 * i] = image.rgba[4 * i];
    rgb[3 * i + 1] = image.rgba[4 * i + 1];
    rgb[3 * i + 2] = image.rgba[4 * i + 2];
  }
  if (std::filesystem::is_directory(path)) throw InputError("screenshot " + path + ": is a directory");
  if (stbi_write_png(path.c_str(), image.width, image.height, 3, rgb.data(), image.width * 3) == 0)
    throw InputError("screenshot " + path + ": cannot write the PNG file");
}

}  // namespace ls::render
