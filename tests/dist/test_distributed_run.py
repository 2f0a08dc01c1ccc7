#!/usr/bin/env python3
"""`lifestreams run --distributed --backend cpu` under mpirun equals a one-process `run`.

Usage: test_distributed_run.py LIFESTREAMS CASE   (CASE: soups, patterns, alone, bad-input, kill, gpu,
       kill-gpu)

Facts checked: for 1, 2, 3 and 4 ranks, every output line (the header minus its ` ranks=R`) and the
--output file are byte for byte those of a one-process run, on random soups and rules, band heights
that do not divide evenly, and gliders crossing band edges and the torus wrap; bad input is one line
and exit 2 on every rank; a rank killed mid-run takes every other rank down, non-zero, within 30 s.
The gpu case runs the GPU backend (NCCL, one GPU per rank) against a one-GPU run for every variant.
Exits 77 (ctest SKIP_RETURN_CODE) when mpirun is absent (gpu: also without GPUs or NCCL).
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
RANKS = (1, 2, 3, 4)
# Root in a container, ranks beyond the cores of a 2-core CI machine, shared memory without ptrace.
MPIRUN_ARGS = ["--oversubscribe", "--bind-to", "none", "--mca", "btl", "self,vader",
               "--mca", "btl_vader_single_copy_mechanism", "none"]
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
# Under the sanitizer build (scripts/ci-extra.sh), LeakSanitizer reports what Open MPI 4.1's MCA
# components allocate and never free (from modules already unloaded at exit, on the paths that end
# early, like bad input): not lifestreams' memory, and it turns exit 2 into 1. Leak checks stay on
# for every other test; address and undefined-behaviour checks stay on here.
if "ASAN_OPTIONS" in ENV:
    ENV["ASAN_OPTIONS"] += ":detect_leaks=0"
if "LSAN_OPTIONS" in ENV:  # and the fast unwind on malloc (ci-extra.sh turns it off for tests)
    ENV["LSAN_OPTIONS"] += ":fast_unwind_on_malloc=1"
TIMEOUT = 120


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def run(cmd, **kw):
    return subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=TIMEOUT, **kw)


def mpirun(ranks, args, extra=()):
    return run(["mpirun", *MPIRUN_ARGS, *extra, "-np", str(ranks), *args])


def compare_gpu(exe, tmp, args, label, ranks):
    compare(exe, tmp, args, label, ranks, backend=())


def compare(exe, tmp, args, label, ranks=RANKS, backend=("--backend", "cpu")):
    """One-process run vs --distributed on 1..4 ranks: lines and --output bytes."""
    ref_out = os.path.join(tmp, "ref.rle")
    ref = run([exe, "run", *backend, *args, "--output", ref_out])
    check(ref.returncode == 0, f"{label}: one-process run failed: {ref.stderr}")
    ref_lines = ref.stdout.splitlines()
    check(len(ref_lines) >= 2 and ref_lines[0].startswith("# backend="), f"{label}: odd output {ref_lines}")
    with open(ref_out, "rb") as f:
        ref_rle = f.read()
    for r in ranks:
        out = os.path.join(tmp, f"dist{r}.rle")
        p = mpirun(r, [exe, "run", "--distributed", *backend, *args, "--output", out])
        check(p.returncode == 0, f"{label}, {r} ranks: exit {p.returncode}: {p.stderr}")
        lines = p.stdout.splitlines()
        suffix = f" ranks={r}"
        check(lines and lines[0].endswith(suffix), f"{label}, {r} ranks: header {lines[:1]} lacks '{suffix}'")
        lines[0] = lines[0][: -len(suffix)]
        check(lines == ref_lines, f"{label}, {r} ranks: lines differ:\n" + "\n".join(lines) +
              "\n-- one process --\n" + "\n".join(ref_lines))
        with open(out, "rb") as f:
            check(f.read() == ref_rle, f"{label}, {r} ranks: --output differs from the one-process run's")
    print(f"ok: {label} ({len(ref_lines)} lines, ranks {ranks})")


def random_rule(rng):
    # No B0 or B1: those rules fill or flood the lattice from nothing, a poor soup test.
    birth = sorted(rng.sample(range(2, 9), rng.randint(1, 3)))
    survive = sorted(rng.sample(range(0, 9), rng.randint(0, 4)))
    return "B" + "".join(map(str, birth)) + "/S" + "".join(map(str, survive))


def case_soups(exe, tmp):
    rng = random.Random(13)
    # Heights in 32-row granules that 2, 3 and 4 ranks do not divide evenly (5, 7 granules), and one
    # that 3 ranks cut into the thinnest bands allowed (3 granules: 4 ranks would leave one empty).
    shapes = [(96, 160, RANKS), (64, 224, RANKS), (128, 96, (1, 2, 3)), (160, 288, RANKS)]
    for i, (w, h, ranks) in enumerate(shapes):
        seed = rng.randrange(2**64)
        density = round(rng.uniform(0.1, 0.6), 3)
        rule = "B3/S23" if i == 0 else random_rule(rng)
        gens = rng.randint(40, 90)
        args = ["--width", str(w), "--height", str(h), "--seed", str(seed), "--density", str(density),
                "--rule", rule, "--generations", str(gens), "--every", str(rng.randint(5, 17))]
        compare(exe, tmp, args, f"soup {w}x{h} seed={seed} density={density} rule={rule} gens={gens}", ranks)


def glider_rle(width, height, gliders):
    """An RLE whose box is the whole lattice (so it is placed at 0,0), with gliders at (x, y) top-lefts,
    each heading (dx, dy) diagonally."""
    shapes = {  # a glider's cells for each direction of travel
        (1, 1): [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)],
        (-1, 1): [(1, 0), (0, 1), (0, 2), (1, 2), (2, 2)],
        (1, -1): [(0, 0), (1, 0), (2, 0), (2, 1), (1, 2)],
        (-1, -1): [(0, 0), (1, 0), (2, 0), (0, 1), (1, 2)],
    }
    live = set()
    for x, y, d in gliders:
        for cx, cy in shapes[d]:
            live.add(((x + cx) % width, (y + cy) % height))
    rows = []
    for y in range(height):
        rows.append("".join("o" if (x, y) in live else "b" for x in range(width)).rstrip("b"))
    return f"x = {width}, y = {height}, rule = B3/S23\n" + "$".join(rows) + "!\n"


def case_patterns(exe, tmp):
    # 64 x 160: 2 ranks cut it at row 96, 3 at 64 and 128, 4 at 64, 96 and 128. Gliders start on
    # those edges and on the wrap (rows 159 -> 0) and cross further edges as they travel.
    w, h = 64, 160
    gliders = [(5, 63, (1, 1)), (20, 95, (-1, 1)), (40, 127, (1, -1)), (50, 158, (-1, -1)),
               (30, 158, (1, 1)), (10, 30, (-1, -1)), (60, 0, (1, -1))]
    path = os.path.join(tmp, "gliders.rle")
    with open(path, "w") as f:
        f.write(glider_rle(w, h, gliders))
    # --width/--height the box's own: placed at 0,0 (a file alone gets a 64-cell margin).
    compare(exe, tmp, ["--pattern", path, "--width", str(w), "--height", str(h), "--generations", "240",
                       "--every", "1"], "gliders across band edges and the wrap")
    # The same file under a random rule, with the file's size overridden by a taller torus.
    compare(exe, tmp, ["--pattern", path, "--rule", "B36/S23", "--width", "64", "--height", "224",
                       "--generations", "150",
                       "--every", "10"], "gliders under HighLife on 64x224")


def case_alone(exe, tmp):
    """Without mpirun, --distributed is one rank: the plain run's lines plus ' ranks=1'."""
    args = ["--backend", "cpu", "--width", "64", "--height", "96", "--seed", "5", "--generations", "33",
            "--every", "11"]
    ref = run([exe, "run", *args])
    p = run([exe, "run", "--distributed", *args])
    check(ref.returncode == 0 and p.returncode == 0, f"exit {ref.returncode}/{p.returncode}: {p.stderr}")
    lines = p.stdout.splitlines()
    check(lines[0] == ref.stdout.splitlines()[0] + " ranks=1", f"header {lines[0]}")
    check(lines[1:] == ref.stdout.splitlines()[1:], "lines differ")
    print("ok: --distributed without mpirun is one rank")


