# Issue 35, the user's path: exports on every example, crashed runs in every
# tool, per-line profiles, firmware without the BSP.  Included from
# tests/CMakeLists.txt after the examples, thumb.cmake, postmortem.cmake and
# m7cap.cmake.
#
# ChampSim's branch_taken flags against the CAT's branch counter
# (tests/champsim_branches.sh): three runs in e2e (ARM, Thumb with its
# tbb/tbh, the Cortex-M7, and two crashed runs), every example of every
# ISA under `slow` (about a minute).
add_executable(champsim_count champsim_count.c)
citcat_target_setup(champsim_count)
if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES AND "qsort_thumb" IN_LIST CITCAT_EXAMPLE_THUMB_NAMES
   AND TARGET firmware_crash_wild AND TARGET firmware_m7cap_nohandler AND CITCAT_EXAMPLE_M7_NAMES)
  add_test(NAME champsim_branches COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/champsim_branches.sh
    $<TARGET_FILE:citcat_cli> $<TARGET_FILE:champsim_count> ${CITCAT_EXAMPLE_DATA_DIR}/uartline.txt
    ${CMAKE_CURRENT_BINARY_DIR}/examples/crc32 ${CMAKE_CURRENT_BINARY_DIR}/thumb/qsort_thumb
    ${CITCAT_EXAMPLE_DIR}/m7/sched_m7.elf ${CMAKE_CURRENT_BINARY_DIR}/crash_wild.elf
    ${CMAKE_CURRENT_BINARY_DIR}/m7/m7cap_nohandler.elf)
  set_tests_properties(champsim_branches PROPERTIES FIXTURES_REQUIRED "ex_crc32;ex_qsort_thumb" LABELS e2e)
  set(all_runs)
  set(all_fixtures)
  foreach(n IN LISTS CITCAT_EXAMPLE_NAMES)
    list(APPEND all_runs ${CMAKE_CURRENT_BINARY_DIR}/examples/${n})
    list(APPEND all_fixtures ex_${n})
  endforeach()
  foreach(n IN LISTS CITCAT_EXAMPLE_THUMB_NAMES)
    list(APPEND all_runs ${CMAKE_CURRENT_BINARY_DIR}/thumb/${n})
    list(APPEND all_fixtures ex_${n})
  endforeach()
  foreach(n IN LISTS CITCAT_EXAMPLE_M7_NAMES CITCAT_EXAMPLE_M7_CXX_NAMES)
    list(APPEND all_runs ${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf)
  endforeach()
  string(REPLACE "_m7_m7.elf" "_m7.elf" all_runs "${all_runs}") # cxx_demo_m7 is named so already
  if(NOT CITCAT_SANITIZE) # every example of every ISA: the release suite only
  add_test(NAME champsim_branches_all COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/champsim_branches.sh
    $<TARGET_FILE:citcat_cli> $<TARGET_FILE:champsim_count> ${CITCAT_EXAMPLE_DATA_DIR}/uartline.txt ${all_runs})
  set_tests_properties(champsim_branches_all PROPERTIES FIXTURES_REQUIRED "${all_fixtures}" LABELS slow TIMEOUT 900)
  endif()
endif()

# A crashed run in every tool, and the report's summary of how it ended
# (tests/report_crash.sh): a Cortex-M7 crash on a wild pointer with SysTick
# running, and the A target's.
if(CITCAT_FIRMWARE_M7_FOUND AND TARGET firmware_crash_wild)
  citcat_add_firmware_m7(m7wild SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7wild.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  add_test(NAME report_crash COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/report_crash.sh $<TARGET_FILE:citcat_cli>
    ${CMAKE_CURRENT_BINARY_DIR}/m7/m7wild.elf ${CMAKE_CURRENT_BINARY_DIR}/crash_wild.elf ${CITCAT_ARM_TOOL_PREFIX_M7})
  set_tests_properties(report_crash PROPERTIES LABELS e2e TIMEOUT 600)
endif()

# Per-line profiles in callgrind format against valgrind's
# callgrind_annotate (tests/profile_callgrind.sh): ARM (crc32: DMA,
# interrupts, inlined functions), Thumb and Cortex-M7 C++ in e2e, every
# example of every ISA under `slow`.
find_program(CITCAT_CALLGRIND_ANNOTATE callgrind_annotate)
find_program(CITCAT_ARM_ADDR2LINE arm-none-eabi-addr2line)
if(CITCAT_EXAMPLES AND CITCAT_CALLGRIND_ANNOTATE AND CITCAT_ARM_ADDR2LINE AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES
   AND "sched_thumb" IN_LIST CITCAT_EXAMPLE_THUMB_NAMES AND CITCAT_EXAMPLE_M7_CXX_NAMES)
  set(pc ${CMAKE_CURRENT_SOURCE_DIR}/profile_callgrind.sh $<TARGET_FILE:citcat_cli> ${CITCAT_CALLGRIND_ANNOTATE}
    ${CITCAT_ARM_ADDR2LINE} ${CITCAT_EXAMPLE_DATA_DIR}/uartline.txt)
  add_test(NAME profile_callgrind_crc32 COMMAND bash ${pc}
    ${CMAKE_CURRENT_BINARY_DIR}/examples/crc32:${CITCAT_EXAMPLE_DIR}/crc32.elf:${PROJECT_SOURCE_DIR}/examples/crc32/main.c)
  set_tests_properties(profile_callgrind_crc32 PROPERTIES FIXTURES_REQUIRED ex_crc32 LABELS e2e)
  add_test(NAME profile_callgrind_sched_thumb COMMAND bash ${pc}
    ${CMAKE_CURRENT_BINARY_DIR}/thumb/sched_thumb:${CITCAT_EXAMPLE_DIR}/sched_thumb.elf:${PROJECT_SOURCE_DIR}/examples/sched/main.c)
  set_tests_properties(profile_callgrind_sched_thumb PROPERTIES FIXTURES_REQUIRED ex_sched_thumb LABELS e2e)
  add_test(NAME profile_callgrind_cxx_demo_m7 COMMAND bash ${pc}
    ${CMAKE_CURRENT_BINARY_DIR}/examples/cxx_demo_m7:${CITCAT_EXAMPLE_DIR}/m7/cxx_demo_m7.elf:${PROJECT_SOURCE_DIR}/examples/cxx_demo/main.cpp)
  set_tests_properties(profile_callgrind_cxx_demo_m7 PROPERTIES FIXTURES_REQUIRED ex_cxx_demo_m7 LABELS e2e)
  set(runs)
  set(fixtures)
  foreach(n IN LISTS CITCAT_EXAMPLE_NAMES)
    list(APPEND runs ${CMAKE_CURRENT_BINARY_DIR}/examples/${n}:${CITCAT_EXAMPLE_DIR}/${n}.elf:${PROJECT_SOURCE_DIR}/examples/${n}/main.c)
    list(APPEND fixtures ex_${n})
  endforeach()
  foreach(n IN LISTS CITCAT_EXAMPLE_NAMES)
    if("${n}_thumb" IN_LIST CITCAT_EXAMPLE_THUMB_NAMES)
      list(APPEND runs ${CMAKE_CURRENT_BINARY_DIR}/thumb/${n}_thumb:${CITCAT_EXAMPLE_DIR}/${n}_thumb.elf:${PROJECT_SOURCE_DIR}/examples/${n}/main.c)
      list(APPEND fixtures ex_${n}_thumb)
    endif()
  endforeach()
  foreach(n IN LISTS CITCAT_EXAMPLE_M7_NAMES)
    list(APPEND runs capture:${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf:${PROJECT_SOURCE_DIR}/examples/${n}/main.c)
  endforeach()
  if(NOT CITCAT_SANITIZE) # every example of every ISA: the release suite only
    add_test(NAME profile_callgrind_all COMMAND bash ${pc} ${runs})
    set_tests_properties(profile_callgrind_all PROPERTIES FIXTURES_REQUIRED "${fixtures}" LABELS slow TIMEOUT 1800)
  endif()
endif()

# Firmware built without the BSP (plain --specs=nosys.specs) stops at once
# with a message pointing to the BSP, instead of spinning in _exit
# (tests/nosys_spin.sh).
if(CITCAT_FIRMWARE_FOUND AND CITCAT_FIRMWARE_M7_FOUND)
  add_test(NAME nosys_spin COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/nosys_spin.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX_M7})
  set_tests_properties(nosys_spin PROPERTIES LABELS e2e TIMEOUT 300)
endif()

# citcat/profile.h against a callgrind file worked out by hand
# (tests/test_profile.c on tests/firmware/profile_golden.S: calls, returns,
# an interrupt taken where a call returns to, fills charged by line).
if(CITCAT_ARM_GCC)
  set(pg_elf ${CMAKE_CURRENT_BINARY_DIR}/profile_golden.elf)
  set(pg_src ${CMAKE_CURRENT_SOURCE_DIR}/firmware/profile_golden.S)
  add_custom_command(OUTPUT ${pg_elf}
    COMMAND ${CITCAT_ARM_GCC} -g -nostdlib -nostartfiles -Wl,-Ttext=0x1000 -Wl,-e,main -o ${pg_elf} ${pg_src}
    DEPENDS ${pg_src} COMMENT "Assembling profile_golden.elf" VERBATIM)
  add_custom_target(profile_golden_elf ALL DEPENDS ${pg_elf})
  add_executable(test_profile test_profile.c)
  citcat_target_setup(test_profile)
  target_link_libraries(test_profile PRIVATE citcat)
  target_include_directories(test_profile PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/profile_golden)
  add_test(NAME test_profile COMMAND test_profile ${pg_elf} ${pg_src} ${CMAKE_CURRENT_BINARY_DIR}/profile_golden)
  set_tests_properties(test_profile PROPERTIES LABELS unit)
endif()
