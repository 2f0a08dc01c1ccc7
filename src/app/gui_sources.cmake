# ls_gui_app: the desktop app (window or headless), included by src/app/CMakeLists.txt.
find_package(glfw3 3.3 REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)

add_library(ls_gui_app STATIC
  ${CMAKE_CURRENT_LIST_DIR}/gui_app.cpp
  ${CMAKE_CURRENT_LIST_DIR}/options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/app.cpp
  ${CMAKE_CURRENT_LIST_DIR}/app_requests.cpp
  ${CMAKE_CURRENT_LIST_DIR}/input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/imgui_layer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/app_settings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tile_labels.cpp
  ${CMAKE_CURRENT_LIST_DIR}/figures.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report.cpp)
target_include_directories(ls_gui_app PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(ls_gui_app PUBLIC ls_app_cli ls_render ls_ui ls_core
                      PRIVATE PkgConfig::IMGUI glfw CLI11::CLI11 PkgConfig::STB ${CMAKE_DL_LIBS} ls_warnings)
# The engine with its tile filler (app/engine_factory_gui.hpp); the CUDA one comes from ls_interop.
target_sources(ls_gui_app PRIVATE ${CMAKE_CURRENT_LIST_DIR}/engine_factory_gui.cpp)
if(LIFESTREAMS_HAVE_CUDA)
  target_link_libraries(ls_gui_app PRIVATE ls_interop)
endif()
