// engine_factory_gui.cpp — each engine with its filler: the one place the app pairs a concrete
// engine with the display code that reaches its cells.
#include "app/engine_factory_gui.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "control/engine_factory.hpp"
#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "multi/multi_engine.hpp"
#include "render/host_filler.hpp"
#if defined(LIFESTREAMS_HAVE_CUDA)
#include "interop/cuda_tile_filler.hpp"
#include "multi/split_engine.hpp"
#endif

namespace ls {

#if defined(LIFESTREAMS_HAVE_CUDA)
interop::InstancePlaces instance_places(multi::MultiEngine& multi) {
  return [&multi](std::size_t n, std::vector<interop::InstancePlace>& out) {
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      interop::InstancePlace& p = out[i];
      p.local = multi.local_of(i);
      if (multi.is_split(i)) {
        p.slot = 0;
        auto& split = static_cast<multi::SplitEngine&>(multi.split_engine());
        p.bands = split.lattice(p.local).band_views();
        std::tie(p.display_start, p.display_end) = split.display_marks(p.local);
      } else {
        p.slot = multi.slot_of(i);
        p.bands.clear();
        p.display_start = p.display_end = nullptr;
      }
    }
  };
}
#endif

namespace {

/// The filler of an engine over several GPUs: tiles of the display slot's instances drawn by
/// interop as on one GPU, the others drawn where they run and copied over (src/interop).
void add_multi_filler(DisplayedEngine& made, EngineChoice& choice, int display_device) {
#if defined(LIFESTREAMS_HAVE_CUDA)
  multi::MultiEngine* multi = choice.multi;
  const std::size_t display_slot = multi->slot_of_device(display_device);
  interop::InstancePlaces places = instance_places(*multi);
  made.filler = std::make_unique<interop::CudaTileFiller>(*choice.engine, choice.slot_cuda, display_slot,
                                                          std::move(places));
#else
  (void)made, (void)choice, (void)display_device;
#endif
}

/// `display_device` -1: the engine's first device.
DisplayedEngine displayed(EngineChoice choice, int display_device) {
  DisplayedEngine made;
#if defined(LIFESTREAMS_HAVE_CUDA)
  if (choice.cuda) {
    made.filler = std::make_unique<interop::CudaTileFiller>(*choice.cuda);
    made.cuda_device = choice.cuda->device();
  }
#endif
  if (choice.cpu) {
    // The CPU engine's cells are on the host already: read them in place, no copy per frame.
    const CpuEngine* cpu = choice.cpu;
    made.filler = std::make_unique<render::HostTileFiller>(
        *choice.engine, [cpu](std::size_t i) -> const Lattice& { return cpu->lattice(i); });
  }
  if (choice.multi) {
    made.cuda_device = display_device >= 0 ? display_device : choice.engine->cuda_device();
    add_multi_filler(made, choice, made.cuda_device);
  }
  made.engine = std::move(choice.engine);
  return made;
}

}  // namespace

DisplayedEngine make_displayed_engine(std::string_view backend, int device) {
  return displayed(choose_engine(backend, device), -1);
}

DisplayedEngine make_displayed_engine(std::string_view backend, const DeviceList& devices,
                                      std::string_view option, std::optional<int> display_device, bool split,
                                      int slots_per_gpu) {
  EngineChoice choice = choose_app_engine(backend, devices, option, slots_per_gpu);
  if (split) {
    if (!choice.multi)
      throw InputError("--split: a lattice splits across two or more GPUs; " + std::string(option) +
                       " gives " + (choice.engine->cuda_device() >= 0 ? "one" : "none"));
    choice.multi->set_split_new(true);
  }
  std::vector<int> gpus;  // the GPUs the engine runs on, in order
  if (choice.multi) {
    for (std::size_t s = 0; s < choice.multi->slots(); ++s) gpus.push_back(choice.multi->slot_device(s));
  } else if (choice.engine->cuda_device() >= 0) {
    gpus.push_back(choice.engine->cuda_device());
  }
  if (display_device && !gpus.empty() && std::find(gpus.begin(), gpus.end(), *display_device) == gpus.end())
    throw InputError("--display-device " + std::to_string(*display_device) + ": not one of " +
                     std::string(option) + " (" + device_list_text(gpus) + ")");
  // The CPU engine draws on any GPU.
  const int display = display_device && !gpus.empty() ? *display_device : -1;
  DisplayedEngine made = displayed(std::move(choice), display);
  if (display >= 0) made.cuda_device = display;
  return made;
}

}  // namespace ls
