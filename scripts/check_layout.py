#!/usr/bin/env python3
"""check_layout.py — the shape of the code: no file in src/ or kernels/ over 500 lines, no function
there over 80 lines from its opening line to its closing brace, and every include going down the
layers (docs/architecture.md): a folder includes only the folders below it, and no program folder
(app, cli, bench) includes another.

Usage: check_layout.py [ROOT] [--max-file N] [--max-function N]
Prints one line per file or function over its limit and per include against the layers (path:line:
what) and exits 1 when there is any, 0 otherwise. Functions are found from the code's braces with comments, strings and character
literals blanked out: a brace opens a function body when the declaration before it ends its
parameter list (`)`, or `)` then const, override, noexcept, final or mutable) outside a function;
braces inside a function (lambdas, blocks) belong to it.
"""
import os
import re
import sys

SOURCE_DIRS = ("src", "kernels")
EXTENSIONS = (".cpp", ".hpp", ".cu", ".cuh", ".h")
SCOPE_WORDS = re.compile(r"^(template\s*<.*>\s*)?(namespace|class|struct|union|enum|extern)\b", re.S)
TRAILERS = {"const", "override", "noexcept", "final", "mutable"}

# What each folder may include besides itself (kernels/ is the top-level folder, the rest are under
# src/). The programs sit on the control layer; main.cpp (src/) dispatches between them.
BELOW_PROGRAMS = {"control", "core", "view", "kernels", "sim", "multi", "dist"}
LAYERS = {
    "core": set(),
    "view": set(),
    "counters": {"core"},
    "kernels": {"core"},
    "sim": {"core", "kernels"},
    "multi": {"core", "kernels", "sim"},
    "dist": {"core", "kernels", "sim", "multi"},
    "render": {"core", "view"},
    "ui": {"core", "view"},
    "interop": {"core", "kernels", "sim", "render", "view"},
    "control": {"core", "view", "kernels", "sim", "multi", "dist"},
    "cli": BELOW_PROGRAMS,
    "bench": BELOW_PROGRAMS,
    "app": BELOW_PROGRAMS | {"render", "ui", "interop", "counters"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.M)


def blank_out(text):
    """The text with comments, string and character literals turned into spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator: 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def is_function_header(header):
    h = re.sub(r"\s+", " ", header).strip()
    if not h or ")" not in h or SCOPE_WORDS.match(h):
        return False
    if re.match(r"^(if|for|while|switch|catch|do|else|return)\b", h):
        return False
    words = h.split(" ")
    while words and words[-1] in TRAILERS:
        words.pop()
    tail = " ".join(words)
    return tail.endswith(")") or re.search(r"\)\s*->\s*[\w:<>, *&]+$", tail) is not None


def functions(code):
    """(first line, last line) of each function body outside other functions, 1-based."""
    found = []
    line_of = []
    line = 1
    for ch in code:
        line_of.append(line)
        if ch == "\n":
            line += 1
    header_start = 0  # index where the text before the next brace at this level begins
    depth_kinds = []  # 'scope' (namespace, class, init braces...) per open brace outside functions
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c in ";}":
            if c == "}" and depth_kinds:
                depth_kinds.pop()
            header_start = i + 1
        elif c == "{":
            header = code[header_start:i]
            if is_function_header(header):
                depth, j = 1, i + 1
                while j < n and depth:
                    depth += {"{": 1, "}": -1}.get(code[j], 0)
                    j += 1
                first = header_start + (len(header) - len(header.lstrip()))
                found.append((line_of[first], line_of[min(j - 1, n - 1)]))
                i = j
                header_start = j
                continue
            depth_kinds.append("scope")
            header_start = i + 1
        i += 1
    return found


def main(argv):
    root = "."
    max_file, max_function = 500, 80
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--max-file":
            max_file = int(args.pop(0))
        elif a == "--max-function":
            max_function = int(args.pop(0))
        else:
            root = a
    problems = []
    for top in SOURCE_DIRS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith(EXTENSIONS):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                lines = text.count("\n") + (0 if text.endswith("\n") else 1)
                if lines > max_file:
                    problems.append(f"{rel}:1: {lines} lines (at most {max_file})")
                layer = rel.split(os.sep)[0] if top == "kernels" else rel.split(os.sep)[1]
                if layer in LAYERS:
                    for m in INCLUDE.finditer(text):
                        used = m.group(1)
                        if used != layer and used not in LAYERS[layer] and used in LAYERS:
                            line = text.count("\n", 0, m.start()) + 1
                            problems.append(f"{rel}:{line}: {layer} includes {used}/ (it may include "
                                            f"{', '.join(sorted(LAYERS[layer])) or 'nothing'} besides itself)")
                for first, last in functions(blank_out(text)):
                    length = last - first + 1
                    if length > max_function:
                        problems.append(f"{rel}:{first}: a function of {length} lines (at most {max_function})")
    for p in sorted(problems):
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
