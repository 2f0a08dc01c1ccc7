#!/usr/bin/env python3
"""`lifestreams run`'s progress line: on a terminal (a pty) a run of more than 2 s keeps one status
line on stderr (generation, cell updates/s, time left; \\r-redrawn) and clears it at the end, while
stdout's lines are those of the same run with stderr not a terminal, where stderr stays empty.

Usage: test_progress_line.py LIFESTREAMS
"""
import os
import pty
import subprocess
import sys
import time


def args(generations):
    return ["run", "--backend", "cpu", "--width", "2048", "--height", "2048", "--generations",
            str(generations), "--every", str(generations // 2)]


def main():
    exe = sys.argv[1]
    # Long enough to pass the 2 s after which the line shows, on this machine.
    generations = 2000
    while True:
        start = time.monotonic()
        plain = subprocess.run([exe, *args(generations)], capture_output=True, text=True, timeout=300)
        took = time.monotonic() - start
        if took >= 3.5 or plain.returncode != 0:
            break
        generations = int(generations * 4.0 / max(took, 0.1)) // 2 * 2 + 2
    ARGS = args(generations)
    if plain.returncode != 0 or plain.stderr != "":
        print(f"FAILED: without a terminal: exit {plain.returncode}, stderr {plain.stderr!r}")
        return 1
    master, slave = pty.openpty()
    p = subprocess.Popen([exe, *ARGS], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the pty's other side closed
            break
        if not chunk:
            break
        shown += chunk
    out, _ = p.communicate(timeout=300)
    os.close(master)
    text = shown.decode()
    if p.returncode != 0 or out.decode() != plain.stdout:
        print(f"FAILED: on a terminal: exit {p.returncode}, stdout differs: {out!r}")
        return 1
    if "\rgeneration " not in text:
        print(f"FAILED: no progress line on the terminal in a {took:.1f} s run: {text!r}")
        return 1
    if "cell updates/s" not in text or " s left" not in text or not text.endswith("\r\x1b[K"):
        print(f"FAILED: progress line malformed or not cleared: {text[-200:]!r}")
        return 1
    print(f"ok: {text.count(chr(13)) - 1} redraws in a {took:.1f} s run, cleared at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
