# Capture on the Cortex-M7 (issue 11 section 2, capture/TARGET-M7.md):
# the ten examples captured on the M7 with their own self-checks, target
# selection and refusal, and hand-written firmware whose stacked words are
# checked against values worked out by hand (tests/m7cap.sh).
include(${PROJECT_SOURCE_DIR}/examples/bsp-m7/citcat_firmware_m7.cmake)
if(CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware_m7(m7cap SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7cap.c
    ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7cap_asm.S OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  citcat_add_firmware_m7(m7cap_nohandler SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7cap_nohandler.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set(m7cap_examples ${CITCAT_EXAMPLE_M7_NAMES})
  if(CITCAT_SANITIZE)
    set(m7cap_examples sched sha256) # interrupts through the NVIC, DMA: memory checks only
  endif()
  add_test(NAME m7cap_hand COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7cap.sh hand $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX_M7} ${CMAKE_CURRENT_BINARY_DIR}/m7 ${CITCAT_EXAMPLE_DIR})
  add_test(NAME m7cap_examples COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7cap.sh examples $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX_M7} ${CMAKE_CURRENT_BINARY_DIR}/m7 ${CITCAT_EXAMPLE_DIR} ${m7cap_examples})
  set_tests_properties(m7cap_hand m7cap_examples PROPERTIES LABELS e2e)
endif()
# the M7 parts of the CAT and itrace formats (unit)
citcat_unit_test(test_m7_formats)
target_include_directories(test_m7_formats PRIVATE ${PROJECT_SOURCE_DIR}/formats)
