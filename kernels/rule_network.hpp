// rule_network.hpp — the logic network that a rule known at compile time becomes in the bitpacked
// kernel (bit_rule_fixed in life_device.cuh): the next state as a truth table over five bit planes,
// split on two of them into four functions of the other three (one LOP3 each) and up to three
// muxes. Plain constexpr C++, so that host tests check the network of every rule without a GPU.
#pragma once

#include "core/host_device.hpp"

namespace ls::kernels::detail {

/// The five bit planes the rule reads, by index: the cell itself, and the full adders' outputs,
/// with which the live cells of its 3x3 block are T = t0 + 2 (k + u + 2 v).
enum RulePlane { kPlaneAlive = 0, kPlaneT0 = 1, kPlaneK = 2, kPlaneU = 3, kPlaneV = 4, kPlanes = 5 };

/// The value of plane `plane` in row `row` of a truth table over the five planes (plane 0 is the
/// row's highest bit).
LS_HOST_DEVICE constexpr unsigned plane_bit(unsigned row, int plane) {
  return row >> (kPlanes - 1 - plane) & 1u;
}

/// The next state for every row of the five planes (bit `row` of the result). Masks by total as
/// BitRule's: a dead cell is born iff birth bit T is set, a live one survives iff survive bit T is.
LS_HOST_DEVICE constexpr unsigned rule_table(unsigned birth_by_total, unsigned survive_by_total) {
  unsigned table = 0;
  for (unsigned row = 0; row < 32; ++row) {
    const unsigned total = plane_bit(row, kPlaneT0) + 2 * (plane_bit(row, kPlaneK) + plane_bit(row, kPlaneU) +
                                                           2 * plane_bit(row, kPlaneV));
    const unsigned by_total = plane_bit(row, kPlaneAlive) ? survive_by_total : birth_by_total;
    table |= (by_total >> total & 1u) << row;
  }
  return table;
}

/// A rule's network: the table split on planes x and y; cofactor[2 x + y] is the function of the
/// other three planes (p, q, r as lop3's a, b, c: truth table bit 4 p + 2 q + r) where x and y hold
/// those values. The next state is x ? (y ? c[3] : c[2]) : (y ? c[1] : c[0]).
struct RuleSplit {
  int x = 0, y = 0, p = 0, q = 0, r = 0;
  unsigned cofactor[4] = {0, 0, 0, 0};
};

/// A truth table that costs no instruction: a constant, or one of the three inputs.
LS_HOST_DEVICE constexpr bool trivial_lut(unsigned lut) {
  return lut == 0x00u || lut == 0xffu || lut == 0xf0u || lut == 0xccu || lut == 0xaau;
}

/// The split of `table` on planes x and y (x != y).
LS_HOST_DEVICE constexpr RuleSplit split_on(unsigned table, int x, int y) {
  RuleSplit s;
  s.x = x;
  s.y = y;
  int others[3] = {0, 0, 0};
  for (int plane = 0, n = 0; plane < kPlanes; ++plane)
    if (plane != x && plane != y) others[n++] = plane;
  s.p = others[0];
  s.q = others[1];
  s.r = others[2];
  for (unsigned row = 0; row < 32; ++row) {
    const unsigned lut_bit = 4 * plane_bit(row, s.p) + 2 * plane_bit(row, s.q) + plane_bit(row, s.r);
    s.cofactor[2 * plane_bit(row, x) + plane_bit(row, y)] |= (table >> row & 1u) << lut_bit;
  }
  return s;
}

/// LOP3s the split takes: its distinct cofactors that are not trivial, and a mux wherever the two
/// functions it selects between differ.
LS_HOST_DEVICE constexpr int split_cost(const RuleSplit& s) {
  int cost = 0;
  for (int i = 0; i < 4; ++i) {
    bool seen = trivial_lut(s.cofactor[i]);
    for (int j = 0; j < i; ++j) seen = seen || s.cofactor[j] == s.cofactor[i];
    cost += seen ? 0 : 1;
  }
  const bool side0_mux = s.cofactor[0] != s.cofactor[1], side1_mux = s.cofactor[2] != s.cofactor[3];
  const bool same_sides = s.cofactor[0] == s.cofactor[2] && s.cofactor[1] == s.cofactor[3];
  return cost + (side0_mux ? 1 : 0) + (side1_mux ? 1 : 0) + (same_sides ? 0 : 1);
}

/// The cheapest split of `table` over every ordered pair of planes (the first of equals). The order
/// matters: x ? (y ? a : b) : (y ? a : c) is y ? a : (x ? b : c), one mux fewer.
LS_HOST_DEVICE constexpr RuleSplit best_split(unsigned table) {
  RuleSplit best = split_on(table, kPlaneAlive, kPlaneV);
  for (int x = 0; x < kPlanes; ++x)
    for (int y = 0; y < kPlanes; ++y) {
      if (y == x) continue;
      const RuleSplit s = split_on(table, x, y);
      if (split_cost(s) < split_cost(best)) best = s;
    }
  return best;
}

/// What the split computes for one row of the planes (the host's check of the network).
LS_HOST_DEVICE constexpr unsigned split_value(const RuleSplit& s, unsigned row) {
  const unsigned lut_bit = 4 * plane_bit(row, s.p) + 2 * plane_bit(row, s.q) + plane_bit(row, s.r);
  return s.cofactor[2 * plane_bit(row, s.x) + plane_bit(row, s.y)] >> lut_bit & 1u;
}

}  // namespace ls::kernels::detail
