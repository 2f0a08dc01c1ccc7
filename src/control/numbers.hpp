// cli_numbers.hpp — the command-line helpers shared by `lifestreams run`, `lifestreams bench` and
// the app: strict number parsing (no sign on unsigned values, no trailing text, range-checked) and
// CLI11 parsing that words every failure as one line of ours (exit status 2 in the callers).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace ls {

/// Largest --generations and --every of `lifestreams run`: 2^62.
inline constexpr long long kMaxRunGenerations = 1LL << 62;

/// The items of a comma-separated list (the benches' --variants, --sizes, ...). An empty item
/// (",," or a trailing comma) is refused: InputError "FLAG: empty item in list \"TEXT\"".
std::vector<std::string> split_list(std::string_view flag, std::string_view text);

/// `text` as it appears in a message: as written, or '' when empty.
std::string shown(std::string_view text);

/// A whole number from min to max written in decimal: a leading '-' only when min < 0, no '+',
/// no blanks, nothing after the digits. Otherwise InputError "FLAG TEXT: expected a whole number
/// MIN..MAX".
long long parse_whole(std::string_view flag, std::string_view text, long long min, long long max);

/// An unsigned 64-bit number written in decimal digits only (no sign). Otherwise InputError
/// "FLAG TEXT: expected an unsigned 64-bit number (0..18446744073709551615)".
std::uint64_t parse_unsigned64(std::string_view flag, std::string_view text);

/// A lattice size "W" (square) or "WxH", each side 32..kMaxLatticeSide and the lattice within
/// check_lattice_size; InputError naming `flag` otherwise (the benches' --sizes).
std::pair<int, int> parse_lattice_size(std::string_view flag, std::string_view text);

/// A finite decimal number from min to max (the whole text). Otherwise InputError "FLAG TEXT:
/// expected a value from MIN to MAX".
double parse_real(std::string_view flag, std::string_view text, double min, double max);

/// Parses argv with `app` (options taking text, and flags). Returns false when -h/--help was asked
/// (the caller prints app.help() and exits 0). Otherwise throws InputError, worded by us rather than
/// by CLI11, for: an unknown option ("unknown option --bogus; see --help"), a stray argument, an
/// option without its value ("--pattern needs a value"), an option given twice ("--generations
/// given twice"), a value on a flag.
bool parse_command_line(CLI::App& app, int argc, const char* const* argv);

/// Advances `total` generations through `step` in pieces of at most 4096 (so any total up to
/// kMaxRunGenerations works exactly through an int-sized step and bounds the work queued at once),
/// calling `line(done)` after each multiple of `every` (every 0: never) and after the last
/// generation when that is not one (nothing when total is 0: the caller prints generation 0).
template <class Step, class Line>
void step_in_chunks(long long total, long long every, Step&& step, Line&& line) {
  constexpr long long kChunk = 4096;
  long long done = 0;
  long long last_line = 0;
  while (done < total) {
    const long long stop = every > 0 ? std::min(total, (done / every + 1) * every) : total;
    while (done < stop) {
      const long long n = std::min(kChunk, stop - done);
      step(static_cast<int>(n));
      done += n;
    }
    if (every > 0 && done % every == 0) {
      line(done);
      last_line = done;
    }
  }
  if (last_line != done) line(done);
}

}  // namespace ls
