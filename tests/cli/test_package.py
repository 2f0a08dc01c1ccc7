#!/usr/bin/env python3
"""`cpack -G DEB` of this build gives a package named lifestreams that installs /usr/bin/lifestreams and
its data under /usr/share/lifestreams, depends on GLFW (libglfw3) and zlib (zlib1g) by their Debian
names, and with MPI built only recommends Open MPI's mpirun (openmpi-bin). Skips (77) without
dpkg-deb.

Usage: test_package.py CPACK BUILD_DIR HAVE_GUI HAVE_MPI
"""
import shutil
import subprocess
import sys
import tempfile


def main():
    cpack, build_dir = sys.argv[1], sys.argv[2]
    have_gui, have_mpi = sys.argv[3] == "1", sys.argv[4] == "1"
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
        field = lambda name: subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True, text=True,
                                            check=True).stdout.strip()
        files = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True).stdout
        depends = [d.strip() for d in field("Depends").split(",")]
        problems = []
        if field("Package") != "lifestreams":
            problems.append(f"package name {field('Package')!r}")
        if "./usr/bin/lifestreams" not in files:
            problems.append("no ./usr/bin/lifestreams")
        if "zlib1g" not in depends:
            problems.append(f"zlib1g not in Depends {depends}")
        if have_gui:
            if "./usr/share/lifestreams/shaders/tile.frag" not in files:
                problems.append("no ./usr/share/lifestreams/shaders/")
            if "libglfw3" not in depends:
                problems.append(f"libglfw3 not in Depends {depends}")
        if have_mpi and (field("Recommends") != "openmpi-bin" or "openmpi-bin" in depends):
            problems.append(f"Recommends {field('Recommends')!r}, Depends {depends}")
        if problems:
            print("FAILED: " + "; ".join(problems))
            return 1
    print("ok: the package installs the program and its data with its Debian dependencies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
