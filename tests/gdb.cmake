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
