// main.cpp — `lifestreams`: prints --version, or dispatches to `run` (batch), `bench` (CUDA benchmark)
// or the app.
#include <algorithm>
#include <cstring>
#include <iostream>

#include "bench/bench_distributed.hpp"
#include "cli/run.hpp"
#include "version.hpp"
#if defined(LIFESTREAMS_HAVE_CUDA)
#include "bench/bench.hpp"
#include "kernels/life_kernels.hpp"
#endif
#if defined(LIFESTREAMS_HAVE_GUI)
#include "app/gui_app.hpp"
#endif

namespace {

// Follows the app's --help: the app's options are the window's, and the subcommands are main's to
// name.
constexpr const char* kSubcommands =
    "\nIn the window: F1 lists every key. Esc closes what is open (a dropdown, the help, a field's\n"
    "edit, a size or reset being built) and never quits. Ctrl+Q or the window's close button quits,\n"
    "asking first when cells drawn or a pattern loaded have not been saved.\n"
    "\nSubcommands (each has its own --help):\n"
    "  lifestreams run ...      no window: advance one lattice and print its population and hash\n"
    "  lifestreams bench ...    benchmark the CUDA kernel variants on lattices of several sizes\n"
    "  mpirun -np R lifestreams run|bench --distributed ...   one lattice over the ranks of an MPI job\n"
    "  lifestreams --version    print the version and the commit it was built from\n";

bool asks_for_help(int argc, char** argv) {
  return std::any_of(argv + 1, argv + argc, [](const char* a) {
    return std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0;
  });
}

int dispatch(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    std::cout << "lifestreams " << ls::kVersion << " (commit " << ls::kCommit << ")\n";
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "run") == 0) return ls::run_main(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "bench") == 0) {
    // Any build with MPI: the CPU backend needs no CUDA.
    if (ls::asks_distributed(argc - 1, argv + 1)) return ls::bench_distributed_main(argc - 1, argv + 1);
#if defined(LIFESTREAMS_HAVE_CUDA)
    return ls::bench_main(argc - 1, argv + 1);
#else
    std::cerr << "lifestreams bench: this build has no CUDA engine (no CUDA compiler was found)\n";
    return 3;
#endif
  }
#if defined(LIFESTREAMS_HAVE_GUI)
  const int status = ls::gui_main(argc, argv);
  // Status 0 with --help given: the app printed its help (a bad option elsewhere would be status 2).
  if (status == 0 && asks_for_help(argc, argv)) std::cout << kSubcommands;
  return status;
#else
  if (asks_for_help(argc, argv)) {
    std::cout << "lifestreams: this build has no desktop app (configured with LIFESTREAMS_GUI=OFF)\n"
              << kSubcommands;
    return 0;
  }
  std::cerr << "lifestreams: this build has no desktop app (configured with LIFESTREAMS_GUI=OFF); "
               "use `lifestreams run`\n";
  return 3;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const int status = dispatch(argc, argv);
#if defined(LIFESTREAMS_HAVE_CUDA)
  // A rule's kernel may still be compiling: done before the exit handlers destroy NVRTC's state.
  ls::kernels::halt_rule_kernels();
#endif
  return status;
}
