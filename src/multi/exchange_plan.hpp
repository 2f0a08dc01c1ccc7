// exchange_plan.hpp — how a split lattice's bands hide their halo exchange (split_lattice.hpp): by
// stepping their edges first and sending them while the interior steps, or by deeper halos, swapped
// once every few launches. Plain C++ (no CUDA), so it is tested everywhere.
//
// Edges first hides an exchange behind the interior only where the interior's launch outlasts the
// chain of edge windows, their copies and the waits across GPUs (~0.1-0.2 ms on H100/H200 with
// NVLink): bands of big lattices. A band's short launch (16384² over two GPUs: ~80 us) cannot hide
// it, so there the bands keep halos m exchanges deep: m x (generations a launch) rows each side,
// refreshed after every m-th launch; in between, each launch steps the whole buffer, halos included,
// and the halos' valid rows shrink by the launch's generations. The launch then steps 2 x halo more
// rows, and the exchange's fixed cost is paid once in m launches; m is the one that minimises the
// sum by a model of both (choose_exchange_every).
#pragma once

#include <functional>

#include "core/engine.hpp"

namespace ls::multi {

/// The most launches between two exchanges.
inline constexpr int kMaxExchangeEvery = 16;
/// A band's launch this long or longer (by nominal_rate) hides its exchange behind its interior.
/// Between the launches measured (bench/NOTES.md "Deep halos" and "Four GPUs with deep halos"): edges
/// first equals whole buffers at ~1.2 ms (65536² over two) and loses to them at ~0.6 ms (65536²
/// over four).
inline constexpr double kEdgesFirstLaunchSeconds = 0.8e-3;
/// One exchange's fixed cost on the GPUs, as measured on H100/H200 with NVLink (bench/NOTES.md "Deep
/// halos"): NCCL's kernels meet on the devices; peer copies wait for events across GPUs.
inline constexpr double kNcclExchangeSeconds = 15e-6;
inline constexpr double kPeerExchangeSeconds = 40e-6;

/// Cell updates per second of one launch of `variant` on one H100/H200 at 16384² (README's
/// benchmark), for plans only: the ratio of a launch to an exchange, not a promise.
double nominal_rate(Variant variant);

/// A launch's time in seconds by the rows it steps (a band's own rows and both halos).
using LaunchSeconds = std::function<double(int rows)>;

/// A launch of `rows` rows, `width` wide, `generations` a launch, at nominal_rate.
double nominal_launch_seconds(Variant variant, int width, int rows, int generations);

/// Launches between exchanges for a band of at least `thinnest` own rows, `width` cells wide, whose
/// launches step `generations` generations (its halo then m x generations rows, rounded up to 16):
/// the m in 1..kMaxExchangeEvery with 2 x m x generations <= thinnest that minimises a launch of the
/// band and its halos plus the exchange's cost (`exchange_seconds`) shared by m launches. A launch
/// costs `launch_seconds` of its rows where given (a launcher that runs whole rounds of blocks can
/// make a deeper halo cost nothing, or a shallower one more), else nominal_launch_seconds.
int choose_exchange_every(Variant variant, int width, int thinnest, int generations, double exchange_seconds,
                          const LaunchSeconds& launch_seconds = {});

/// Whether a band of `rows` own rows, `width` wide, stepping `generations` a launch, hides its
/// exchange behind its interior (edges first): its launch lasts kEdgesFirstLaunchSeconds or more.
bool launch_hides_exchange(Variant variant, int width, int rows, int generations);

}  // namespace ls::multi
