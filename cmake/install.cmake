# install.cmake — `cmake --install`: the program in bin/, its shaders and assets in share/lifestreams
# (where src/render/paths.cpp looks, ../share/lifestreams from the program), the desktop entry and
# icon, the man page and the docs.
install(TARGETS lifestreams RUNTIME DESTINATION bin)
install(FILES ${PROJECT_SOURCE_DIR}/docs/lifestreams.1 DESTINATION share/man/man1)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/lifestreams)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION share/doc/lifestreams
        FILES_MATCHING PATTERN "*.md")
if(LIFESTREAMS_GUI)
  # What the app loads at run time: the GLSL shaders, the panel's font, the bundled patterns.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/shaders/ DESTINATION share/lifestreams/shaders)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/fonts ${PROJECT_SOURCE_DIR}/assets/patterns
          DESTINATION share/lifestreams/assets)
  install(FILES ${PROJECT_SOURCE_DIR}/assets/lifestreams.desktop DESTINATION share/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/assets/lifestreams.svg DESTINATION share/icons/hicolor/scalable/apps)
endif()
