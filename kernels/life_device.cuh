// life_device.cuh — device helpers shared by the kernels/*.cu files (private to kernels/):
// byte-SWAR neighbour sums and rule lookups for the byte-per-cell variants, and the bit-sliced
// adders and rule logic for the bit-per-cell variant. Also compiled at run time by NVRTC (through
// step_bitpacked.cuh): it includes nothing but <cstdint>, rule_masks.hpp and rule_network.hpp.
#pragma once

#include <cstdint>

#include "kernels/rule_masks.hpp"
#include "kernels/rule_network.hpp"

namespace ls::kernels::detail {

/// The positive remainder of a modulo b (b > 0), for wrapping tile origins onto the torus.
__host__ __device__ __forceinline__ int wrap(long long a, int b) {
  const long long r = a % b;
  return static_cast<int>(r < 0 ? r + b : r);
}

/// prmt.b32 in its generic form: selector nibble bit 3 replicates the selected byte's sign bit.
/// (The __byte_perm intrinsic is documented with 3-bit selectors only, so PTX is used directly.)
__device__ __forceinline__ std::uint32_t prmt(std::uint32_t a, std::uint32_t b, std::uint32_t s) {
  std::uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
  return d;
}

// ---------------------------------------------------------------------------------------------
// Byte cells, four per 32-bit word (byte j = cell x0 + j). All bytes stay 0/1, so neighbour sums
// (at most 9) never carry from one byte into the next.

/// A rule as two 16-entry PRMT tables (birth for dead cells, survival for live ones): table byte j
/// holds the answer for count j in bit 0 and the answer for count j + 8 in bit 7 (a selector
/// nibble >= 8 replicates that bit over the byte).
struct ByteRule {
  std::uint32_t birth_lo, birth_hi, survive_lo, survive_hi;
};

inline ByteRule make_byte_rule(RuleMasks rule) {
  auto table = [](std::uint32_t mask, int first) {
    std::uint32_t t = 0;
    for (int j = 0; j < 4; ++j) {
      const int n = first + j;
      const std::uint32_t byte = ((mask >> n) & 1u) | (n + 8 <= 8 ? ((mask >> (n + 8)) & 1u) << 7 : 0u);
      t |= byte << (8 * j);
    }
    return t;
  };
  return ByteRule{table(rule.birth, 0), table(rule.birth, 4), table(rule.survive, 0), table(rule.survive, 4)};
}

inline bool is_life(RuleMasks rule) {
  return (rule.birth & 0x1ffu) == (1u << 3) && (rule.survive & 0x1ffu) == ((1u << 2) | (1u << 3));
}

/// Next state of four cells from their neighbour counts n (bytes 0..8) and states a (bytes 0/1).
template <bool kLife>
__device__ __forceinline__ std::uint32_t byte_rule(std::uint32_t n, std::uint32_t a, const ByteRule& r) {
  if constexpr (kLife) {
    // Live next iff (n | a) == 3; x < 16 per byte, so x + 15 reaches bit 4 iff x != 0.
    const std::uint32_t x = (n | a) ^ 0x03030303u;
    return (((x + 0x0f0f0f0fu) >> 4) & 0x01010101u) ^ 0x01010101u;
  } else {
    // Pack the four counts into the nibbles of a PRMT selector, then look both tables up.
    const std::uint32_t t = n | (n >> 4);
    const std::uint32_t sel = prmt(t, 0u, 0x4420u);
    const std::uint32_t born = prmt(r.birth_lo, r.birth_hi, sel);
    const std::uint32_t kept = prmt(r.survive_lo, r.survive_hi, sel);
    return ((a & kept) | (~a & born)) & 0x01010101u;
  }
}

/// One generation of a 16-cell chunk: u, m, d are the rows above, at and below, each as
/// [word left of the chunk, 4 chunk words, word right of the chunk]. Returns the chunk's 4 words.
template <bool kLife>
__device__ __forceinline__ void byte_step16(const std::uint32_t (&u)[6], const std::uint32_t (&m)[6],
                                            const std::uint32_t (&d)[6], const ByteRule& r,
                                            std::uint32_t (&out)[4]) {
  std::uint32_t v[6], ud[6];
#pragma unroll
  for (int i = 0; i < 6; ++i) {
    ud[i] = u[i] + d[i];
    v[i] = ud[i] + m[i];
  }
#pragma unroll
  for (int i = 1; i <= 4; ++i) {
    const std::uint32_t from_left = __funnelshift_l(v[i - 1], v[i], 8);   // byte j <- column j - 1
    const std::uint32_t from_right = __funnelshift_r(v[i], v[i + 1], 8);  // byte j <- column j + 1
    out[i - 1] = byte_rule<kLife>(ud[i] + from_left + from_right, m[i], r);
  }
}

/// The 24 bytes of one row around a 16-cell chunk at `p` (16-byte aligned) in a buffer with a
/// 4-byte margin on each side: [word left of the chunk, the chunk's 4 words, word right of it].
__device__ __forceinline__ void load_chunk_row(const std::uint8_t* p, std::uint32_t (&v)[6]) {
  const uint4 c = *reinterpret_cast<const uint4*>(p);
  v[0] = *reinterpret_cast<const std::uint32_t*>(p - 4);
  v[1] = c.x;
  v[2] = c.y;
  v[3] = c.z;
  v[4] = c.w;
  v[5] = *reinterpret_cast<const std::uint32_t*>(p + 16);
}

/// One generation of the chunk at row m, written as 16 bytes at `out()` (16-byte aligned); then
/// the rows move up by one (u <- m, m <- d) so the caller loads only the next row below into d.
/// `out` is called after the step, so the address arithmetic follows the logic (placed before it,
/// `global` at 16384² ran 3% slower on an H100).
template <bool kLife, class Out>
__device__ __forceinline__ void step_chunk_and_advance(std::uint32_t (&u)[6], std::uint32_t (&m)[6],
                                                       const std::uint32_t (&d)[6], const ByteRule& rule,
                                                       Out out) {
  std::uint32_t o[4];
  byte_step16<kLife>(u, m, d, rule, o);
  *reinterpret_cast<uint4*>(out()) = make_uint4(o[0], o[1], o[2], o[3]);
#pragma unroll
  for (int i = 0; i < 6; ++i) {
    u[i] = m[i];
    m[i] = d[i];
  }
}

/// lop3.b32 with the truth table kLut over (a, b, c) = (0xf0, 0xcc, 0xaa).
template <int kLut>
__device__ __forceinline__ std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(kLut));
  return d;
}

