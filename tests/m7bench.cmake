# bench all on the Cortex-M7 (issue 11): the bare baseline follows the
# recorded path of an M7 run with exceptions (sched_m7: SysTick/IRQ entries
# and returns) and with DMA (crc32_m7), and of an A-target Thumb run with IT
# blocks (sched_thumb: the count Unicorn makes there, bench_bare.h), with
# every phase and well-formed JSON.  Numbers are never judged.  Included
# from tests/CMakeLists.txt.
if(CITCAT_EXAMPLES AND "sched" IN_LIST CITCAT_EXAMPLE_M7_NAMES AND "crc32" IN_LIST CITCAT_EXAMPLE_M7_NAMES
   AND "sched_thumb" IN_LIST CITCAT_EXAMPLE_THUMB_NAMES)
  add_test(NAME bench_all_m7 COMMAND ${CMAKE_COMMAND} -DCITCAT=$<TARGET_FILE:citcat_cli>
    "-DELFS=${CITCAT_EXAMPLE_DIR}/m7/sched_m7.elf,${CITCAT_EXAMPLE_DIR}/m7/crc32_m7.elf,${CITCAT_EXAMPLE_DIR}/sched_thumb.elf"
    -DFORMATS= -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_json.cmake)
  set_tests_properties(bench_all_m7 PROPERTIES LABELS e2e)
endif()
# Every format converter on Cortex-M7 itraces: entries (sched_m7) and DMA
# (crc32_m7), checked against the independent reference cache simulator and
# by reading each format back (tests/m7formats.sh).
if(CITCAT_EXAMPLES AND TARGET ref_cache)
  foreach(n sched crc32)
    if(n IN_LIST CITCAT_EXAMPLE_M7_NAMES)
      add_test(NAME m7formats_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7formats.sh $<TARGET_FILE:citcat_cli>
        $<TARGET_FILE:ref_cache> ${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf ${CMAKE_CURRENT_BINARY_DIR}/m7formats ${n}_m7)
      set_tests_properties(m7formats_${n} PROPERTIES LABELS e2e)
    endif()
  endforeach()
endif()
