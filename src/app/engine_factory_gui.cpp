// engine_factory_gui.cpp — each engine with its filler: the one place the app pairs a concrete
// engine with the display code that reaches its cells.
#include "app/engine_factory_gui.hpp"

#include "app/engine_factory.hpp"
#include "core/cpu_engine.hpp"
#include "render/host_filler.hpp"
#if defined(LIFESTREAMS_HAVE_CUDA)
#include "interop/cuda_tile_filler.hpp"
#endif

namespace ls {

DisplayedEngine make_displayed_engine(std::string_view backend, int device) {
  EngineChoice choice = choose_engine(backend, device);
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
  made.engine = std::move(choice.engine);
  return made;
}

}  // namespace ls
