#!/usr/bin/env bash
# Installs what is missing, builds (Release) and runs every test with CTest, printing its summary.
# GPU tests skip with a reason on machines without a CUDA device; the app tests run under Xvfb.
#   scripts/test.sh            build in build/ and run ctest
#   BUILD_DIR=... PRESET=asan scripts/test.sh   (see CMakePresets.json for the sanitizer build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
preset=${PRESET:-release}
build=${BUILD_DIR:-build}
[ "$preset" = release ] || build=${BUILD_DIR:-build-$preset}
jobs=$(nproc)
cmake --preset "$preset" -B "$build" >/dev/null
cmake --build "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure -j "$jobs" --timeout 600 ${CTEST_ARGS:-}
