#!/bin/sh
# window.sh APP FAKE_WM DIR SCENARIO — run under an X server (xvfb-run): starts the app in a window
# and does to the window what a person and a window manager do, then lets it quit:
#   resize:   1x1 and back, thin and tall, several times, then a close request mid-frame;
#   minimise: minimised and restored (CPU ticks spent while minimised go to DIR/idle_ticks),
#             minimised again and closed while minimised;
#   ctrl-q:   resized to 1x1, Ctrl+Q pressed;
#   destroy:  the window destroyed by another client (XDestroyWindow, not a close request);
#   destroy-screenshot: the same, with --screenshot shot.png asked for (nothing left to draw it on);
#   fit:      opened at the default size (no --size), its geometry written to DIR/geometry
#             (xdotool getwindowgeometry --shell), then closed.
# Leaves the app's --report in DIR/report.json and its stderr in DIR/app.err.
set -eu
app=$1
wm=$2
dir=$3
scenario=$4
cd "$dir"
shot=
[ "$scenario" != destroy-screenshot ] || shot=shot.png
size=900x600
[ "$scenario" != fit ] || size=
"$app" --backend cpu --width 128 --height 128 ${size:+--size "$size"} --vsync off --report report.json \
  ${shot:+--screenshot "$shot"} 2>app.err &
pid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^lifestreams$' | head -n 1)
if [ -z "$wid" ]; then
  echo "window.sh: no lifestreams window appeared" >&2
  kill "$pid" 2>/dev/null || true
  wait "$pid" || true
  exit 1
fi
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
sleep 0.5
case $scenario in
  resize)
    for i in 1 2 3; do
      xdotool windowsize "$wid" 1 1
      sleep 0.3
      xdotool windowsize "$wid" 900 600
      sleep 0.3
    done
    xdotool windowsize "$wid" 1 600
    sleep 0.2
    xdotool windowsize "$wid" 900 1
    sleep 0.2
    xdotool windowsize "$wid" 900 600
    sleep 0.3
    "$wm" close "$wid"
    ;;
  minimise)
    "$wm" iconify "$wid"
    sleep 0.3
    before=$(ticks)
    sleep 1
    after=$(ticks)
    echo $((after - before)) >idle_ticks
    "$wm" restore "$wid"
    sleep 0.5
    "$wm" iconify "$wid"
    sleep 0.3
    "$wm" close "$wid"
    ;;
  ctrl-q)
    xdotool windowsize "$wid" 1 1
    sleep 0.3
    xdotool windowfocus --sync "$wid" 2>/dev/null || xdotool windowfocus "$wid"
    xdotool key ctrl+q
    ;;
  destroy | destroy-screenshot)
    xdotool windowclose "$wid"
    ;;
  fit)
    xdotool getwindowgeometry --shell "$wid" >geometry
    "$wm" close "$wid"
    ;;
esac
timeout 30 tail --pid="$pid" -f /dev/null
wait "$pid"
