#!/usr/bin/env bash
# multi-gpu-check.sh — on the GPU machine (after `source .dev/env.sh`, with lifestreams and
# ls_multi_gpu_tests on PATH): the split-lattice GPU tests, `lifestreams run --devices 0,1` (and
# `--devices 0,1,2,3` where there are four GPUs) against `--devices 0` on random soups (every output
# line but the header must match), a device fault over every GPU (exit 3, every instance saved),
# and the bench rows for split and spread instances over every GPU (each row's final hashes must
# equal the one-GPU run's). Prints a short table at the end; logs go to ${OUT:-/tmp}/multi-check.
set -u
logs="${OUT:-/tmp}/multi-check"
mkdir -p "$logs"
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
lists=("0,1")
[ "$gpus" -ge 4 ] && lists+=("0,1,2,3")
[ "$gpus" -ge 2 ] || lists=("0")
list=${lists[-1]}  # the bench and the fault run over the most GPUs
results=()

if ls_multi_gpu_tests >"$logs/gpu-tests.txt" 2>&1; then
  results+=("gpu tests|pass|$(grep -c '^\[       OK' "$logs/gpu-tests.txt") ok")
else
  results+=("gpu tests|FAIL|$(grep '^\[  FAILED' "$logs/gpu-tests.txt" | head -3 | tr '\n' ' ')")
fi

for devices in "${lists[@]}"; do
  same=0 differ=0
  for v in bitpacked iterate shared global naive; do
    for seed in 1 7 42; do
      args="--width 2048 --height 2048 --seed $seed --density 0.3 --variant $v --generations 300 --every 100"
      [ "$seed" = 7 ] && args="$args --rule B36/S23 --generations-per-launch 7"
      lifestreams run $args --devices 0 >"$logs/one-$v-$seed.txt" 2>&1
      lifestreams run $args --devices "$devices" >"$logs/split-$v-$seed.txt" 2>&1
      if diff <(tail -n +2 "$logs/one-$v-$seed.txt") <(tail -n +2 "$logs/split-$v-$seed.txt") >/dev/null &&
        [ "$(wc -l <"$logs/one-$v-$seed.txt")" -ge 4 ]; then
        same=$((same + 1))
      else
        differ=$((differ + 1))
        echo "differs: $v seed $seed over $devices (see $logs/*-$v-$seed.txt)"
      fi
    done
  done
  results+=("run --devices $devices vs 0|$([ $differ = 0 ] && echo pass || echo FAIL)|$same same, $differ differ")
done

# A device fault while instances run on every GPU: exit 3, and a saved file per instance.
fault_dir="$logs/fault"
mkdir -p "$fault_dir"
(cd "$fault_dir" && rm -f ./*.rle &&
  lifestreams --headless --backend cuda --devices "$list" --instances 8 --width 1024 --height 1024 \
    --test-fault-at-frame 40 >fault.txt 2>&1)
rc=$?
saved=$(find "$fault_dir" -maxdepth 1 -name "*.rle" | wc -l)
results+=("fault over $list|$([ $rc = 3 ] && [ "$saved" = 8 ] && echo pass || echo FAIL)|exit $rc, $saved of 8 saved")

# On one GPU the multi-GPU rows run as two bands / two engines of it (--test-bands, tests only).
bands=()
[ "$gpus" -ge 2 ] || bands=(--test-bands 2)
if lifestreams bench --devices "$list" "${bands[@]}" --json "$logs/bench.json" >"$logs/bench.txt" 2>&1; then
  if grep -q ' NO ' "$logs/bench.txt"; then
    results+=("bench --devices $list|FAIL|a row's final hash differs from the one-GPU run's")
  else
    results+=("bench --devices $list|pass|every row's hashes equal the one-GPU run's; see below")
  fi
else
  results+=("bench --devices $list|FAIL|$(tail -1 "$logs/bench.txt")")
fi

printf '%-28s %-5s %s\n' check result detail
for r in "${results[@]}"; do IFS='|' read -r a b c <<<"$r"; printf '%-28s %-5s %s\n' "$a" "$b" "$c"; done
grep -E '^(layout|split|spread)[ -]' "$logs/bench.txt" | head -30
