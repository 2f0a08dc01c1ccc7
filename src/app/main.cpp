// main.cpp — `lifestreams`: dispatches to `run` (batch), `bench` (CUDA benchmark) or the app.
#include <cstring>
#include <iostream>

#include "app/cli_run.hpp"
#if defined(LIFESTREAMS_HAVE_CUDA)
#include "app/bench.hpp"
#endif
#if defined(LIFESTREAMS_HAVE_GUI)
#include "app/gui_app.hpp"
#endif

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "run") == 0) return ls::run_main(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "bench") == 0) {
#if defined(LIFESTREAMS_HAVE_CUDA)
    return ls::bench_main(argc - 1, argv + 1);
#else
    std::cerr << "lifestreams bench: this build has no CUDA engine (no CUDA compiler was found)\n";
    return 3;
#endif
  }
#if defined(LIFESTREAMS_HAVE_GUI)
  return ls::gui_main(argc, argv);
#else
  std::cerr << "lifestreams: this build has no desktop app (configured with LIFESTREAMS_GUI=OFF); "
               "use `lifestreams run`\n";
  return 3;
#endif
}
