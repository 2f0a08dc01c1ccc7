# package.cmake — `cpack -G DEB` in the build folder: a Debian package of what cmake/install.cmake
# installs, under /usr. Its dependencies are named by hand (dpkg-shlibdeps cannot place the CUDA
# installation's NCCL) and follow what this build links.
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
if(LIFESTREAMS_HAVE_MPI AND LIFESTREAMS_HAVE_CUDA AND LS_NCCL_INCLUDE_DIR AND LS_NCCL_LIBRARY)
  # src/dist's NCCL backend links NCCL and the shared CUDA runtime: packages of NVIDIA's CUDA repository.
  list(APPEND _ls_depends libnccl2 cuda-cudart-${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR})
endif()
list(JOIN _ls_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
list(JOIN _ls_recommends ", " CPACK_DEBIAN_PACKAGE_RECOMMENDS)
include(CPack)
