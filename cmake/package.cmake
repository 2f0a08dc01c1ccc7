# package.cmake — `cpack -G DEB` in the build folder: a Debian package of what cmake/install.cmake
# installs, under /usr. Its dependencies are Debian's package names, by hand, for what this build
# links.
set(CPACK_PACKAGE_NAME lifestreams)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "N Game of Life simulations on CUDA streams, drawn through CUDA-OpenGL interop")
set(CPACK_PACKAGE_DESCRIPTION "A desktop app (GLFW, Dear ImGui) that runs many Life lattices side by \
side, each on its own CUDA stream or on the CPU engine, with a batch CLI (lifestreams run) and \
benchmarks (lifestreams bench).")
set(CPACK_PACKAGE_CONTACT "lifestreams developers <lifestreams@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)

set(_ls_depends libc6 libstdc++6 libgcc-s1 zlib1g)
if(LIFESTREAMS_GUI)
  # libEGL and libGL are opened at run time (headless and windowed GL); libstb writes the PNGs.
  list(APPEND _ls_depends libglfw3 libx11-6 libstb0 libegl1 libgl1)
endif()
set(_ls_recommends)
if(LIFESTREAMS_HAVE_MPI)
  # The program links Open MPI's library; mpirun, to start a --distributed job, is only recommended.
  list(APPEND _ls_depends libopenmpi3)
  list(APPEND _ls_recommends openmpi-bin)
endif()
# What Debian does not package is no dependency: the CUDA runtime is linked statically
# (CUDA::cudart_static, which NVIDIA's licence lets a program carry), NCCL is opened at run time
# (src/dist/nccl_library.cpp: a distributed GPU run says it is missing), and the CUDA driver comes
# with the NVIDIA driver (a CUDA run without it says "no NVIDIA driver is loaded").
list(JOIN _ls_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
list(JOIN _ls_recommends ", " CPACK_DEBIAN_PACKAGE_RECOMMENDS)
include(CPack)
