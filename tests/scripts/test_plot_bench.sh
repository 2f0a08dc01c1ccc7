#!/bin/sh
# test_plot_bench.sh SOURCE_DIR — scripts/plot_bench.py draws the bench fixture as a valid PNG of a
# sensible size, and refuses a file that is not a bench file. Skips (status 77) without matplotlib.
set -u
src=$1
# Debian's matplotlib is for Debian's python3; a python3 earlier on PATH (pyenv) may lack it.
python=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c "import matplotlib" 2>/dev/null; then
    python=$p
    break
  fi
done
if [ -z "$python" ]; then
  echo "skipped: no python3 with matplotlib (Debian: python3-matplotlib)"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$python" "$src/scripts/plot_bench.py" "$src/tests/fixtures/bench_h200.json" "$out/chart.png" || exit 1
# PNG signature and IHDR size: at least 800x400 (readable), at most 4000x3000 (not absurd).
"$python" - "$out/chart.png" <<'PY' || exit 1
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
assert data[12:16] == b"IHDR", "no IHDR chunk first"
w, h = struct.unpack(">II", data[16:24])
assert 800 <= w <= 4000 and 400 <= h <= 3000, f"size {w}x{h}"
assert data.endswith(b"IEND\xaeB`\x82"), "no IEND chunk at the end"
assert len(data) > 20000, f"only {len(data)} bytes: nearly empty"
print(f"chart {w}x{h}, {len(data)} bytes")
PY
# Not a bench file: refused with a reason and status 1, nothing written.
echo '{"device": "x"}' >"$out/bad.json"
"$python" "$src/scripts/plot_bench.py" "$out/bad.json" "$out/bad.png" 2>"$out/err.txt"
status=$?
if [ "$status" -ne 1 ] || ! grep -q 'no "rows" list' "$out/err.txt" || [ -e "$out/bad.png" ]; then
  echo "a non-bench file gave status $status: $(cat "$out/err.txt")"
  exit 1
fi
echo "ok"
