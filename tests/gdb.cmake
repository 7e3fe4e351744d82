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
