#!/bin/sh
# keys.sh APP DIR — run under an X server (xvfb-run): starts the app in a window, sends real key
# presses with xdotool (Space pauses, = adds an instance, N steps once, Esc quits) and leaves the
# app's --report in DIR/report.json for test_app.cpp to check.
set -eu
app=$1
dir=$2
cd "$dir"
"$app" --backend cpu --width 128 --height 128 --size 900x600 --vsync off --report report.json 2>app.err &
pid=$!
# The window appears (mapped, so that it can take the focus) within seconds; a dead app must fail
# the test, not hang it.
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^lifestreams$' | head -n 1)
if [ -z "$wid" ]; then
  echo "keys.sh: no lifestreams window appeared" >&2
  kill "$pid" 2>/dev/null || true
  wait "$pid" || true
  exit 1
fi
xdotool windowfocus --sync "$wid" 2>/dev/null || xdotool windowfocus "$wid"
# Let it run a while, so the first four instances are past generation 0.
sleep 1
xdotool key space
sleep 0.5
xdotool key equal
sleep 0.5
xdotool key n
sleep 0.5
xdotool key Escape
timeout 30 tail --pid="$pid" -f /dev/null
wait "$pid"
