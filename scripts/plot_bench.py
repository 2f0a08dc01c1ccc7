#!/usr/bin/env python3
"""plot_bench.py — draws a `lifestreams bench --json` file as a chart (PNG).

    scripts/plot_bench.py bench.json chart.png

Cell updates per second on a log scale, one bar per variant, grouped by what the bench compares
(lattice size, instance count, stream mode, timing period): single instances by lattice size on
the left, many instances on the right when the run has them. Where a variant ran at several k
(generations per launch), its best k is drawn and named. Each bar says how many times the naive
kernel of the same group it reaches. Dashed lines: the memory roof of the same run for each cell
layout (the measured copy bandwidth over one generation's compulsory bytes per cell), the rate at
which one generation per pass would be bound by memory.

Needs matplotlib (Debian: python3-matplotlib). Exit status: 0 written, 1 bad input, 2 usage.
"""
import json
import sys
from collections import OrderedDict

VARIANTS = ["naive", "global", "shared", "iterate", "bitpacked"]
# One colour per variant (Okabe-Ito, readable by colour-blind people); naive grey, the baseline.
COLOURS = {
    "naive": "#999999",
    "global": "#56B4E9",
    "shared": "#009E73",
    "iterate": "#E69F00",
    "bitpacked": "#D55E00",
}
ROW_FIELDS = ["variant", "width", "height", "instances", "stream_mode", "generations_per_launch",
              "timing_period", "cups", "roof_fraction"]


class BadInput(Exception):
    pass


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise BadInput(f"{path}: cannot read ({e.strerror})")
    except json.JSONDecodeError as e:
        raise BadInput(f"{path}: not JSON ({e})")
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise BadInput(f"{path}: not a lifestreams bench file (no \"rows\" list)")
    rows = []
    for i, row in enumerate(doc["rows"]):
        missing = [k for k in ROW_FIELDS if k not in row]
        if missing:
            raise BadInput(f"{path}: row {i} lacks {', '.join(missing)}")
        if row["variant"] not in VARIANTS:
            raise BadInput(f"{path}: row {i}: unknown variant {row['variant']!r}")
        if not row["cups"] or row["cups"] <= 0:
            continue  # a row that measured nothing has no place on a log scale
        rows.append(row)
    if not rows:
        raise BadInput(f"{path}: no rows with cell updates/s to draw")
    return doc, rows


def group_key(row):
    return (row["width"], row["height"], row["instances"], row["stream_mode"], row["timing_period"])


def group_label(key, show_mode):
    w, h, n, mode, period = key
    size = f"{w}²" if w == h else f"{w}×{h}"
    label = size if n == 1 else f"{n} × {size}"
    if show_mode:
        label += f"\n{mode}"
    if period != 1:
        label += f"\ntimed 1/{period}"
    return label


def best_rows(rows):
    """Per group (in the run's order), per variant, the row of the best k."""
    groups = OrderedDict()
    for row in rows:
        best = groups.setdefault(group_key(row), {})
        old = best.get(row["variant"])
        if old is None or row["cups"] > old["cups"]:
            best[row["variant"]] = row
    return groups


def roofs(rows, roof_gbps):
    """Memory roof (cell updates/s, one generation per pass) per compulsory bytes per cell, with
    the variants of that layout. Bytes per cell come from the bench's own roof fraction."""
    layouts = {}
    for row in rows:
        if row["roof_fraction"] > 0:
            bytes_per_cell = round(roof_gbps * 1e9 * row["roof_fraction"] / row["cups"], 2)
            layouts.setdefault(bytes_per_cell, set()).add(row["variant"])
    return {b: (roof_gbps * 1e9 / b, sorted(v, key=VARIANTS.index)) for b, v in layouts.items()}


