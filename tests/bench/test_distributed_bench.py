#!/usr/bin/env python3
"""`lifestreams bench --distributed --backend cpu` under mpirun: the table and JSON of one lattice
over the ranks.

Usage: test_distributed_bench.py LIFESTREAMS CASE   (CASE: rows, weak, alone, bad-input, gpu)

Facts checked: on 1 and 2 ranks rank 0 alone prints the header (ending ` ranks=R`) and one row per
lattice with that lattice, R ranks and each rank's band rows (the partition of run --distributed),
and the JSON holds the same rows with "ranks": R, a positive rate equal to width x height x k over
the launch time, and the exchange fields; --rows-per-rank N makes the lattice W x N*R with bands of
N rows; alone (no mpirun) it is one rank; bad input is one line from rank 0 and exit 2 on every
rank; --device with --backend cpu is said once, not silently ignored. The gpu case runs the GPU
backend (NCCL) on the GPUs present. Exits 77 (ctest SKIP_RETURN_CODE) without mpirun (gpu: also
without GPUs or NCCL).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

# mpirun and the checks shared with the distributed-run tests (tests/dist/test_distributed_run.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dist"))
from test_distributed_run import SKIP, Failure, check, gpu_count, mpirun, run

# Small lattices: a launch takes well under a millisecond on one core, so a row is a fraction of a
# second even with the ranks oversubscribed.
SIZES = [(128, 128), (96, 320)]


def bench_rows(p, label):
    """The table's rows on stdout as dicts of the columns that identify them."""
    lines = p.stdout.splitlines()
    at = [i for i, line in enumerate(lines) if line.startswith("variant ")]
    check(len(at) == 1, f"{label}: no table header in {lines}")
    rows = []
    for line in lines[at[0] + 1:]:
        if line.startswith("skipped"):
            continue
        f = line.split()
        check(len(f) == 10, f"{label}: odd row {line!r}")
        rows.append({"variant": f[0], "lattice": f[1], "ranks": int(f[2]), "band_rows": int(f[3]), "k": int(f[4]),
                     "cups": float(f[5])})
    return lines[0], rows


def check_bench(p, label, ranks, lattices, band_rows, json_path, weak=False):
    check(p.returncode == 0, f"{label}: exit {p.returncode}: {p.stderr}")
    header, rows = bench_rows(p, label)
    check(header.startswith("lifestreams bench: ") and header.endswith(f" ranks={ranks}"),
          f"{label}: header {header!r}")
    check(p.stdout.count("lifestreams bench: ") == 1, f"{label}: more than one rank printed:\n{p.stdout}")
    check([r["lattice"] for r in rows] == [f"{w}x{h}" for w, h in lattices],
          f"{label}: rows {[r['lattice'] for r in rows]}, expected {lattices}")
    check(all(r["ranks"] == ranks and r["variant"] == "cpu" and r["k"] == 16 for r in rows), f"{label}: {rows}")
    check([r["band_rows"] for r in rows] == band_rows, f"{label}: band rows {[r['band_rows'] for r in rows]}")
    with open(json_path) as f:
        doc = json.load(f)
    check(doc["ranks"] == ranks and doc["backend"] == "cpu", f"{label}: JSON top {doc}")
    check(len(doc["rows"]) == len(lattices), f"{label}: {len(doc['rows'])} JSON rows")
    for row, (w, h), table in zip(doc["rows"], lattices, rows):
        check(row["ranks"] == ranks and row["width"] == w and row["height"] == h and row["weak_scaling"] == weak,
              f"{label}: JSON row {row}")
        check(row["band_rows"] == table["band_rows"], f"{label}: JSON band rows {row}")
        # The rate is the whole lattice's: every cell, k generations, per launch time.
        expect = w * h * row["generations_per_launch"] / (row["median_ms"] * 1e-3)
        check(row["cups"] > 0 and abs(row["cups"] - expect) <= 1e-4 * expect, f"{label}: cups {row}")
        check(abs(row["cups_per_rank"] * ranks - row["cups"]) <= 1e-4 * row["cups"], f"{label}: per rank {row}")
        check(row["frames_per_repeat"] >= 1 and row["exchanges_timed"] >= 1, f"{label}: {row}")
        check(row["exchange_us"] > 0 and row["no_exchange_ms"] > 0 and 0 <= row["exposed_fraction"] < 1,
              f"{label}: exchange fields {row}")
    print(f"ok: {label}: {header}; {len(rows)} rows")


def case_rows(exe, tmp):
    size_list = ",".join(f"{w}x{h}" for w, h in SIZES)
    for ranks, bands in [(1, [128, 320]), (2, [64, 160])]:
        out = os.path.join(tmp, f"bench{ranks}.json")
        p = mpirun(ranks, [exe, "bench", "--distributed", "--backend", "cpu", "--sizes", size_list, "--json", out])
        check_bench(p, f"{ranks} ranks", ranks, SIZES, bands, out)
    # 3 ranks over 320 rows (10 granules): bands of 128, 96 and 96; rank 0 reports its own.
    out = os.path.join(tmp, "bench3.json")
    p = mpirun(3, [exe, "bench", "--distributed", "--backend", "cpu", "--sizes", "96x320", "--json", out])
    check_bench(p, "3 ranks, uneven bands", 3, [(96, 320)], [128], out)


