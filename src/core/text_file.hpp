// text_file.hpp — reading a text file a person gives (pattern, script) with one-line errors, and
// gzip-compressed text (Golly's .rle.gz, .cells.gz) where the caller accepts it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ls {

/// What read_text_file does with gzip data (a file that starts with gzip's magic bytes 1f 8b).
enum class Gzip {
  refuse,   // binary: refused like any other binary file
  inflate,  // inflated, and the inflated text is checked as a plain file's would be
};

/// The whole text of `path`, refused with InputError "PATH: why" (one line) when it is missing,
/// unreadable, a directory or other non-regular file (a FIFO or /dev/zero could block or never
/// end), larger than `max_bytes`, empty, or binary (a NUL byte). `noun` names what the file should
/// be ("pattern", "script") and `looks_like` what its text is ("RLE or .cells text").
/// With Gzip::inflate, gzip data is inflated first (several members too, as `cat a.gz b.gz` makes)
/// and also refused when it is corrupt or truncated, or would inflate to more than `max_bytes`
/// (found while inflating: a small file that inflates to gigabytes never takes the memory); a name
/// ending in ".gz" whose bytes are not gzip data is refused as well.
std::string read_text_file(const std::string& path, const std::string& noun, const std::string& looks_like,
                           std::uintmax_t max_bytes, Gzip gzip = Gzip::refuse);

/// Whether `data` starts with gzip's magic bytes (1f 8b).
bool is_gzip(std::string_view data);

/// The text inside gzip data (one member or several in a row). Throws InputError (no path; a
/// caller adds it) for corrupt or truncated data, bytes after the end that are not another member,
/// or text longer than `max_bytes`, which it finds while inflating: at most about `max_bytes` are
/// ever held. `noun` names what the text should be ("pattern").
std::string inflate_gzip(std::string_view data, std::uintmax_t max_bytes, const std::string& noun);

/// True if `name` ends with `suffix`, ignoring ASCII case (`suffix` in lower case): ".rle", ".gz".
bool ends_with_icase(std::string_view name, std::string_view suffix);

}  // namespace ls
