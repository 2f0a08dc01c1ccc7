#!/usr/bin/env bash
# Stream mode `graph` on the device machine: its GPU tests, the bench rows of 64 x 1024²
# in the three stream modes, and the whole app headless at 64 x 1024² in each mode (frames/s and
# host enqueue per frame), as a short table last.
# Here:    build lifestreams and tests/sim/ls_sim_tests, then
#          ../shared/device/bundle.sh .dev build/lifestreams build/tests/sim/ls_sim_tests
# There:   source .dev/env.sh; scripts/graph-check.sh "$OUT"      (OUT: where logs and JSON go)
set -uo pipefail
source "$(dirname "$0")/check_steps.sh" graph-check "$@"

step "GPU tests of stream mode graph"
check ls_sim_tests --gtest_filter='*GraphMode*:*StreamMode*:*GraphFrames*' --gtest_brief=1 >"$out/gpu_tests.log" 2>&1
tail -n 3 "$out/gpu_tests.log"

step "bench: 64 x 1024², three stream modes"
check lifestreams bench --sizes 1024 --instances 64 --stream-mode per-instance,shared,graph \
  --variants global,bitpacked --generations-per-launch 1 --json "$out/bench_k1.json" >"$out/bench_k1.txt" 2>"$out/bench_k1.err"
cat "$out/bench_k1.txt"
check lifestreams bench --sizes 1024 --instances 64 --stream-mode per-instance,shared,graph \
  --variants bitpacked --generations-per-launch 16 --json "$out/bench_k16.json" >"$out/bench_k16.txt" 2>"$out/bench_k16.err"
cat "$out/bench_k16.txt"

step "whole app headless, 64 x 1024², 2000 frames"
for mode in graph per-instance shared; do
  check lifestreams --headless --instances 64 --frames 2000 --stream-mode "$mode" --report "$out/app_$mode.json" \
    >"$out/app_$mode.log" 2>&1
done
printf '%-14s %10s %18s %10s %14s\n' "stream mode" "fps" "host enqueue ms" "GPU span" "graph builds"
field() { grep -o "$2" "$1" | head -n 1 | sed 's/.*: //'; }
for mode in graph per-instance shared; do
  r="$out/app_$mode.json"
  [ -f "$r" ] || { echo "$mode: no report"; continue; }
  printf '%-14s %10s %18s %10s %14s\n' "$mode" "$(field "$r" '"fps": [0-9.e+-]*')" \
    "$(field "$r" '"host_enqueue_ms": {"last": [0-9.e+-]*, "mean": [0-9.e+-]*')" \
    "$(field "$r" '"gpu_span_ms": [0-9.e+-]*')" "$(field "$r" '"builds": [0-9]*')"
done
exit $status
