// text_file.cpp — see text_file.hpp.
#include "core/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "core/error.hpp"

namespace ls {

std::string read_text_file(const std::string& path, const std::string& noun, const std::string& looks_like,
                           std::uintmax_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    if (ec && ec != std::errc::no_such_file_or_directory)
      throw InputError(path + ": cannot read (" + ec.message() + ")");
    throw InputError(path + ": no such file");
  }
  if (fs::is_directory(status)) throw InputError(path + ": is a directory, not a " + noun + " file");
  if (!fs::is_regular_file(status)) throw InputError(path + ": not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw InputError(path + ": cannot read (" + ec.message() + ")");
  if (size > max_bytes)
    throw InputError(path + ": file too large for a " + noun + " (" + std::to_string(size) +
                     " bytes; at most " + std::to_string(max_bytes >> 20) + " MiB)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read (" + std::strerror(errno) + ")");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw InputError(path + ": cannot read (" + std::strerror(errno) + ")");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.empty()) throw InputError(path + ": empty file, not a " + noun);
  if (text.find('\0') != std::string::npos)
    throw InputError(path + ": binary file, not a " + noun + " (" + looks_like + ")");
  return text;
}

}  // namespace ls
