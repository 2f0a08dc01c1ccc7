#!/usr/bin/env bash
# The whole GPU check in one command, for the device machine (no display, nothing installable):
# GPU tests, compute-sanitizer suite, `lifestreams bench`, headless app reports and a screenshot.
# Here:    cmake --preset sm90 && cmake --build build-sm90
#          ../shared/device/bundle.sh .dev build-sm90/lifestreams build-sm90/tests/sim/ls_sim_tests \
#            build-sm90/tests/kernels/ls_kernel_tests build-sm90/tests/sim/ls_sanitize_suite build-sm90/tests/sim/ls_sim_fault_tests \
#            build-sm90/tests/app/ls_app_tests
# There:   source .dev/env.sh; scripts/device-check.sh "$OUT"      (OUT: where logs and PNGs go)
set -uo pipefail
source "$(dirname "$0")/check_steps.sh" device-check "$@"

step "kernel tests"
check ls_kernel_tests --gtest_brief=1 >"$out/kernel_tests.log" 2>&1
tail -n 3 "$out/kernel_tests.log"
step "engine tests"
check ls_sim_tests --gtest_brief=1 >"$out/gpu_tests.log" 2>&1
tail -n 3 "$out/gpu_tests.log"
step "device-fault tests"
check ls_sim_fault_tests --gtest_brief=1 >"$out/fault_tests.log" 2>&1
tail -n 3 "$out/fault_tests.log"
step "app tests (CUDA)"
export LS_APP=${LS_APP:-$(command -v lifestreams)} LS_SOURCE_DIR=${LS_SOURCE_DIR:-$PWD}
# A program outside its build tree finds shaders/ and assets/ through LIFESTREAMS_DATA_DIR.
export LIFESTREAMS_DATA_DIR=${LIFESTREAMS_DATA_DIR:-$PWD}
check ls_app_tests --gtest_filter='App.*Cuda*:App.Report*:Display.*:Recovery.*' --gtest_brief=1 >"$out/app_tests.log" 2>&1
tail -n 3 "$out/app_tests.log"

if [ "${SKIP_BENCH:-0}" != 1 ]; then
  step "bench"
  check lifestreams bench --json "$out/bench.json" >"$out/bench.txt" 2>&1
  cat "$out/bench.txt"
fi

step "headless app"
check lifestreams --headless --frames 300 --screenshot "$out/default.png" --report "$out/default.json"
printf 'panel off\nframes 1000\n' >"$out/nopanel.script"
for n in 16 64; do
  check lifestreams --headless --instances "$n" --frames 1000 --report "$out/inst$n.json"
  check lifestreams --headless --instances "$n" --script "$out/nopanel.script" --report "$out/inst$n-nopanel.json"
done
check lifestreams --headless --instances 64 --timing-period 8 --frames 1000 --report "$out/inst64-timed8.json"
check lifestreams --headless --instances 1 --variant bitpacked --width 131072 --height 131072 --frames 200 \
  --report "$out/big.json"
check lifestreams --headless --instances 16 --display-path textbook --frames 300 --report "$out/inst16-textbook.json"
field() { grep -o "\"$1\": [0-9.e+-]*" "$2" | head -n 1 | sed 's/.*: //'; }
printf '%-26s %9s %9s %9s %9s\n' report fps loop/tile fill/tile textbook/tile
for f in "$out"/*.json; do
  case $f in *bench.json) continue ;; esac
  printf '%-26s %9s %9s %9s %9s\n' "$(basename "$f")" "$(field fps "$f")" "$(field loop_ms_per_tile "$f")" \
    "$(field interop_ms_per_tile "$f")" "$(field textbook_ms_per_tile "$f")"
done
# Last: the sanitizers take the longest (racecheck above all).
if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
  step "compute-sanitizer suite"
  LOG_DIR="$out/sanitize" check scripts/sanitize.sh "$(command -v ls_sanitize_suite)"
fi
exit $status
