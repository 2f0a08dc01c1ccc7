#!/usr/bin/env python3
"""`cpack -G DEB` of this build gives a package named lifestreams that installs /usr/bin/lifestreams and
its data under /usr/share/lifestreams; its dependencies are Debian's packages only (GLFW as libglfw3,
zlib as zlib1g; with MPI built, Open MPI's library, and its mpirun only recommended), never the CUDA
runtime or NCCL, which Debian does not package; apt can resolve them (`apt-get install --simulate`,
where apt has package lists); and the program unpacked from it runs from another directory: its
--version and `run` lines are the build tree's, and its dynamic libraries name no CUDA or NCCL
library. Skips (77) without dpkg-deb.

Usage: test_package.py CPACK BUILD_DIR LIFESTREAMS HAVE_GUI HAVE_MPI
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

RUN = ["run", "--backend", "cpu", "--width", "64", "--height", "64", "--generations", "4"]
NOT_DEBIAN = ("cuda", "nccl")  # neither a dependency nor a linked library of the package


def sanitizer_env():
    """The environment the programs run in: under the sanitizer build as the app tests start them."""
    env = {k: v for k, v in os.environ.items() if k != "LIFESTREAMS_DATA_DIR"}
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":detect_leaks=0"
    if "LSAN_OPTIONS" in env:
        env["LSAN_OPTIONS"] += ":fast_unwind_on_malloc=1"
    return env


def check_fields(deb, files, have_gui, have_mpi):
    field = lambda name: subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True, text=True,
                                        check=True).stdout.strip()
    depends = [d.strip() for d in field("Depends").split(",")]
    problems = []
    if field("Package") != "lifestreams":
        problems.append(f"package name {field('Package')!r}")
    if "./usr/bin/lifestreams" not in files:
        problems.append("no ./usr/bin/lifestreams")
    if "zlib1g" not in depends:
        problems.append(f"zlib1g not in Depends {depends}")
    if any(n in d for d in depends for n in NOT_DEBIAN):
        problems.append(f"Depends {depends} names a package Debian does not have")
    if have_gui:
        if "./usr/share/lifestreams/shaders/tile.frag" not in files:
            problems.append("no ./usr/share/lifestreams/shaders/")
        if "libglfw3" not in depends:
            problems.append(f"libglfw3 not in Depends {depends}")
    if have_mpi and (field("Recommends") != "openmpi-bin" or "openmpi-bin" in depends):
        problems.append(f"Recommends {field('Recommends')!r}, Depends {depends}")
    return problems


def check_apt(deb):
    """apt resolves the package's dependencies, where it has package lists to resolve them from."""
    if not shutil.which("apt-get") or not glob.glob("/var/lib/apt/lists/*_Packages*"):
        print("note: no apt package lists here; the dependencies were not resolved")
        return []
    r = subprocess.run(["apt-get", "install", "--simulate", "-q", "-o", "Debug::NoLocking=1", deb],
                       capture_output=True, text=True, timeout=120)
    return [] if r.returncode == 0 else [f"apt-get install --simulate: exit {r.returncode}: {r.stdout}{r.stderr}"]


def check_unpacked(deb, tmp, built):
    """The program unpacked from the package runs from another directory as the build tree's does."""
    root, elsewhere = os.path.join(tmp, "root"), os.path.join(tmp, "elsewhere")
    os.mkdir(elsewhere)
    subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    program = os.path.join(root, "usr", "bin", "lifestreams")
    env = sanitizer_env()
    problems = []
    for args in (["--version"], RUN):
        a = subprocess.run([built, *args], capture_output=True, text=True, timeout=120, env=env, cwd=elsewhere)
        b = subprocess.run([program, *args], capture_output=True, text=True, timeout=120, env=env, cwd=elsewhere)
        if b.returncode != 0 or b.stdout != a.stdout:
            problems.append(f"packaged `{' '.join(args)}`: exit {b.returncode}, stdout {b.stdout!r} "
                            f"(the build tree's: {a.stdout!r}), stderr {b.stderr!r}")
    if shutil.which("objdump"):
        dyn = subprocess.run(["objdump", "-p", program], capture_output=True, text=True, check=True).stdout
        needed = [line.split()[1] for line in dyn.splitlines() if line.strip().startswith("NEEDED")]
        if any(n in lib for lib in needed for n in NOT_DEBIAN):
            problems.append(f"the packaged program links {needed}")
    return problems


def main():
    cpack, build_dir, built = sys.argv[1:4]
    have_gui, have_mpi = sys.argv[4] == "1", sys.argv[5] == "1"
    if not shutil.which("dpkg-deb"):
        print("skipped: no dpkg-deb")
        return 77
    with tempfile.TemporaryDirectory(prefix="lifestreams-deb-") as tmp:
        made = subprocess.run([cpack, "-G", "DEB", "--config", f"{build_dir}/CPackConfig.cmake", "-B", tmp],
                              capture_output=True, text=True, timeout=240)
        if made.returncode != 0:
            print(f"FAILED: cpack: exit {made.returncode}: {made.stdout}{made.stderr}")
            return 1
        deb = f"{tmp}/lifestreams_0.1_amd64.deb"
        files = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True).stdout
        problems = check_fields(deb, files, have_gui, have_mpi) + check_apt(deb) + check_unpacked(deb, tmp, built)
        if problems:
            print("FAILED: " + "; ".join(problems))
            return 1
    print("ok: the package installs the program and its data with Debian's packages as dependencies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
