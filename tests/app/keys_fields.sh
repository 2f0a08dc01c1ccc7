#!/bin/sh
# keys_fields.sh APP DIR [SCENARIO] — run under an X server (xvfb-run): starts the app in a
# window, types into panel fields with real keys (xdotool) and leaves what a test checks in DIR:
# the app's --report in DIR/report.json, and the count of screenshots the S key saved.
#   rule (default): Rule (all) (at 300,119 in the 900x600 window) gets B3/S2x + Enter, which is
#           refused: the field keeps the keyboard, so S and Tab that follow go to it (no screenshot:
#           DIR/shots-refused holds 0). Esc leaves the next field; Rule (all) then gets B36/S23 +
#           Enter, which applies and gives the keys back to the tiles: S saves one screenshot
#           (DIR/shots-applied holds 1); Ctrl+Q quits.
#   count: the Instances slider (at 250,73) typed into (Ctrl+click) with 99 + Enter, refused (1..64):
#           S goes to the field, not the tiles (DIR/shots-refused holds 0); Esc, then Ctrl+Q.
#   seed: Space pauses, then Seed (at 190,208) gets 7 + Enter: every instance starts again from a
#           new soup at generation 0 (the report), without Reset all; Ctrl+Q quits.
set -eu
app=$1
dir=$2
scenario=${3:-rule}
cd "$dir"
"$app" --backend cpu --width 128 --height 128 --size 900x600 --vsync off --report report.json 2>app.err &
pid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^lifestreams$' | head -n 1)
if [ -z "$wid" ]; then
  echo "keys_fields.sh: no lifestreams window appeared" >&2
  kill "$pid" 2>/dev/null || true
  wait "$pid" || true
  exit 1
fi
xdotool windowfocus --sync "$wid" 2>/dev/null || xdotool windowfocus "$wid"
sleep 1
# Keys held for a while: Dear ImGui 1.86 sees key state once a frame, and a press released within
# the same poll would not reach a text field.
hold() {
  xdotool keydown "$1"
  sleep 0.15
  xdotool keyup "$1"
  sleep 0.2
}
edit() {
  xdotool mousemove --window "$wid" "$1" "$2" click 1
  sleep 0.3
  hold ctrl+a
  xdotool type --delay 40 "$3"
  sleep 0.3
}
shots() {
  find . -maxdepth 1 -name 'lifestreams*.png' | wc -l | tr -d ' ' >"$1"
}
case $scenario in
  rule)
    edit 300 119 B3/S2x
    hold Return
    hold s
    hold Tab
    sleep 0.5
    shots shots-refused
    hold Escape
    edit 300 119 B36/S23
    hold Return
    sleep 0.3
    hold s
    sleep 1
    shots shots-applied
    ;;
  count)
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
hold ctrl+q
timeout 30 tail --pid="$pid" -f /dev/null
wait "$pid"
