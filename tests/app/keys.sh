#!/bin/sh
# keys.sh APP DIR [SCENARIO] — run under an X server (xvfb-run): starts the app in a window, sends
# real key presses with xdotool and leaves the app's --report in DIR/report.json for test_app.cpp:
#   keys (default): Space pauses, = adds an instance, N steps once, Ctrl+Q quits;
#   typing: the rule field (at 300,119 in the 900x600 window) gets B36/S23 + Enter, then B2/S +
#           Esc, which must cancel the edit and leave the app running (DIR/alive), then Ctrl+Q;
#   escape: Esc with the Variant (all) dropdown open (DIR/alive-popup), with the help open
#           (DIR/alive-help) and with nothing open (DIR/alive-nothing) leaves the app running;
#   unsaved: a cell drawn (Ctrl+click on instance 0's tile), then Ctrl+Q asks (DIR/alive-asked),
#           Esc stays (DIR/alive-stayed), Ctrl+Q asks again and Enter quits;
#   refused-rule: Rule (all) gets B3/S2x + Enter, which is refused: the field keeps the keyboard,
#           so S and Tab that follow go to it (no screenshot: DIR/shots-refused holds 0). Esc leaves
#           the field; Rule (all) then gets B36/S23 + Enter, which applies and gives the keys back
#           to the tiles: S saves one screenshot (DIR/shots-applied holds 1);
#   refused-count: the Instances slider (at 250,73) typed into (Ctrl+click) with 99 + Enter,
#           refused (1..64): S goes to the field, not the tiles (DIR/shots-refused holds 0);
#   seed: Space pauses, then Seed (at 190,208) gets 7 + Enter: every instance starts again from a
#           new soup at generation 0 (the report), without Reset all.
set -eu
app=$1
dir=$2
scenario=${3:-keys}
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
# Keys held for a while: Dear ImGui 1.86 sees key state once a frame, and a press released within
# the same poll would not reach a text field.
hold() {
  xdotool keydown "$1"
  sleep 0.15
  xdotool keyup "$1"
  sleep 0.2
}
# Clicks the field at ($1, $2), selects its text and types $3.
edit() {
  xdotool mousemove --window "$wid" "$1" "$2" click 1
  sleep 0.3
  hold ctrl+a
  xdotool type --delay 40 "$3"
  sleep 0.3
}
edit_rule() { edit 300 119 "$1"; }
# The screenshots the S key saved so far, into file $1.
shots() {
  find . -maxdepth 1 -name 'lifestreams*.png' | wc -l | tr -d ' ' >"$1"
}
alive() {
  if kill -0 "$pid" 2>/dev/null; then echo yes >"$1"; fi
}
case $scenario in
  keys)
    xdotool key space
    sleep 0.5
    xdotool key equal
    sleep 0.5
    xdotool key n
    sleep 0.5
    ;;
  typing)
    edit_rule B36/S23
    hold Return
    edit_rule B2/S
    hold Escape
    alive alive
    ;;
  escape)
    # The Variant (all) dropdown's box (the panel is 405 px wide in a 900 px window).
    xdotool mousemove --window "$wid" 300 96 click 1
    sleep 0.5
    hold Escape
    sleep 0.5
    alive alive-popup
    hold F1
    sleep 0.3
    hold Escape
    sleep 0.5
    alive alive-help
    hold Escape
    sleep 0.5
    alive alive-nothing
    ;;
  unsaved)
    xdotool mousemove --window "$wid" 520 150 keydown ctrl click 1 keyup ctrl
    sleep 0.5
    hold ctrl+q
    sleep 0.5
    alive alive-asked
    hold Escape
    sleep 0.3
    alive alive-stayed
    hold ctrl+q
    sleep 0.3
    hold Return
    ;;
  refused-rule)
    edit_rule B3/S2x
    hold Return
    hold s
    hold Tab
    sleep 0.5
    shots shots-refused
    hold Escape
    edit_rule B36/S23
    hold Return
    sleep 0.3
    hold s
    sleep 1
    shots shots-applied
    ;;
  refused-count)
    xdotool mousemove --window "$wid" 250 73 keydown ctrl click 1 keyup ctrl
    sleep 0.3
    hold ctrl+a
    xdotool type --delay 40 99
    sleep 0.3
    hold Return
    hold s
    sleep 0.5
    shots shots-refused
    hold Escape
    ;;
  seed)
    hold space
    sleep 0.3
    edit 190 208 7
    hold Return
    sleep 0.5
    ;;
esac
[ "$scenario" = unsaved ] || xdotool key ctrl+q
timeout 30 tail --pid="$pid" -f /dev/null
wait "$pid"
