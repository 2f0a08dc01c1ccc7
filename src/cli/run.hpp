// cli_run.hpp — `lifestreams run`: the headless batch command (one lattice, or an app script).
#pragma once

namespace ls {

/// argv[0] is "run". Returns the exit status: 0 done, 1 an expect-agree or expect-hash of a --script
/// failed, 2 bad arguments or input (a --script line: naming it), 3 device failure.
int run_main(int argc, char** argv);

}  // namespace ls
