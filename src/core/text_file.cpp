// text_file.cpp — see text_file.hpp.
#include "core/text_file.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>

#include "core/error.hpp"

namespace ls {
namespace {

// Output grows by this much per inflate call: small next to the size limit, large enough that the
// calls cost nothing next to the inflating.
constexpr std::size_t kInflateChunk = std::size_t{256} << 10;

std::string mib(std::uintmax_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// zlib's inflate state, ended however the inflating ends.
class Inflater {
 public:
  Inflater() {
    // 16 + MAX_WBITS: gzip's header and trailer (CRC-32 and length checked), not zlib's.
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) throw InputError("cannot inflate (out of memory)");
  }
  ~Inflater() { inflateEnd(&z_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& stream() { return z_; }

 private:
  z_stream z_{};
};

}  // namespace

bool is_gzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

std::string inflate_gzip(std::string_view data, std::uintmax_t max_bytes, const std::string& noun) {
  Inflater inflater;
  z_stream& z = inflater.stream();
  // zlib counts input in a uInt per call; files are far smaller (read_text_file's limit).
  if (data.size() > std::numeric_limits<uInt>::max())
    throw InputError("gzip data too large (" + std::to_string(data.size()) + " bytes)");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  // One byte of room past the limit tells "exactly the limit" from "more".
  const std::size_t room = static_cast<std::size_t>(std::min<std::uintmax_t>(max_bytes, SIZE_MAX - 1)) + 1;
  std::string text;
  for (;;) {
    const std::size_t before = text.size();
    text.resize(std::min(room, before + kInflateChunk));
    z.next_out = reinterpret_cast<Bytef*>(text.data() + before);
    z.avail_out = static_cast<uInt>(text.size() - before);
    const int rc = inflate(&z, Z_NO_FLUSH);
    text.resize(text.size() - z.avail_out);
    if (text.size() > max_bytes)
      throw InputError("gzip data inflates to more than " + mib(max_bytes) + ", too large for a " + noun);
    if (rc == Z_STREAM_END) {
      if (z.avail_in == 0) return text;
      // Another member follows (gzip's format allows several in a row); anything else is damage.
      if (!is_gzip(std::string_view(reinterpret_cast<const char*>(z.next_in), z.avail_in)))
        throw InputError("corrupt gzip data (" + std::to_string(z.avail_in) +
                         " bytes after the end of the compressed data)");
      inflateReset(&z);
      continue;
    }
    if (rc == Z_OK) continue;
    // Z_BUF_ERROR: no progress though there was room for output, so the input ran out mid-stream.
    if (rc == Z_BUF_ERROR) throw InputError("truncated gzip data (it ends before the compressed data does)");
    if (rc == Z_MEM_ERROR) throw InputError("cannot inflate (out of memory)");
    throw InputError("corrupt gzip data (" +
                     (z.msg ? std::string(z.msg) : "zlib error " + std::to_string(rc)) + ")");
  }
}

bool ends_with_icase(std::string_view name, std::string_view suffix) {
  if (name.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[name.size() - suffix.size() + i])) != suffix[i])
      return false;
  }
  return true;
}

std::string read_text_file(const std::string& path, const std::string& noun, const std::string& looks_like,
                           std::uintmax_t max_bytes, Gzip gzip) {
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
                     " bytes; at most " + mib(max_bytes) + ")");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read (" + std::strerror(errno) + ")");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw InputError(path + ": cannot read (" + std::strerror(errno) + ")");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.empty()) throw InputError(path + ": empty file, not a " + noun);
  if (gzip == Gzip::inflate) {
    if (is_gzip(text)) {
      try {
        text = inflate_gzip(text, max_bytes, noun);
      } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
      }
      if (text.empty()) throw InputError(path + ": gzip data of an empty file, not a " + noun);
    } else if (ends_with_icase(path, ".gz")) {
      throw InputError(path + ": not gzip data (a .gz file starts with the bytes 1f 8b)");
    }
  }
  if (text.find('\0') != std::string::npos)
    throw InputError(path + ": binary file, not a " + noun + " (" + looks_like + ")");
  return text;
}

}  // namespace ls
