# Address-trace density (issue 34): PDATS/PDATS II version 2 and the TVP
# second tier on the Cortex-M7 examples (ARM and Thumb-2 ones: CMakeLists.txt
# and thumb.cmake), and TVP through the tool: every reader, bad input.
if(CITCAT_EXAMPLES AND CITCAT_EXAMPLE_M7_NAMES)
  foreach(n IN LISTS CITCAT_EXAMPLE_M7_NAMES)
    if(NOT CITCAT_SANITIZE OR n MATCHES "^(crc32|sched)$")
      set(extra)
      if(n STREQUAL "uartline")
        set(extra --uart-in ${CITCAT_EXAMPLE_DATA_DIR}/uartline.txt)
      endif()
      add_test(NAME addr_roundtrip_${n}_m7 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/addr_roundtrip_capture.sh
        $<TARGET_FILE:citcat_cli> $<TARGET_FILE:test_addr_roundtrip> ${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf
        ${CMAKE_CURRENT_BINARY_DIR}/tvp_m7/${n}_m7 ${extra})
      set_tests_properties(addr_roundtrip_${n}_m7 PROPERTIES LABELS e2e)
    endif()
  endforeach()
endif()
if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES AND "crc32_thumb" IN_LIST CITCAT_EXAMPLE_THUMB_NAMES
   AND "idle" IN_LIST CITCAT_EXAMPLE_NAMES)
  add_test(NAME tvp_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tvp_cli.sh $<TARGET_FILE:citcat_cli>
    ${CMAKE_CURRENT_BINARY_DIR}/examples/crc32.itrace ${CMAKE_CURRENT_BINARY_DIR}/thumb/crc32_thumb.itrace
    ${CITCAT_EXAMPLE_DIR}/idle.elf ${CMAKE_CURRENT_BINARY_DIR}/tvp_cli)
  set_tests_properties(tvp_cli PROPERTIES LABELS e2e FIXTURES_REQUIRED "ex_crc32;ex_crc32_thumb")
endif()
# bench formats runs end to end with every row (numbers are not judged)
add_test(NAME bench_formats_runs COMMAND $<TARGET_FILE:citcat_cli> bench formats --refs 200000 --json)
set_tests_properties(bench_formats_runs PROPERTIES LABELS e2e PASS_REGULAR_EXPRESSION
  "\"name\": \"pdats2.tvp\", \"bytes\": [0-9]+, \"refs_per_byte\": [0-9.]+, \"encode_mrefs_per_s\": [0-9.]+.*\"decode_din_mb_per_s\": [0-9.]+")
