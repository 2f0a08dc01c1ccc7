#!/usr/bin/env python3
"""check_history_text.py — the product's text does not number the project's development runs or its
issues: no tracked text file matches, case-insensitively, `\\bsessions? [0-9]+` or
`\\bissues? #?[0-9]+\\b`, except where an upstream project names its own tracker just before
(`xorg/xserver issue 1102`). Write the constraint itself, or name a bench/NOTES.md section by topic.

Usage: check_history_text.py [ROOT]   (a git checkout; prints path:line: text per match, exit 1 if any)
"""
import re
import subprocess
import sys

PATTERN = re.compile(r"\bsessions? [0-9]+|\bissues? #?[0-9]+\b", re.IGNORECASE)
UPSTREAM = re.compile(r"[\w.-]+/[\w.-]+ $")  # "owner/project " right before the match


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    files = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
    found = 0
    for name in files.decode().split("\0"):
        if not name:
            continue
        try:
            with open(f"{root}/{name}", "rb") as f:
                data = f.read()
        except OSError:
            continue
        if b"\0" in data:
            continue  # binary
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for m in PATTERN.finditer(line):
                if UPSTREAM.search(line[: m.start()]):
                    continue
                print(f"{name}:{number}: {line.strip()}")
                found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
