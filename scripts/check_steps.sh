# check_steps.sh — sourced by the device-machine checks (device-check.sh, graph-check.sh): the
# output folder ($1, else the default given), a status that any failed
# step sets, `step` to name a step and `check` to run one, and the device line first.
# Usage: source "$(dirname "$0")/check_steps.sh" DEFAULT_OUT "$@"
out=${2:-$1}
mkdir -p "$out"
status=0
step() { echo "== $1"; }
check() { "$@" || { echo "FAILED: $*"; status=1; }; }

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
