// engine_factory_gui.cpp — each engine with its filler: the one place the app pairs a concrete
// engine with the display code that reaches its cells.
#include "app/engine_factory_gui.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "app/engine_factory.hpp"
#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "multi/multi_engine.hpp"
#include "render/host_filler.hpp"
#if defined(LIFESTREAMS_HAVE_CUDA)
#include "interop/cuda_tile_filler.hpp"
#endif

namespace ls {

namespace {

DisplayedEngine displayed(EngineChoice choice) {
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
    // Tiles of several GPUs: read to the host and uploaded (remote tile rendering is to come).
    made.filler = std::make_unique<render::HostTileFiller>(*choice.engine);
    made.cuda_device = choice.engine->cuda_device();
  }
  made.engine = std::move(choice.engine);
  return made;
}

}  // namespace

DisplayedEngine make_displayed_engine(std::string_view backend, int device) {
  return displayed(choose_engine(backend, device));
}

DisplayedEngine make_displayed_engine(std::string_view backend, const DeviceList& devices,
                                      std::string_view option, std::optional<int> display_device) {
  EngineChoice choice = choose_app_engine(backend, devices, option);
  std::vector<int> gpus;  // the GPUs the engine runs on, in order
  if (choice.multi) {
    for (std::size_t s = 0; s < choice.multi->slots(); ++s) gpus.push_back(choice.multi->slot_device(s));
  } else if (choice.engine->cuda_device() >= 0) {
    gpus.push_back(choice.engine->cuda_device());
  }
  DisplayedEngine made = displayed(std::move(choice));
  if (!display_device || gpus.empty()) return made;  // the CPU engine draws on any GPU
  if (std::find(gpus.begin(), gpus.end(), *display_device) == gpus.end())
    throw InputError("--display-device " + std::to_string(*display_device) + ": not one of " +
                     std::string(option) + " (" + device_list_text(gpus) + ")");
  made.cuda_device = *display_device;
  return made;
}

}  // namespace ls
