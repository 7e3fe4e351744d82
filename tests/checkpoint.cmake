# Segment checkpoints (issue 14 part 3; tests/checkpoint.sh).  Included from
# tests/CMakeLists.txt; needs the example firmware and the crash firmware of
# postmortem.cmake.
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  citcat_add_firmware(ckpt SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ckpt.c OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  find_program(ARM_NM arm-none-eabi-nm)
  set(ck_args $<TARGET_FILE:citcat_cli> ${CITCAT_EXAMPLE_DIR} ${CITCAT_EXAMPLE_DATA_DIR} ${CMAKE_CURRENT_BINARY_DIR})
  foreach(section dilation postmortem usage irq merge)
    add_test(NAME checkpoint_${section} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/checkpoint.sh ${section} ${ck_args} ${ARM_NM})
    set_tests_properties(checkpoint_${section} PROPERTIES LABELS e2e TIMEOUT 600)
  endforeach()
  # every (short) example, captured with checkpoints and replayed serially
  foreach(n IN LISTS CITCAT_EXAMPLE_NAMES)
    set(extra)
    if(n STREQUAL "uartline")
      set(extra --uart-in ${CITCAT_EXAMPLE_DATA_DIR}/uartline.txt)
    endif()
    add_test(NAME checkpoint_example_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/checkpoint.sh example ${ck_args} ${n} ${extra})
    set_tests_properties(checkpoint_example_${n} PROPERTIES LABELS e2e TIMEOUT 600)
    # segment-parallel replay (plan + GNU parallel + merge); two examples
    # under the sanitizers, where every process start is slow
    if(NOT CITCAT_SANITIZE OR n STREQUAL "sha256" OR n STREQUAL "uartline")
      add_test(NAME checkpoint_segments_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/checkpoint.sh segments ${ck_args} ${n} ${extra})
      set_tests_properties(checkpoint_segments_${n} PROPERTIES LABELS e2e TIMEOUT 600)
    endif()
  endforeach()
endif()
