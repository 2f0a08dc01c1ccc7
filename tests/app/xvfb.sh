#!/bin/sh
# xvfb.sh START COMMAND [ARG...] — runs COMMAND under a fresh Xvfb (1280x800x24, or $LS_XVFB_SCREEN
# such as 1280x720x24) from xvfb-run -a,
# searching for a free display from START upwards (-n before -a: xvfb-run's -a searches from the
# number set so far; tests run in parallel start at distinct numbers), and exits with COMMAND's status; when COMMAND fails, the server's log goes to stderr.
# -noreset: by default Xvfb resets itself whenever its last client disconnects, and the reset also
# drops any client that has connected but not yet been answered (xorg/xserver issue 1102). The
# tests' first clients (xdotool's calls, the app) come and go in any order, so without it the app
# or xdotool now and then found no display ("Failed to open display", "Can't open display": seen
# in CI and under load).
set -u
start=$1
shift
xvfb-run -n "$start" -a -e xvfb.log -s "-screen 0 ${LS_XVFB_SCREEN:-1280x800x24} -noreset" "$@"
status=$?
if [ "$status" -ne 0 ]; then
  echo "xvfb.sh: $1 exited with status $status; the X server said:" >&2
  cat xvfb.log >&2
fi
exit "$status"
