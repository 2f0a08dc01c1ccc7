#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/ and runs each on its seed corpus
# for a while; fails if any target finds a crash, a hang, a leak or a broken invariant.
#   scripts/fuzz.sh [seconds per target, default 30] [target...]
# New inputs the fuzzer finds go to build-fuzz/corpus/<target> (the seeds in tests/fuzz/corpus are
# only read); crash inputs are saved as build-fuzz/artifacts/<target>/crash-* (see tests/fuzz/README.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_rle fuzz_cells fuzz_gzip fuzz_rule fuzz_script)
build=${BUILD_DIR:-build-fuzz}

LIFESTREAMS_FUZZ=1 scripts/setup.sh
# Only the core and the fuzz targets are needed: no CUDA, no GUI.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DLIFESTREAMS_FUZZ=ON -DLIFESTREAMS_CUDA=OFF -DLIFESTREAMS_GUI=OFF >/dev/null
cmake --build "$build" --target "${targets[@]}"

status=0
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t"
  echo "fuzz: $t for ${seconds}s"
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  if ! "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
      "${dict[@]}" -artifact_prefix="$build/artifacts/$t/" "$build/corpus/$t" "tests/fuzz/corpus/$t" \
      >"$build/$t.log" 2>&1; then
    echo "fuzz: $t FAILED (log: $build/$t.log; inputs: $build/artifacts/$t/)"
    grep -E "ERROR|invariant failed|Test unit written" "$build/$t.log" | head -5 || true
    status=1
  else
    grep -E "stat::number_of_executed_units" "$build/$t.log" | sed "s/^/fuzz: $t /" || true
  fi
done
exit $status
