// bench.hpp — `lifestreams bench`: the CUDA engine's benchmark. On one GPU: variants, sizes,
// instances, stream modes and generations per launch, timed with CUDA events against a memory roof
// measured in the same run; on several (--devices LIST): lattices split across them and instances
// spread over them, against the same work on the first. Prints a table and optionally writes JSON.
#pragma once

namespace ls {

/// argv[0] is "bench". Returns the exit status: 0 done, 2 bad arguments, 3 device failure.
int bench_main(int argc, char** argv);

}  // namespace ls
