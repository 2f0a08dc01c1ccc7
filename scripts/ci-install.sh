#!/usr/bin/env bash
# Installs a built tree into a temporary prefix and packages it (`cpack -G DEB`), moves the source
# tree's shaders and assets out of reach, then runs the installed program and the program unpacked
# from the package from another directory: --version, a `run`, and a headless screenshot through
# Mesa's EGL; and lists what the package holds. The folders come back however it ends.
#   scripts/ci-install.sh              (the build in build/, made by scripts/test.sh)
#   BUILD_DIR=build-sm90 scripts/ci-install.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$root/${BUILD_DIR:-build}" && pwd)
tmp=$(mktemp -d)
aside="$root/.data-aside"
restore() {
  for d in shaders assets; do
    if [ -e "$aside/$d" ]; then mv "$aside/$d" "$root/$d"; fi
  done
  rmdir "$aside" 2>/dev/null || true
  rm -rf "$tmp"
}
trap restore EXIT

echo "ci-install: cmake --install and cpack -G DEB"
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb" >/dev/null)
deb=$(ls "$tmp"/deb/lifestreams_*.deb)
dpkg-deb -x "$deb" "$tmp/unpacked"

mkdir -p "$aside" "$tmp/elsewhere"
mv "$root/shaders" "$root/assets" "$aside/"
cd "$tmp/elsewhere"
unset LIFESTREAMS_DATA_DIR DISPLAY WAYLAND_DISPLAY
for program in "$tmp/prefix/bin/lifestreams" "$tmp/unpacked/usr/bin/lifestreams"; do
  echo "ci-install: $program"
  "$program" --version
  "$program" run --backend cpu --width 64 --height 64 --generations 4
  if [ -d "$tmp/prefix/share/lifestreams/shaders" ]; then  # a build with the GUI
    rm -f shot.png
    "$program" --headless --backend cpu --width 64 --height 64 --frames 3 --screenshot shot.png
    test -s shot.png || { echo "ci-install: no screenshot from $program" >&2; exit 1; }
    echo "ci-install: headless screenshot $(stat -c %s shot.png) bytes"
  fi
done

echo "ci-install: $(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)"
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/lifestreams ./usr/share/lifestreams/shaders/tile.frag ./usr/share/man/man1/lifestreams.1 \
  ./usr/share/doc/lifestreams/README.md; do
  grep -q " $f\$" <<<"$contents" || { echo "ci-install: the package lacks $f" >&2; exit 1; }
done
echo "ci-install: ok"
