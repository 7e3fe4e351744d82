# Issue 12: symbols and source lines (common/symbols.c) against binutils,
# the listing with --elf and ranges, the divergence report's extras, and
# the HTML report rendered in headless Chromium.  Included from
# CMakeLists.txt before the sanitizer block.
find_program(CITCAT_ARM_NM arm-none-eabi-nm)
find_program(CITCAT_ARM_ADDR2LINE arm-none-eabi-addr2line)
if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES AND CITCAT_ARM_NM AND CITCAT_ARM_ADDR2LINE)
  add_executable(test_symbols test_symbols.c)
  citcat_target_setup(test_symbols)
  target_link_libraries(test_symbols PRIVATE citcat)
  target_include_directories(test_symbols PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/symbols)
  add_test(NAME test_symbols_crc32 COMMAND test_symbols ${CITCAT_EXAMPLE_DIR}/crc32.elf ${CITCAT_ARM_NM}
    ${CITCAT_ARM_ADDR2LINE} ${CMAKE_CURRENT_BINARY_DIR}/symbols)
  # Issue 35: Thumb-2 and Cortex-M7 firmware, whose STT_FUNC symbols carry
  # the Thumb bit in their value (nm and addr2line read the function one below)
  if(CITCAT_EXAMPLE_THUMB_NAMES)
    add_test(NAME test_symbols_crc32_thumb COMMAND test_symbols ${CITCAT_EXAMPLE_DIR}/crc32_thumb.elf
      ${CITCAT_ARM_NM} ${CITCAT_ARM_ADDR2LINE} ${CMAKE_CURRENT_BINARY_DIR}/symbols)
  endif()
  if(CITCAT_EXAMPLE_M7_NAMES)
    add_test(NAME test_symbols_sched_m7 COMMAND test_symbols ${CITCAT_EXAMPLE_DIR}/m7/sched_m7.elf
      ${CITCAT_ARM_NM} ${CITCAT_ARM_ADDR2LINE} ${CMAKE_CURRENT_BINARY_DIR}/symbols)
  endif()
endif()
if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES AND CITCAT_ARM_NM AND CITCAT_ARM_ADDR2LINE)
  add_test(NAME listing_symbols COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/listing_symbols.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR}/crc32.elf ${CMAKE_CURRENT_BINARY_DIR}/examples/crc32.itrace ${CITCAT_ARM_NM}
    ${CITCAT_ARM_ADDR2LINE})
  set_tests_properties(listing_symbols PROPERTIES FIXTURES_REQUIRED ex_crc32)
  # the same on Thumb code (issue 35: functions started one byte late, so
  # --function dropped a function's first instruction)
  if("crc32_thumb" IN_LIST CITCAT_EXAMPLE_THUMB_NAMES)
    add_test(NAME listing_symbols_thumb COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/listing_symbols.sh
      $<TARGET_FILE:citcat_cli> ${CITCAT_EXAMPLE_DIR}/crc32_thumb.elf ${CMAKE_CURRENT_BINARY_DIR}/thumb/crc32_thumb.itrace
      ${CITCAT_ARM_NM} ${CITCAT_ARM_ADDR2LINE})
    set_tests_properties(listing_symbols_thumb PROPERTIES FIXTURES_REQUIRED ex_crc32_thumb)
  endif()
endif()
# The HTML report, rendered in headless Chromium (skipped, exit 77, when absent).
if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES)
  add_test(NAME report_html COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/report_html.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR}/crc32.elf ${CMAKE_CURRENT_BINARY_DIR}/examples/crc32.cat
    ${CMAKE_CURRENT_BINARY_DIR}/examples/crc32.itrace)
  set_tests_properties(report_html PROPERTIES FIXTURES_REQUIRED ex_crc32 SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
# C++ firmware (issue 12): cxx_demo captured with its oracle and replayed exactly.
if(CITCAT_EXAMPLES AND CITCAT_EXAMPLE_CXX_NAMES)
  foreach(n IN LISTS CITCAT_EXAMPLE_CXX_NAMES)
    add_test(NAME example_capture_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/example_capture.sh
      $<TARGET_FILE:citcat_cli> ${CITCAT_EXAMPLE_DIR}/${n}.elf ${CMAKE_CURRENT_BINARY_DIR}/examples ${n})
    set_tests_properties(example_capture_${n} PROPERTIES FIXTURES_SETUP ex_${n})
    add_test(NAME replay_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/replay_example.sh
      $<TARGET_FILE:citcat_cli> ${CMAKE_CURRENT_BINARY_DIR}/examples ${n})
    set_tests_properties(replay_${n} PROPERTIES FIXTURES_REQUIRED ex_${n})
  endforeach()
endif()
# C++ on the Cortex-M7 (issue 35): the same program through the M7 BSP.
foreach(n IN LISTS CITCAT_EXAMPLE_M7_CXX_NAMES)
  add_test(NAME example_capture_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/example_capture.sh
    $<TARGET_FILE:citcat_cli> ${CITCAT_EXAMPLE_DIR}/m7/${n}.elf ${CMAKE_CURRENT_BINARY_DIR}/examples ${n})
  set_tests_properties(example_capture_${n} PROPERTIES FIXTURES_SETUP ex_${n})
  add_test(NAME replay_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/replay_example.sh
    $<TARGET_FILE:citcat_cli> ${CMAKE_CURRENT_BINARY_DIR}/examples ${n})
  set_tests_properties(replay_${n} PROPERTIES FIXTURES_REQUIRED ex_${n})
endforeach()
# firmware.mk: C++, per-language flags, libm, -u _printf_float.
if(CITCAT_EXAMPLES AND CITCAT_EXAMPLE_CXX_NAMES)
  add_test(NAME firmware_mk COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/firmware_mk.sh $<TARGET_FILE:citcat_cli>
    ${CMAKE_SOURCE_DIR})
endif()
# DMA input that ends: no storm of zero-length completions, exact replay.
if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES)
  add_test(NAME dma_input_end COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/dma_input_end.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR}/crc32.elf)
endif()
citcat_fuzz_target(symbols)