def case_bad_input(exe, tmp):
    """Each bad input: exit 2 on every rank, one line, the one-process run's line where it has one."""
    missing = os.path.join(tmp, "no-such.rle")
    cases = [
        (["--generations", "10", "--bogus"], True),
        (["--generations", "10", "--pattern", missing], True),
        (["--generations", "10", "--rule", "B9/S"], True),
        (["--generations", "10", "--output", tmp], True),
        (["--generations", "10", "--width", "33"], True),
        (["--generations", "10", "--height", "64"], False),  # 3 ranks: a band would have no rows
        (["--script", os.path.join(tmp, "x.script")], False),
        # A list of GPUs contradicts --backend cpu: refused as a one-process run refuses it.
        (["--generations", "10", "--devices", "0,1"], True),
    ]
    rcdir = os.path.join(tmp, "rc")
    for args, plain_has_it in cases:
        shutil.rmtree(rcdir, ignore_errors=True)
        os.mkdir(rcdir)
        # Each rank records its own exit status; mpirun is told not to end the others when one exits.
        wrapper = ['sh', '-c', '"$0" "$@"; echo $? > ' + rcdir + '/$OMPI_COMM_WORLD_RANK']
        p = mpirun(3, [*wrapper, exe, "run", "--distributed", "--backend", "cpu", *args],
                   extra=["--mca", "orte_abort_on_non_zero_status", "0"])
        statuses = sorted(open(os.path.join(rcdir, n)).read().strip() for n in os.listdir(rcdir))
        check(statuses == ["2", "2", "2"], f"{args}: rank exit statuses {statuses}, stderr {p.stderr}")
        ours = [line for line in p.stderr.splitlines() if line.startswith("lifestreams")]
        check(len(ours) == 1, f"{args}: {len(ours)} lines of ours: {ours}")
        check(p.stdout == "", f"{args}: printed {p.stdout!r}")
        if plain_has_it:
            ref = run([exe, "run", "--backend", "cpu", *args])
            check(ref.returncode == 2 and ref.stderr.strip() == ours[0],
                  f"{args}: '{ours[0]}' is not the one-process line '{ref.stderr.strip()}'")
        print(f"ok: {args}: exit 2 on every rank, one line: {ours[0]}")


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (already exited, not yet reaped by its parent) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def case_kill(exe, tmp, backend="cpu", ranks=3):
    piddir = os.path.join(tmp, "pids")
    os.mkdir(piddir)
    wrapper = ['sh', '-c', 'echo $$ > ' + piddir + '/$OMPI_COMM_WORLD_RANK; exec "$0" "$@"']
    cmd = ["mpirun", *MPIRUN_ARGS, "-np", str(ranks), *wrapper, exe, "run", "--distributed", "--backend", backend,
           "--width", "1024", "--height", "1024", "--generations", str(10**12)]
    p = subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The run is under way (rank 0 printed generation 0 after all ranks agreed) before the kill.
        first = p.stdout.readline() + p.stdout.readline()
        check("generation=0" in first, f"run did not start: {first!r}")
        pids = [int(open(os.path.join(piddir, str(r))).read()) for r in range(ranks)]
        time.sleep(0.5)
        os.kill(pids[1], signal.SIGKILL)
        killed = time.monotonic()
        try:
            status = p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise Failure("mpirun still running 30 s after rank 1 was killed")
        while any(alive(pid) for pid in pids) and time.monotonic() - killed < 30:
            time.sleep(0.1)
        took = time.monotonic() - killed
        left = [pid for pid in pids if alive(pid)]
        check(not left, f"ranks {left} still alive {took:.1f} s after rank 1 was killed")
        check(status != 0, "mpirun exited 0 after a rank was killed")
        print(f"ok: {backend}, {ranks} ranks, rank 1 killed: every rank gone in {took:.1f} s, mpirun exit status {status}")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def gpu_count():
    try:
        p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(1 for line in p.stdout.splitlines() if line.startswith("GPU ")) if p.returncode == 0 else 0


