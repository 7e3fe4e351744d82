# Time-travel debugging (issue 33): the replay cursor (include/citcat/cursor.h,
# replay/CURSOR.md) and citcat gdb (replay/GDB.md).  Included from
# tests/CMakeLists.txt.

# The cursor against the oracle and the replayer's observer, on captures
# with interrupts (sched) and DMA (crc32), ARM, Thumb and the Cortex-M7.
add_executable(test_cursor test_cursor.c)
citcat_target_setup(test_cursor)
target_link_libraries(test_cursor PRIVATE citcat)
target_include_directories(test_cursor PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
if(CITCAT_EXAMPLES)
  set(cursor_elfs)
  foreach(n sched crc32_thumb)
    if(n IN_LIST CITCAT_EXAMPLE_NAMES OR n IN_LIST CITCAT_EXAMPLE_THUMB_NAMES)
      list(APPEND cursor_elfs ${CITCAT_EXAMPLE_DIR}/${n}.elf)
    endif()
  endforeach()
  foreach(n sched crc32)
    if(n IN_LIST CITCAT_EXAMPLE_M7_NAMES)
      list(APPEND cursor_elfs ${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf)
    endif()
  endforeach()
  foreach(elf IN LISTS cursor_elfs)
    get_filename_component(n ${elf} NAME_WE)
    add_test(NAME test_cursor_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cursor.sh $<TARGET_FILE:citcat_cli>
      $<TARGET_FILE:test_cursor> ${elf} ${CMAKE_CURRENT_BINARY_DIR}/cursor)
    set_tests_properties(test_cursor_${n} PROPERTIES LABELS e2e)
  endforeach()
endif()

# The firmware of citcat gdb's tests: a wild pointer (1), a smashed stack
# (2), no crash (0), on the A target (ARM and Thumb) and the Cortex-M7.
include(${PROJECT_SOURCE_DIR}/examples/bsp/citcat_firmware.cmake)
include(${PROJECT_SOURCE_DIR}/examples/bsp-m7/citcat_firmware_m7.cmake)
set(gdb_fw ${CMAKE_CURRENT_BINARY_DIR}/gdbfw)
if(CITCAT_FIRMWARE_FOUND)
  foreach(n 0 1 2)
    citcat_add_firmware(gdbcrash${n} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/gdbcrash.c DEFINITIONS -DCRASH=${n}
      OUTPUT_DIRECTORY ${gdb_fw})
    citcat_add_firmware(gdbcrash${n}_thumb THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/gdbcrash.c
      DEFINITIONS -DCRASH=${n} OUTPUT_DIRECTORY ${gdb_fw})
  endforeach()
endif()
if(CITCAT_FIRMWARE_M7_FOUND)
  foreach(n 0 1 2)
    citcat_add_firmware_m7(gdbcrash${n}_m7 SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/gdbcrash.c
      DEFINITIONS -DCRASH=${n} -DGDBCRASH_M7 OUTPUT_DIRECTORY ${gdb_fw})
  endforeach()
endif()

# The protocol layer byte for byte, in-process over a socketpair, on the
# crc32 example's capture (tests/test_gdbserver.c).
add_executable(test_gdbserver test_gdbserver.c)
citcat_target_setup(test_gdbserver)
target_link_libraries(test_gdbserver PRIVATE citcat pthread)
target_include_directories(test_gdbserver PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES)
  add_test(NAME test_gdbserver COMMAND test_gdbserver ${CMAKE_CURRENT_BINARY_DIR}/examples/crc32.cat)
  set_tests_properties(test_gdbserver PROPERTIES LABELS e2e FIXTURES_REQUIRED ex_crc32)
endif()

# citcat gdb driven by the real client, gdb-multiarch in batch mode
# (tests/gdb.sh): ARM, Thumb and the Cortex-M7.
find_program(CITCAT_GDB_MULTIARCH gdb-multiarch)
if(CITCAT_GDB_MULTIARCH AND CITCAT_FIRMWARE_FOUND)
  find_program(ARM_NM arm-none-eabi-nm)
  set(gdb_targets arm thumb)
  if(CITCAT_FIRMWARE_M7_FOUND)
    list(APPEND gdb_targets m7)
  endif()
  foreach(section basic wild stack)
    foreach(tgt IN LISTS gdb_targets)
      add_test(NAME gdb_${section}_${tgt} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gdb.sh ${section} ${tgt}
        $<TARGET_FILE:citcat_cli> ${CITCAT_GDB_MULTIARCH} ${gdb_fw})
      set_tests_properties(gdb_${section}_${tgt} PROPERTIES LABELS e2e)
    endforeach()
  endforeach()
  if(CITCAT_EXAMPLES AND "crc32" IN_LIST CITCAT_EXAMPLE_NAMES)
    add_test(NAME gdb_events_arm COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gdb.sh events arm $<TARGET_FILE:citcat_cli>
      ${CITCAT_GDB_MULTIARCH} ${gdb_fw} ${CITCAT_EXAMPLE_DIR}/crc32.elf)
    set_tests_properties(gdb_events_arm PROPERTIES LABELS e2e)
  endif()
  if(CITCAT_FIRMWARE_M7_FOUND AND "crc32" IN_LIST CITCAT_EXAMPLE_M7_NAMES)
    add_test(NAME gdb_events_m7 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gdb.sh events m7 $<TARGET_FILE:citcat_cli>
      ${CITCAT_GDB_MULTIARCH} ${gdb_fw} ${CITCAT_EXAMPLE_DIR}/m7/crc32_m7.elf)
    set_tests_properties(gdb_events_m7 PROPERTIES LABELS e2e)
  endif()
  add_test(NAME gdb_exit COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gdb.sh exit - $<TARGET_FILE:citcat_cli>
    ${CITCAT_GDB_MULTIARCH} ${gdb_fw})
  if(TARGET firmware_crash_undef AND TARGET firmware_crash_hang) # tests/postmortem.cmake
    add_test(NAME gdb_signals COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gdb.sh signals - $<TARGET_FILE:citcat_cli>
      ${CITCAT_GDB_MULTIARCH} ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(gdb_signals PROPERTIES LABELS e2e)
    add_test(NAME gdb_interrupt COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gdb.sh interrupt - $<TARGET_FILE:citcat_cli>
      ${CITCAT_GDB_MULTIARCH} ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(gdb_interrupt PROPERTIES LABELS e2e)
  endif()
  set(gdb_bad_args)
  if(TARGET m7rep_edit AND "crc32" IN_LIST CITCAT_EXAMPLE_M7_NAMES)
    set(gdb_bad_args ${CITCAT_EXAMPLE_DIR}/m7/crc32_m7.elf $<TARGET_FILE:m7rep_edit>)
  endif()
  add_test(NAME gdb_bad COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gdb.sh bad - $<TARGET_FILE:citcat_cli>
    ${CITCAT_GDB_MULTIARCH} ${gdb_fw} ${gdb_bad_args})
  set_tests_properties(gdb_exit gdb_bad PROPERTIES LABELS e2e)
endif()

# The Unicorn behaviour the cursor relies on (context save/restore, resuming
# inside an IT block with its ITSTATE written, code changed behind the core).
citcat_unit_test(test_unicorn_cursor)
