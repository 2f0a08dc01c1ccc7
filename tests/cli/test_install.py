#!/usr/bin/env python3
"""`cmake --install` gives a program that runs from anywhere: installed into a fresh prefix, with the
working directory elsewhere, it prints the build tree's --version and the same `run` lines as the
build tree's program; the data files, desktop entry, icon, man page and docs lie under the prefix
where the desktop and `man` look for them; with the GUI built, a --headless frame renders from the
installed shaders, and without them the program does not fall back on the working directory's.

Usage: test_install.py CMAKE SOURCE_DIR BUILD_DIR LIFESTREAMS HAVE_GUI
"""
import os
import subprocess
import sys
import tempfile

RUN = ["run", "--backend", "cpu", "--width", "64", "--height", "64", "--generations", "4"]


def main():
    cmake, source_dir, build_dir, built = sys.argv[1:5]
    have_gui = sys.argv[5] == "1"
    with tempfile.TemporaryDirectory(prefix="lifestreams-install-") as tmp:
        prefix, elsewhere = os.path.join(tmp, "prefix"), os.path.join(tmp, "elsewhere")
        os.mkdir(elsewhere)
        inst = subprocess.run([cmake, "--install", build_dir, "--prefix", prefix], capture_output=True,
                              text=True, timeout=120)
        if inst.returncode != 0:
            print(f"FAILED: cmake --install: exit {inst.returncode}: {inst.stderr}")
            return 1
        installed = os.path.join(prefix, "bin", "lifestreams")
        env = {k: v for k, v in os.environ.items() if k not in ("LIFESTREAMS_DATA_DIR", "DISPLAY",
                                                                "WAYLAND_DISPLAY")}
        # Under the sanitizer build (scripts/ci-extra.sh) the programs run as the app tests start
        # them: no leak check (the GL driver's allocations are not ours) and the fast unwind on
        # malloc, without which Mesa's shader compiler takes minutes.
        if "ASAN_OPTIONS" in env:
            env["ASAN_OPTIONS"] += ":detect_leaks=0"
        if "LSAN_OPTIONS" in env:
            env["LSAN_OPTIONS"] += ":fast_unwind_on_malloc=1"

        def both(args):
            a = subprocess.run([built, *args], capture_output=True, text=True, timeout=120, env=env,
                               cwd=elsewhere)
            b = subprocess.run([installed, *args], capture_output=True, text=True, timeout=120, env=env,
                               cwd=elsewhere)
            return a, b

        for args in (["--version"], RUN):
            a, b = both(args)
            if b.returncode != 0 or b.stdout != a.stdout or b.stderr != "":
                print(f"FAILED: installed `{' '.join(args)}`: exit {b.returncode}, stdout {b.stdout!r} "
                      f"(the build tree's: {a.stdout!r}), stderr {b.stderr!r}")
                return 1
        if "hash=0x" not in b.stdout:
            print(f"FAILED: no hash line from the installed run: {b.stdout!r}")
            return 1

        wanted = ["share/man/man1/lifestreams.1", "share/doc/lifestreams/README.md",
                  "share/doc/lifestreams/command-line.md"]
        if have_gui:
            wanted += ["share/lifestreams/shaders/tile.frag", "share/lifestreams/assets/fonts/DejaVuSans.ttf",
                       "share/lifestreams/assets/patterns/glider.rle", "share/applications/lifestreams.desktop",
                       "share/icons/hicolor/scalable/apps/lifestreams.svg"]
        missing = [w for w in wanted if not os.path.isfile(os.path.join(prefix, w))]
        if missing:
            print(f"FAILED: not installed: {missing}")
            return 1

        if have_gui:
            shot = os.path.join(elsewhere, "x.png")
            r = subprocess.run([installed, "--headless", "--backend", "cpu", "--width", "64", "--height", "64",
                                "--frames", "3", "--screenshot", shot], capture_output=True, text=True,
                               timeout=120, env=env, cwd=elsewhere)
            if r.returncode != 0 or not os.path.isfile(shot):
                print(f"FAILED: installed --headless: exit {r.returncode}, stderr {r.stderr!r}")
                return 1
            # The working directory is no data root: from the source tree, with its data moved
            # away, the installed program says where it looked (exit 3) rather than use the tree's.
            data = os.path.join(prefix, "share", "lifestreams")
            os.rename(data, data + ".aside")
            r = subprocess.run([installed, "--headless", "--backend", "cpu", "--frames", "1"],
                               capture_output=True, text=True, timeout=120, env=env, cwd=source_dir)
            if r.returncode != 3 or "cannot find the app's 'shaders' folder" not in r.stderr:
                print(f"FAILED: without its data, from the source tree: exit {r.returncode}, stderr {r.stderr!r}")
                return 1
    print("ok: the installed program matches the build tree's and finds its data")
    return 0


if __name__ == "__main__":
    sys.exit(main())
