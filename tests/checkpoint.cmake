# Segment checkpoints (issue 14 part 3; tests/checkpoint.sh).  Included from
# tests/CMakeLists.txt; needs the example firmware and the crash firmware of
# postmortem.cmake.
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  citcat_add_firmware(ckpt SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ckpt.c OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  find_program(ARM_NM arm-none-eabi-nm)
  foreach(section examples dilation postmortem usage irq)
    add_test(NAME checkpoint_${section} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/checkpoint.sh ${section}
      $<TARGET_FILE:citcat_cli> ${CITCAT_EXAMPLE_DIR} ${CITCAT_EXAMPLE_DATA_DIR} ${CMAKE_CURRENT_BINARY_DIR} ${ARM_NM})
    set_tests_properties(checkpoint_${section} PROPERTIES LABELS e2e TIMEOUT 300)
  endforeach()
endif()
