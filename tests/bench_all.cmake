# bench all (issue 14): the honest-baseline benchmark runs end to end on
# short examples with interrupts (sched) and DMA (crc32) and prints
# well-formed JSON; its numbers are never judged.  Included from
# tests/CMakeLists.txt.
if(CITCAT_EXAMPLES AND "sched" IN_LIST CITCAT_EXAMPLE_NAMES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES)
  add_test(NAME bench_all_runs COMMAND ${CMAKE_COMMAND} -DCITCAT=$<TARGET_FILE:citcat_cli>
    "-DELFS=${CITCAT_EXAMPLE_DIR}/sched.elf,${CITCAT_EXAMPLE_DIR}/crc32.elf"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_json.cmake)
  set_tests_properties(bench_all_runs PROPERTIES LABELS e2e)
endif()
# the compression thread of common/container.c writes what the inline path
# writes, and its errors reach the caller
citcat_unit_test(test_writer_thread)
