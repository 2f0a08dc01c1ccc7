// lattice.hpp — a toroidal W x H Life lattice on the host, one bit per cell.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/pattern.hpp"

namespace ls {

/// Lattice sizes: multiples of 32, at least 32 on each side.
inline constexpr int kLatticeAlign = 32;
/// Throws InputError unless w and h are multiples of 32, >= 32 and <= kMaxLatticeSide.
void check_lattice_size(long long w, long long h);
inline constexpr long long kMaxLatticeSide = 1 << 20;
/// Bytes of host memory still available (MemAvailable in /proc/meminfo, and no more than the
/// address-space limit, `ulimit -v`, leaves), or 0 when unknown.
std::uint64_t host_memory_available();
/// Throws InputError (saying what is asked and what is free, in MiB) when `copies` host lattices
/// of w x h cells do not fit in the host memory still available. Call before allocating: a
/// sanitizer's allocator, or an overcommitting kernel, would not give bad_alloc.
void check_host_memory(long long w, long long h, int copies);
/// Throws InputError "`what` needs N MiB of host memory; M MiB free" ("need" when `plural`) when
/// `bytes` do not fit.
void check_host_bytes(std::uint64_t bytes, const std::string& what, bool plural = false);

/// Bit layout (shared with the device's `bitpacked` layout and used for uploads/downloads):
/// row-major, W/32 32-bit words per row; bit i of word j in row y is cell (32*j + i, y).
class Lattice {
 public:
  Lattice() = default;
  Lattice(int width, int height);  // all dead; throws InputError on a bad size

  int width() const { return width_; }
  int height() const { return height_; }
  int words_per_row() const { return width_ / 32; }
  std::uint32_t* row(int y) { return words_.data() + static_cast<std::size_t>(y) * words_per_row(); }
  const std::uint32_t* row(int y) const {
    return words_.data() + static_cast<std::size_t>(y) * words_per_row();
  }
  std::vector<std::uint32_t>& words() { return words_; }
  const std::vector<std::uint32_t>& words() const { return words_; }

  /// Coordinates wrap around the torus (any int is accepted).
  bool get(long long x, long long y) const;
  void set(long long x, long long y, bool alive);
  void clear();

  std::uint64_t population() const;
  /// The state hash (see splitmix.hpp).
  std::uint64_t hash() const;

  /// Sets the pattern's live cells with the box's top-left at (x, y), wrapping on the torus.
  void place(const Pattern& pattern, long long x, long long y);
  /// Places the pattern centred: top-left at ((W - w) / 2, (H - h) / 2). Throws InputError if
  /// the pattern's box is larger than the lattice.
  void place_centred(const Pattern& pattern);

  /// The random fill (see splitmix.hpp).
  static Lattice random(int width, int height, double density, std::uint64_t seed);
  /// The random fill of rows [y_begin, y_end) only, the same cells as random() gives them (so
  /// that several threads can fill one lattice, and a long fill can report progress).
  void fill_random_rows(double density, std::uint64_t seed, int y_begin, int y_end);

  /// The live cells' bounding box as a pattern (pos = its top-left in lattice coordinates;
  /// an empty lattice gives a 0 x 0 pattern at 0,0).
  Pattern to_pattern() const;

  friend bool operator==(const Lattice& a, const Lattice& b) {
    return a.width_ == b.width_ && a.height_ == b.height_ && a.words_ == b.words_;
  }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<std::uint32_t> words_;
};

}  // namespace ls
