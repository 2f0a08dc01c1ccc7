#!/usr/bin/env bash
# Installs what is missing, builds Release and launches the lifestreams app with the given options,
# e.g.  scripts/run.sh --instances 8 --variant bitpacked     (docs/command-line.md lists every option)
# Says each step as it goes, with the build's [done/total] progress (a first build takes minutes),
# and where the program is: build/lifestreams (or $BUILD_DIR/lifestreams). All of it goes to
# stderr, so that stdout is the app's alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-build}
step() { printf 'run.sh: %s\n' "$*" >&2; }

step "[1/3] checking the Debian packages (scripts/setup.sh)"
scripts/setup.sh >&2

step "[2/3] configuring the Release build in $build/"
mkdir -p "$build"
log="$build/run-configure.log"
if ! cmake --preset release -B "$build" >"$log" 2>&1; then
  cat "$log" >&2
  step "configuring failed (the log above is in $log)"
  exit 1
fi
# The one line that matters to a newcomer: whether the CUDA engine is built (a warning when not).
grep -h 'lifestreams:' "$log" | sed -E 's/^ *(-- )?/run.sh:   /' >&2 || true

step "[3/3] building $build/lifestreams (the first build takes several minutes; later ones only what changed)"
# Ninja shows its [done/total] line as it goes (one updating line on a terminal, a line each in a log).
cmake --build "$build" -j "$(nproc)" --target lifestreams >&2

step "built: the program is $build/lifestreams (next time run it directly: $build/lifestreams --help)"
exec "$build/lifestreams" "$@"
