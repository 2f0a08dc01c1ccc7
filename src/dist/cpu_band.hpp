// cpu_band.hpp — one band of a lattice on the CPU, as one rank of a distributed run holds it: its own
// rows plus kHalo halo rows above and below, stepped with the CPU reference (core/cpu_engine.hpp) as
// a torus of the buffer's height. Garbage enters at the buffer's top and bottom and moves one row
// per generation, so the own rows stay exact for kHalo generations after the halos were refreshed
// from the neighbouring bands (plain C++: the refresh is a callback; MPI lives in band_comm.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/engine.hpp"
#include "core/lattice.hpp"
#include "core/pattern.hpp"
#include "multi/band_partition.hpp"

namespace ls::dist {

class CpuBand {
 public:
  /// Halo rows each side: own rows (multiples of 32) plus two halos stay a multiple of 32, and a
  /// neighbour's band (at least 32 rows) has that many own rows to give.
  static constexpr int kHalo = 16;

  /// Band `band` of a width x height lattice under `rule`, all dead; `threads` for cpu_step (0: all
  /// cores). Throws InputError when the two buffers do not fit in host memory.
  CpuBand(int width, int height, multi::Band band, const Rule& rule, int threads);

  /// The random fill of the whole lattice (splitmix.hpp), on this band's rows.
  void fill_random(const RandomInit& init);
  /// The cells of `pattern` placed centred on the whole lattice (as Lattice::place_centred) that
  /// fall on this band's rows.
  void place_centred(const Pattern& pattern);

  /// Advances `generations` generations; calls refresh_halos(*this) before a generation whenever
  /// the halos are spent (first, and every kHalo generations after), so the calls depend only on
  /// the total so far, not on how it is cut into step() calls.
  void step(long long generations, const std::function<void(CpuBand&)>& refresh_halos);

  int width() const { return buffer_.width(); }
  int words_per_row() const { return buffer_.words_per_row(); }
  const multi::Band& band() const { return band_; }
  /// Own row i (0 <= i < band().rows), i.e. lattice row band().first_row + i.
  const std::uint32_t* own_row(int i) const { return buffer_.row(kHalo + i); }

  /// The kHalo own rows an upper neighbour needs (the first), and a lower one (the last).
  const std::uint32_t* first_own_rows() const { return buffer_.row(kHalo); }
  const std::uint32_t* last_own_rows() const { return buffer_.row(band_.rows); }
  /// The halos to fill: above the own rows (the upper neighbour's last rows), below (the lower's first).
  std::uint32_t* upper_halo() { return buffer_.row(0); }
  std::uint32_t* lower_halo() { return buffer_.row(kHalo + band_.rows); }
  std::size_t halo_words() const { return static_cast<std::size_t>(kHalo) * buffer_.words_per_row(); }

  /// Live own cells.
  std::uint64_t population() const;
  /// The own cells' terms of the state hash (splitmix.hpp) at their lattice coordinates, without the
  /// lattice's base: the bands' sums plus lattice_hash_base(W, H) is the lattice's hash, mod 2^64.
  std::uint64_t hash_terms() const;

 private:
  int lattice_height_;
  multi::Band band_;
  Rule rule_;
  int threads_;
  int fresh_ = 0;  // generations the halos still hold
  Lattice buffer_;
  Lattice scratch_;
};

}  // namespace ls::dist
