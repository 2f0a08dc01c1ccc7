#!/usr/bin/env bash
# Installs what is missing, builds Release and launches the lifestreams app with the given options,
# e.g.  scripts/run.sh --instances 8 --variant bitpacked     (see README.md for every option)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh >/dev/null
build=${BUILD_DIR:-build}
cmake --preset release -B "$build" >/dev/null
cmake --build "$build" -j "$(nproc)" --target lifestreams >/dev/null
exec "$build/lifestreams" "$@"
