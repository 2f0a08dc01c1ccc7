#!/usr/bin/env bash
# sanitize.sh — runs the CUDA engine's sanitizer suite (ls_sanitize_suite) under compute-sanitizer
# memcheck, racecheck, initcheck and synccheck, and fails on any error any of them reports.
#
# Usage: scripts/sanitize.sh [SUITE]   SUITE defaults to build/tests/sim/ls_sanitize_suite (or
#        ls_sanitize_suite on PATH). LOG_DIR=dir keeps each tool's full log there.
# Exit status: 0 all four clean, 1 an error was reported, 77 no CUDA device (nothing checked).
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
suite=${1:-}
if [ -z "$suite" ]; then
  if [ -x "$here/build/tests/sim/ls_sanitize_suite" ]; then suite=$here/build/tests/sim/ls_sanitize_suite
  else suite=$(command -v ls_sanitize_suite || true); fi
fi
[ -n "$suite" ] && [ -x "$suite" ] || { echo "sanitize.sh: no ls_sanitize_suite (build it, or pass its path)" >&2; exit 1; }
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$cs" ] || { echo "sanitize.sh: compute-sanitizer not found" >&2; exit 1; }
log_dir=${LOG_DIR:-$(mktemp -d)}
mkdir -p "$log_dir"

# A plain run first: a mismatch or a missing device is not a sanitizer finding.
"$suite" >"$log_dir/plain.log" 2>&1
rc=$?
if [ $rc -eq 77 ]; then echo "sanitize.sh: skipped: $(tail -n 1 "$log_dir/plain.log")"; exit 77; fi
if [ $rc -ne 0 ]; then echo "sanitize.sh: the suite fails without a sanitizer (status $rc):"; cat "$log_dir/plain.log"; exit 1; fi

status=0
for tool in memcheck racecheck initcheck synccheck; do
  extra=()
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  start=$(date +%s)
  timeout 600 "$cs" --tool "$tool" "${extra[@]}" --error-exitcode 1 "$suite" >"$log_dir/$tool.log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  summary=$(grep -E '^========= (ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY)' "$log_dir/$tool.log" | tr '\n' ' ')
  if [ $rc -eq 0 ] && ! grep -qE '^========= (Invalid|Program hit|Race|Uninitialized|Barrier|Leaked)' "$log_dir/$tool.log"; then
    echo "$tool: clean (${secs} s) ${summary}"
  else
    echo "$tool: FAILED (status $rc, ${secs} s) ${summary}"
    grep -E '^=========' "$log_dir/$tool.log" | head -n 40
    status=1
  fi
done
[ $status -eq 0 ] && echo "sanitize.sh: memcheck, racecheck, initcheck and synccheck are clean" \
                  || echo "sanitize.sh: errors reported (logs in $log_dir)"
exit $status