def draw_panel(ax, groups, roof_lines, show_mode):
    keys = list(groups)
    variants = [v for v in VARIANTS if any(v in groups[k] for k in keys)]
    width = 0.8 / len(variants)
    for gi, key in enumerate(keys):
        naive = groups[key].get("naive")
        for vi, variant in enumerate(variants):
            row = groups[key].get(variant)
            if row is None:
                continue
            x = gi + (vi - (len(variants) - 1) / 2) * width
            ax.bar(x, row["cups"], width * 0.92, color=COLOURS[variant], zorder=3)
            notes = []
            k = row["generations_per_launch"]
            if k > 1:
                notes.append(f"k={k}")
            if naive is not None and variant != "naive":
                notes.append(f"{row['cups'] / naive['cups']:.0f}×")
            if notes:
                ax.annotate("\n".join(notes), (x, row["cups"]), xytext=(0, 2), textcoords="offset points",
                            ha="center", va="bottom", fontsize=6.5, color="#333333")
    for bytes_per_cell, (cups, variants_here) in sorted(roof_lines.items()):
        colour = COLOURS[variants_here[-1]]
        ax.axhline(cups, color=colour, linestyle="--", linewidth=1, zorder=2)
        ax.annotate(f"roof {bytes_per_cell:g} B/cell ({', '.join(variants_here)})", (1.0, cups),
                    xycoords=("axes fraction", "data"), xytext=(-3, 2), textcoords="offset points",
                    ha="right", va="bottom", fontsize=7, color=colour, zorder=4,
                    bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})
    ax.set_yscale("log")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([group_label(k, show_mode) for k in keys], fontsize=8)
    ax.grid(axis="y", which="major", color="#dddddd", zorder=0)
    ax.set_xlim(-0.6, len(keys) - 0.4)


def plot(doc, rows, out):
    import matplotlib

    matplotlib.use("Agg")  # no display: write the file only
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    groups = best_rows(rows)
    single = OrderedDict((k, v) for k, v in groups.items() if k[2] == 1)
    many = OrderedDict((k, v) for k, v in groups.items() if k[2] > 1)
    panels = [p for p in ((single, "one instance, by lattice size"), (many, "many instances")) if p[0]]
    widths = [max(len(p[0]), 2) for p in panels]
    fig, axes = plt.subplots(1, len(panels), figsize=(5 + 1.6 * sum(widths), 6.2), sharey=True,
                             gridspec_kw={"width_ratios": widths}, squeeze=False)
    roof_lines = roofs(rows, float(doc.get("roof_gbps") or 0)) if doc.get("roof_gbps") else {}
    for ax, (groups_here, subtitle) in zip(axes[0], panels):
        modes = {k[3] for k in groups_here}
        draw_panel(ax, groups_here, roof_lines, show_mode=len(modes) > 1 or subtitle == "many instances")
        ax.set_title(subtitle, fontsize=10)
    # Log-scale bars start at the axis' bottom: put it under the slowest bar drawn (the automatic
    # limit cut off a 3.9e10 naive bar), with room above the fastest for its note.
    drawn = [r["cups"] for g in groups.values() for r in g.values()]
    axes[0][0].set_ylim(min(drawn) / 2, max(drawn) * 3)
    axes[0][0].set_ylabel("cell updates per second (log scale)")
    fig.supxlabel("lattice (and instances, stream mode) — bars: each variant's best k; "
                  "×: vs the naive kernel of the same group", fontsize=8)

    device = doc.get("device") or "unknown device"
    details = [f"driver {doc['driver']}" if doc.get("driver") else "",
               f"CUDA {doc['cuda']}" if doc.get("cuda") else "",
               f"memory roof {doc['roof_gbps']:.0f} GB/s" if doc.get("roof_gbps") else ""]
    rule = rows[0].get("rule")
    if rule:
        details.append(f"rule {rule}")
    fig.suptitle(f"lifestreams bench: cell updates/s on {device}\n"
                 + ", ".join(d for d in details if d), fontsize=11)
    used = [v for v in VARIANTS if any(r["variant"] == v for r in rows)]
    handles = [Patch(color=COLOURS[v], label=v) for v in used]
    if roof_lines:
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], color="#555555", linestyle="--", label="memory roof, 1 generation/pass"))
    fig.legend(handles=handles, loc="upper right", fontsize=8, ncol=1, bbox_to_anchor=(0.995, 0.995))
    fig.tight_layout(rect=(0, 0.02, 0.9, 0.93))
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print("usage: plot_bench.py BENCH.json CHART.png", file=sys.stderr)
        return 2
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("plot_bench.py: needs matplotlib (Debian: apt-get install python3-matplotlib)", file=sys.stderr)
        return 1
    try:
        doc, rows = load(argv[1])
        plot(doc, rows, argv[2])
    except BadInput as e:
        print(f"plot_bench.py: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"plot_bench.py: {argv[2]}: cannot write ({e.strerror})", file=sys.stderr)
        return 1
    print(f"plot_bench.py: wrote {argv[2]} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