// ---------------------------------------------------------------------------------------------
// Bit cells, 32 per word (bit i = cell x0 + i): bit-sliced counts.

/// A rule as per-total masks: T = live cells in the 3x3 block including the centre (0..9);
/// a dead cell is born iff birth bit T is set, a live one survives iff survive bit T - 1 is set.
struct BitRule {
  std::uint32_t birth_by_total;    // bit T: dead cell with total T is born
  std::uint32_t survive_by_total;  // bit T: live cell with total T survives
};

inline BitRule make_bit_rule(RuleMasks rule) {
  return BitRule{rule.birth & 0x1ffu, (rule.survive & 0x1ffu) << 1};
}

/// Horizontal sum of a word with its left and right neighbour cells: two bit planes (0..3).
__device__ __forceinline__ void hsum3(std::uint32_t w, std::uint32_t left_word, std::uint32_t right_word,
                                      std::uint32_t& s, std::uint32_t& c) {
  const std::uint32_t l = __funnelshift_l(left_word, w, 1);   // bit i <- cell i - 1
  const std::uint32_t r = __funnelshift_r(w, right_word, 1);  // bit i <- cell i + 1
  s = l ^ w ^ r;
  c = (l & w) | (l & r) | (w & r);
}

/// Next state from the horizontal sums of the rows above (sa, ca), at (sb, cb) and below (sc, cc),
/// and the cells themselves.
template <bool kLife>
__device__ __forceinline__ std::uint32_t bit_rule(std::uint32_t sa, std::uint32_t ca, std::uint32_t sb,
                                                  std::uint32_t cb, std::uint32_t sc, std::uint32_t cc,
                                                  std::uint32_t alive, const BitRule& r) {
  // Total T = t0 + 2 * (k + u + 2 v).
  const std::uint32_t t0 = sa ^ sb ^ sc;
  const std::uint32_t k = (sa & sb) | (sa & sc) | (sb & sc);
  const std::uint32_t u = ca ^ cb ^ cc;
  const std::uint32_t v = (ca & cb) | (ca & cc) | (cb & cc);
  if constexpr (kLife) {
    // T == 3, or T == 4 and alive, in four LOP3s (the compiler's own choice took six).
    const std::uint32_t three = lop3<0x06>(v, k, u);              // ~v & (k ^ u): with t0, T == 3
    const std::uint32_t two = lop3<0x18>(v, k, u);                // k + u + 2v == 2: without t0, T == 4
    const std::uint32_t four_alive = lop3<0x08>(t0, alive, two);  // ~t0 & alive & two
    return lop3<0xf8>(four_alive, t0, three);                     // four_alive | (t0 & three)
  } else {
    const std::uint32_t w0 = k ^ u;
    const std::uint32_t w1 = v ^ (k & u);
    const std::uint32_t w2 = v & k & u;
    // Per total T: the answer for this cell's state (all-ones or all-zeros masks, uniform).
    std::uint32_t val[10];
#pragma unroll
    for (int t = 0; t < 10; ++t) {
      const std::uint32_t bm = 0u - ((r.birth_by_total >> t) & 1u);
      const std::uint32_t sm = 0u - ((r.survive_by_total >> t) & 1u);
      val[t] = (alive & sm) | (~alive & bm);
    }
    const std::uint32_t m01 = (t0 & val[1]) | (~t0 & val[0]);
    const std::uint32_t m23 = (t0 & val[3]) | (~t0 & val[2]);
    const std::uint32_t m45 = (t0 & val[5]) | (~t0 & val[4]);
    const std::uint32_t m67 = (t0 & val[7]) | (~t0 & val[6]);
    const std::uint32_t m89 = (t0 & val[9]) | (~t0 & val[8]);
    const std::uint32_t m03 = (w0 & m23) | (~w0 & m01);
    const std::uint32_t m47 = (w0 & m67) | (~w0 & m45);
    const std::uint32_t m07 = (w1 & m47) | (~w1 & m03);
    return (w2 & m89) | (~w2 & m07);
  }
}