def case_gpu(exe, tmp):
    """GPU backend (NCCL), one GPU per rank: every variant over 1..GPUs ranks equals the one-GPU run."""
    gpus = gpu_count()
    probe = run([exe, "run", "--distributed", "--backend", "cuda", "--width", "64", "--height", "64",
                 "--generations", "1"])
    if gpus == 0 or "NCCL" in probe.stderr:
        print(f"skipped: {gpus} GPUs; {probe.stderr.strip()}")
        return SKIP
    ranks = tuple(r for r in RANKS if r <= gpus)  # NCCL takes one GPU per rank
    rng = random.Random(31)
    for variant, k in [("bitpacked", 16), ("bitpacked", 5), ("iterate", 8), ("shared", 1), ("global", 1),
                       ("naive", 1)]:
        rule = random_rule(rng)
        args = ["--backend", "cuda", "--variant", variant, "--generations-per-launch", str(k),
                "--width", "256", "--height", "320", "--seed", str(rng.randrange(2**64)), "--rule", rule,
                "--generations", str(rng.randint(100, 300)), "--every", "37"]
        compare_gpu(exe, tmp, args, f"{variant} k={k} rule={rule}", ranks)
    return 0


def case_kill_gpu(exe, tmp):
    gpus = gpu_count()
    probe = run([exe, "run", "--distributed", "--backend", "cuda", "--width", "64", "--height", "64",
                 "--generations", "1"])
    if gpus < 2 or "NCCL" in probe.stderr:
        print(f"skipped: {gpus} GPUs (2 needed); {probe.stderr.strip()}")
        return SKIP
    case_kill(exe, tmp, "cuda", min(gpus, 3))
    return 0


def main():
    exe, case = sys.argv[1], sys.argv[2]
    if shutil.which("mpirun") is None:
        print("skipped: mpirun is not installed (openmpi-bin)")
        return SKIP
    cases = {"soups": case_soups, "patterns": case_patterns, "alone": case_alone,
             "bad-input": case_bad_input, "kill": case_kill, "gpu": case_gpu,
             "kill-gpu": case_kill_gpu}
    with tempfile.TemporaryDirectory(prefix="ls-dist-") as tmp:
        try:
            if cases[case](exe, tmp) == SKIP:
                return SKIP
        except Failure as e:
            print(f"FAILED: {e}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
