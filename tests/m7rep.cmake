# Extraction and replay on the Cortex-M7 (issue 11 section 2, TARGET-M7.md
# integration steps 5-7, REPLAY.md "The Cortex-M7"): the ten examples and
# the hand-written firmware of tests/m7cap.cmake replayed exactly with
# --verify and --oracle, and the M7 tampering tests (tests/m7rep.sh).
if(CITCAT_FIRMWARE_M7_FOUND AND TARGET firmware_m7cap AND TARGET firmware_m7cap_nohandler)
  add_executable(m7rep_edit m7rep_edit.c)
  citcat_target_setup(m7rep_edit)
  target_link_libraries(m7rep_edit PRIVATE citcat)
  set(m7rep_examples ${CITCAT_EXAMPLE_M7_NAMES})
  if(CITCAT_SANITIZE)
    set(m7rep_examples sched crc32) # NVIC interrupts, DMA: memory checks only
  endif()
  foreach(mode IN ITEMS examples hand tamper)
    add_test(NAME m7rep_${mode} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7rep.sh ${mode} $<TARGET_FILE:citcat_cli>
      $<TARGET_FILE:m7rep_edit> ${CITCAT_EXAMPLE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/m7 ${m7rep_examples})
    set_tests_properties(m7rep_${mode} PROPERTIES LABELS e2e)
  endforeach()
endif()