/// lop3 where the truth table needs no instruction (a constant, or one of the inputs).
template <unsigned kLut>
__device__ __forceinline__ std::uint32_t lut3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  if constexpr (kLut == 0x00u)
    return 0u;
  else if constexpr (kLut == 0xffu)
    return ~0u;
  else if constexpr (kLut == 0xf0u)
    return a;
  else if constexpr (kLut == 0xccu)
    return b;
  else if constexpr (kLut == 0xaau)
    return c;
  else
    return lop3<static_cast<int>(kLut)>(a, b, c);
}

/// s ? one : zero, where `one` and `zero` are computed (kOne, kZero: false where the value is a
/// constant, which the compiler folds into a cheaper expression). An explicit LOP3 otherwise: the
/// compiler shares the (s & one) of two muxes and then needs two LOP3s for each.
template <bool kOne, bool kZero>
__device__ __forceinline__ std::uint32_t mux(std::uint32_t s, std::uint32_t one, std::uint32_t zero) {
  if constexpr (kOne && kZero)
    return lop3<0xca>(s, one, zero);
  else
    return (s & one) | (~s & zero);
}

/// bit_rule for masks known at compile time (a kernel compiled for one rule): the rule's own network
/// (rule_network.hpp), at most six LOP3s after the adders (B3/S23's four), where the compiler's
/// folding of bit_rule's mux tree for constant masks left 5 to 14 (bench/NOTES.md).
template <unsigned kBirthByTotal, unsigned kSurviveByTotal>
__device__ __forceinline__ std::uint32_t bit_rule_fixed(std::uint32_t sa, std::uint32_t ca, std::uint32_t sb,
                                                        std::uint32_t cb, std::uint32_t sc, std::uint32_t cc,
                                                        std::uint32_t alive) {
  constexpr RuleSplit s = best_split(rule_table(kBirthByTotal, kSurviveByTotal));
  constexpr unsigned c[4] = {s.cofactor[0], s.cofactor[1], s.cofactor[2], s.cofactor[3]};
  std::uint32_t plane[kPlanes];
  plane[kPlaneAlive] = alive;
  plane[kPlaneT0] = sa ^ sb ^ sc;
  plane[kPlaneK] = (sa & sb) | (sa & sc) | (sb & sc);
  plane[kPlaneU] = ca ^ cb ^ cc;
  plane[kPlaneV] = (ca & cb) | (ca & cc) | (cb & cc);
  const std::uint32_t p = plane[s.p], q = plane[s.q], r = plane[s.r], x = plane[s.x], y = plane[s.y];
  // A cofactor equal to an earlier one reuses it: the compiler does not merge equal asm statements.
  const std::uint32_t f0 = lut3<c[0]>(p, q, r);
  const std::uint32_t f1 = c[1] == c[0] ? f0 : lut3<c[1]>(p, q, r);
  const std::uint32_t f2 = c[2] == c[0] ? f0 : c[2] == c[1] ? f1 : lut3<c[2]>(p, q, r);
  const std::uint32_t f3 = c[3] == c[0] ? f0 : c[3] == c[1] ? f1 : c[3] == c[2] ? f2 : lut3<c[3]>(p, q, r);
  constexpr bool computed[4] = {c[0] != 0x00u && c[0] != 0xffu, c[1] != 0x00u && c[1] != 0xffu,
                                c[2] != 0x00u && c[2] != 0xffu, c[3] != 0x00u && c[3] != 0xffu};
  const std::uint32_t side0 = c[0] == c[1] ? f0 : mux<computed[1], computed[0]>(y, f1, f0);
  const std::uint32_t side1 = c[2] == c[3] ? f2 : mux<computed[3], computed[2]>(y, f3, f2);
  if constexpr (c[0] == c[2] && c[1] == c[3]) return side0;
  constexpr bool side0_computed = c[0] != c[1] || computed[0], side1_computed = c[2] != c[3] || computed[2];
  return mux<side1_computed, side0_computed>(x, side1, side0);
}

}  // namespace ls::kernels::detail
