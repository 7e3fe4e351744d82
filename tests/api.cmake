# libcitcat's public API and packaging (issue 13).  Included from
# tests/CMakeLists.txt.
#
# test_api: the uniform contracts, compiled against the public headers only
# (include/, no internal directory) and linked with the shared library.
add_executable(test_api test_api.c)
citcat_target_setup(test_api)
target_link_libraries(test_api PRIVATE citcat_shared)
target_include_directories(test_api PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}) # check.h
add_test(NAME test_api COMMAND test_api)
set_tests_properties(test_api PROPERTIES LABELS unit)
# capture's event sink and replay's on_record against the files, on an
# example with interrupts and DMA
if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES)
  add_test(NAME test_api_callbacks COMMAND test_api ${CITCAT_EXAMPLE_DIR}/crc32.elf ${CMAKE_CURRENT_BINARY_DIR}/api)
  set_tests_properties(test_api_callbacks PROPERTIES LABELS e2e)
endif()

# The shared library exports the public API and nothing else.
add_test(NAME api_symbols COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/api_symbols.sh $<TARGET_FILE:citcat_shared>
  ${PROJECT_SOURCE_DIR}/include/citcat)
set_tests_properties(api_symbols PROPERTIES LABELS unit)

# cmake --install into a temporary prefix, then the examples in examples/lib
# built against it through pkg-config and through find_package, and run on
# a real capture.
set(api_cflags "")
if(CITCAT_SANITIZE)
  set(api_cflags "-fsanitize=address,undefined")
endif()
if(CITCAT_EXAMPLES AND "sched" IN_LIST CITCAT_EXAMPLE_NAMES)
  add_test(NAME install_lib COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install_lib.sh ${PROJECT_BINARY_DIR}
    ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install_lib ${CITCAT_EXAMPLE_DIR}/sched.elf
    ${CMAKE_CURRENT_BINARY_DIR}/examples "${api_cflags}" ${CMAKE_C_COMPILER})
  set_tests_properties(install_lib PROPERTIES LABELS e2e FIXTURES_REQUIRED ex_sched TIMEOUT 600)
endif()

# <citcat/bench.h> (issue 30): the measurements behind `citcat bench`, from
# the public headers and the shared library, on a short example.
if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES)
  add_executable(test_bench_api test_bench_api.c)
  citcat_target_setup(test_bench_api)
  target_link_libraries(test_bench_api PRIVATE citcat_shared)
  target_include_directories(test_bench_api PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}) # check.h
  add_test(NAME test_bench_api COMMAND test_bench_api ${CITCAT_EXAMPLE_DIR}/crc32.elf ${CMAKE_CURRENT_BINARY_DIR}/bench_api)
  set_tests_properties(test_bench_api PROPERTIES LABELS e2e)
endif()
