# The block engine at the command line (issue 14, replay/REPLAY.md
# "Block-granular replay"): its refusal of a Cortex-M7 run, runs that end in a
# fault, and --engine through --jobs segment replay (tests/replay_block_cli.sh).
# Needs the examples, the crash firmware of postmortem.cmake and m7cap of
# m7cap.cmake, so it is included after them.
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND TARGET firmware_crash_wild AND TARGET firmware_m7cap)
  add_test(NAME replay_block_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/replay_block_cli.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR} ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(replay_block_cli PROPERTIES LABELS e2e)
endif()
