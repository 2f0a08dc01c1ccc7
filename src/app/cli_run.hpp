// cli_run.hpp — `lifestreams run`: the headless batch command.
#pragma once

namespace ls {

/// argv[0] is "run". Returns the exit status: 0 done, 2 bad arguments or input, 3 device failure.
int run_main(int argc, char** argv);

}  // namespace ls
