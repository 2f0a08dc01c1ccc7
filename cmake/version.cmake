# version.cmake — the version header: project()'s VERSION and the commit this tree was configured at
# (`unknown` outside a git checkout), for `lifestreams --version`. Defines the target ls_version.
find_program(LIFESTREAMS_GIT git)
set(LIFESTREAMS_COMMIT unknown)
if(LIFESTREAMS_GIT)
  execute_process(COMMAND ${LIFESTREAMS_GIT} rev-parse --short HEAD
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE _ls_commit OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE _ls_git_status ERROR_QUIET)
  if(_ls_git_status EQUAL 0 AND _ls_commit MATCHES "^[0-9a-f]+$")
    set(LIFESTREAMS_COMMIT ${_ls_commit})
  endif()
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.hpp.in ${PROJECT_BINARY_DIR}/generated/version.hpp @ONLY)
add_library(ls_version INTERFACE)
target_include_directories(ls_version INTERFACE ${PROJECT_BINARY_DIR}/generated)
