// engine_factory_gui.hpp — the engine factory's half for the desktop app: the engine together with
// the tile filler that fits it (host upload for the CPU engine, CUDA–GL interop for the CUDA one).
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "control/device_args.hpp"
#include "core/engine.hpp"
#include "render/tile_filler.hpp"
#if defined(LIFESTREAMS_HAVE_CUDA)
#include "interop/cuda_tile_filler.hpp"
#include "multi/multi_engine.hpp"
#endif

namespace ls {

/// An engine and how its instances reach the tiles. Destroy the filler (or the TileRenderer that
/// owns it) before the engine: the filler refers to it.
struct DisplayedEngine {
  std::unique_ptr<Engine> engine;
  /// Made before any GL context (it touches GL only once tiles are made): give it to the
  /// render::TileRenderer made after the context.
  std::unique_ptr<render::TileFiller> filler;
  /// The CUDA device the GL context must run on for interop (HeadlessContext(cuda_device)), the
  /// display GPU; -1 for the CPU engine (any GL device).
  int cuda_device = -1;
};

/// choose_engine's engine (same names, same errors) with the filler that fits it.
DisplayedEngine make_displayed_engine(std::string_view backend, int device);

/// choose_app_engine's engine (--devices; `option` names the flag given) with the filler that fits
/// it. One device: make_displayed_engine(backend, device), the one-GPU app unchanged. Several: the
/// display runs on `display_device` (one of the devices; default the first): tiles of instances on
/// it are drawn by interop as on one GPU, the others are rendered on their own GPU and copied over
/// peer to peer, or through pinned host memory where two GPUs have no peer access
/// (interop::CudaTileFiller; no host sync either way). A display device that is not one of the
/// devices is an InputError naming them. With `split` (--split), every new instance is split across
/// all the devices (InputError with fewer than two). `slots_per_gpu`: choose_app_engine's test hook
/// (1 for users).
DisplayedEngine make_displayed_engine(std::string_view backend, const DeviceList& devices,
                                      std::string_view option, std::optional<int> display_device, bool split,
                                      int slots_per_gpu);

#if defined(LIFESTREAMS_HAVE_CUDA)
/// Where each instance of `multi` runs, for its CudaTileFiller: its slot and index there, or a
/// split instance's bands and the brackets of their timeline display bars. `multi` must outlive it.
interop::InstancePlaces instance_places(multi::MultiEngine& multi);
#endif

}  // namespace ls
