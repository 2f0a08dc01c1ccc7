// text_file.hpp — reading a text file a person gives (pattern, script) with one-line errors.
#pragma once

#include <cstdint>
#include <string>

namespace ls {

/// The whole text of `path`, refused with InputError "PATH: why" (one line) when it is missing,
/// unreadable, a directory or other non-regular file (a FIFO or /dev/zero could block or never
/// end), larger than `max_bytes`, empty, or binary (a NUL byte). `noun` names what the file should
/// be ("pattern", "script") and `looks_like` what its text is ("RLE or .cells text").
std::string read_text_file(const std::string& path, const std::string& noun, const std::string& looks_like,
                           std::uintmax_t max_bytes);

}  // namespace ls
