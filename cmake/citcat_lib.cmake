# The shared libcitcat and everything `cmake --install` puts in place.
# Included from the top-level CMakeLists.txt after every component has added
# its sources to the static library `citcat`.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Shared library: the static library's objects, linked whole.  They are
# compiled with -fvisibility=hidden, so the exported set is exactly what the
# public headers (include/citcat/) mark CITCAT_API; tests/api_symbols.sh
# checks that every exported symbol starts with citcat_.
add_library(citcat_shared SHARED ${PROJECT_SOURCE_DIR}/cmake/citcat_shared.c)
citcat_target_setup(citcat_shared)
target_link_libraries(citcat_shared PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,citcat>")
if(NOT CITCAT_SANITIZE AND NOT CITCAT_FUZZ)
  # every dependency is linked in (sanitizer runtimes come with the program)
  target_link_options(citcat_shared PRIVATE -Wl,--no-undefined)
endif()
set_target_properties(citcat_shared PROPERTIES OUTPUT_NAME citcat EXPORT_NAME citcat
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR} C_VISIBILITY_PRESET hidden)
target_include_directories(citcat_shared INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

install(TARGETS citcat_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS citcat ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS citcat_shared EXPORT citcatTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Only the public include tree; every other header stays internal.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/citcat DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/citcat/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/citcat)

# pkg-config: relocatable (prefix from the .pc file's own place), so an
# install with `cmake --install --prefix P` works wherever P is.
file(RELATIVE_PATH CITCAT_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" CITCAT_PC_TO_PREFIX "${CITCAT_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/citcat.pc.in ${PROJECT_BINARY_DIR}/citcat.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/citcat.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# find_package(citcat): the imported target citcat::citcat (shared).
set(CITCAT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/citcat)
install(EXPORT citcatTargets NAMESPACE citcat:: DESTINATION ${CITCAT_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/citcatConfig.cmake.in
  ${PROJECT_BINARY_DIR}/citcatConfig.cmake INSTALL_DESTINATION ${CITCAT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/citcatConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/citcatConfig.cmake ${PROJECT_BINARY_DIR}/citcatConfigVersion.cmake
  DESTINATION ${CITCAT_CMAKE_DIR})

# The format specs, the debugging walkthrough and the manual page.
# (every spec the manual page names: tests/install_lib.sh checks it)
install(FILES formats/CAT.md capture/TARGET.md capture/TARGET-M7.md formats/LVT.md formats/IMS.md formats/AES.md
  replay/REPLAY.md replay/SEGMENTS.md replay/CURSOR.md replay/GDB.md common/CONTAINER.md common/SEGIDX.md formats/ITRACE.md formats/DIN.md
  formats/PDATS.md formats/PDATS2.md formats/SDCLSP.md formats/DAF.md formats/TRACEPORTS.md formats/DUMP.md
  formats/CHAMPSIM.md formats/CALLGRIND.md wet/WET.md docs/DEBUGGING.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/specs)
configure_file(${PROJECT_SOURCE_DIR}/cli/citcat.1.in ${PROJECT_BINARY_DIR}/citcat.1 @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/citcat.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES examples/lib/count_events.c examples/lib/capture_sink.c examples/lib/replay_sink.c
  examples/lib/CMakeLists.txt
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/lib)
