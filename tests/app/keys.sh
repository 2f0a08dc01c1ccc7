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
wid=$(xdotool search --sync --name '^lifestreams$' | head -n 1)
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
wait "$pid"
