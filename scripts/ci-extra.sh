#!/usr/bin/env bash
# The CI checks beyond scripts/test.sh: the host code's tests under AddressSanitizer and
# UndefinedBehaviorSanitizer (preset `asan`, CUDA off), then each libFuzzer target for about 30 s
# on its corpus (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== host tests under ASan + UBSan =="
# Mesa's and X's client libraries keep allocations until exit; their leaks are not ours. The full
# (slow) unwind on malloc names the driver even after it was unloaded: with the fast one, a 128-byte
# leak in Mesa under the in-process GL tests (Tiles.*) showed as "<unknown module>" and escaped the
# suppressions. The programs the tests start take the fast unwind back (tests/support/app_test_util.hpp).
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Every test runs with the leak check on; the programs the app tests start run without it (see
# tests/support/app_test_util.hpp: their GL drivers' allocations cannot be attributed).
PRESET=asan scripts/test.sh
if [ -x scripts/fuzz.sh ]; then
  echo "== fuzz targets, 30 s each =="
  scripts/fuzz.sh 30
fi