def case_weak(exe, tmp):
    """--rows-per-rank N: every rank a band of N rows, the lattice W x N*R."""
    for ranks in (1, 2):
        out = os.path.join(tmp, f"weak{ranks}.json")
        p = mpirun(ranks, [exe, "bench", "--distributed", "--backend", "cpu", "--sizes", "128,64",
                           "--rows-per-rank", "96", "--json", out])
        check_bench(p, f"weak scaling, {ranks} ranks", ranks, [(128, 96 * ranks), (64, 96 * ranks)], [96, 96], out,
                    weak=True)


def case_alone(exe, tmp):
    """Without mpirun, --distributed is one rank; --device with --backend cpu is said once."""
    out = os.path.join(tmp, "alone.json")
    p = run([exe, "bench", "--distributed", "--backend", "cpu", "--sizes", "128", "--json", out])
    check_bench(p, "alone", 1, [(128, 128)], [128], out)
    p = mpirun(2, [exe, "bench", "--distributed", "--backend", "cpu", "--device", "0", "--sizes", "128",
                   "--json", out])
    check_bench(p, "--device 0 with the CPU backend", 2, [(128, 128)], [64], out)
    notes = [line for line in p.stderr.splitlines() if "note: --device" in line]
    check(len(notes) == 1, f"--device with --backend cpu: {len(notes)} notes in {p.stderr!r}")
    print(f"ok: {notes[0]}")


def case_bad_input(exe, tmp):
    """Each bad input: exit 2 on every rank, one line of ours, nothing on stdout."""
    cases = [
        ["--bogus"],
        ["--sizes", "100"],
        ["--sizes", "128,"],
        ["--instances", "4"],
        ["--stream-mode", "shared"],
        ["--rows-per-rank", "48"],
        ["--rows-per-rank", "64", "--sizes", "128x128"],
        ["--sizes", "128x64"],  # 3 ranks: a band would have no rows
        ["--json", tmp],
        ["--rule", "B9/S"],
        ["--backend", "tpu"],
        ["--devices", "0,1"],  # a list of GPUs contradicts --backend cpu, as in a one-process run
        ["--generations-per-launch", "0"],
    ]
    rcdir = os.path.join(tmp, "rc")
    for args in cases:
        shutil.rmtree(rcdir, ignore_errors=True)
        os.mkdir(rcdir)
        wrapper = ['sh', '-c', '"$0" "$@"; echo $? > ' + rcdir + '/$OMPI_COMM_WORLD_RANK']
        backend = [] if "--backend" in args else ["--backend", "cpu"]
        p = mpirun(3, [*wrapper, exe, "bench", "--distributed", *backend, *args],
                   extra=["--mca", "orte_abort_on_non_zero_status", "0"])
        statuses = sorted(open(os.path.join(rcdir, n)).read().strip() for n in os.listdir(rcdir))
        check(statuses == ["2", "2", "2"], f"{args}: rank exit statuses {statuses}, stderr {p.stderr}")
        ours = [line for line in p.stderr.splitlines() if line.startswith("lifestreams")]
        check(len(ours) == 1 and ours[0].startswith("lifestreams bench: "), f"{args}: lines of ours: {ours}")
        check(p.stdout == "", f"{args}: printed {p.stdout!r}")
        print(f"ok: {args}: exit 2 on every rank, one line: {ours[0]}")


def case_gpu(exe, tmp):
    """GPU backend (NCCL): rows for every variant over the GPUs present, JSON with the exchange."""
    gpus = gpu_count()
    probe = run([exe, "run", "--distributed", "--backend", "cuda", "--width", "64", "--height", "64",
                 "--generations", "1"])
    if gpus == 0 or "NCCL" in probe.stderr:
        print(f"skipped: {gpus} GPUs; {probe.stderr.strip()}")
        return SKIP
    ranks = min(gpus, 2)
    out = os.path.join(tmp, "gpu.json")
    p = mpirun(ranks, [exe, "bench", "--distributed", "--backend", "cuda", "--variants", "bitpacked,shared",
                       "--sizes", "4096", "--json", out])
    check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    with open(out) as f:
        doc = json.load(f)
    check(doc["backend"] == "cuda" and doc["ranks"] == ranks, f"JSON top {doc}")
    got = sorted((r["variant"], r["generations_per_launch"]) for r in doc["rows"])
    check(got == [("bitpacked", 16), ("shared", 1)], f"rows {got}")
    for row in doc["rows"]:
        check(row["ranks"] == ranks and row["cups"] > 0 and row["exchanges_timed"] >= 1 and row["exchange_us"] > 0,
              f"row {row}")
    print(f"ok: gpu, {ranks} ranks: {p.stdout.splitlines()[0]}")
    return 0


def main():
    exe, case = sys.argv[1], sys.argv[2]
    if shutil.which("mpirun") is None:
        print("skipped: mpirun is not installed (openmpi-bin)")
        return SKIP
    cases = {"rows": case_rows, "weak": case_weak, "alone": case_alone, "bad-input": case_bad_input,
             "gpu": case_gpu}
    with tempfile.TemporaryDirectory(prefix="ls-dist-bench-") as tmp:
        try:
            if cases[case](exe, tmp) == SKIP:
                return SKIP
        except Failure as e:
            print(f"FAILED: {e}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
