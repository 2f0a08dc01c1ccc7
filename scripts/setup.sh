#!/usr/bin/env bash
# Installs the Debian packages lifestreams needs to build, run and test. Idempotent: it asks apt only
# for what is missing, so a second run on a set-up machine does nothing. Runs as root (or via sudo).
set -euo pipefail

packages=(
  cmake ninja-build pkg-config g++ python3
  libglfw3-dev libimgui-dev python3-glad libcli11-dev libstb-dev libgtest-dev
  libegl-dev libgl-dev zlib1g-dev python3-matplotlib
  libopenmpi-dev openmpi-bin
  xvfb xauth xdotool libgl1-mesa-dri libegl-mesa0 libglx-mesa0
)
# Optional extras: the fuzz and sanitizer builds (clang, libFuzzer runtime).
if [ "${LIFESTREAMS_FUZZ:-0}" = 1 ]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# apt's own lines (-q: no progress bars) show that the minutes this can take are going somewhere.
echo "setup: apt-get update"
$sudo apt-get update -q
echo "setup: apt-get install (${#missing[@]} packages)"
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup: done"
