# The replay engines against each other (tests/replay_engines.sh,
# replay/REPLAY.md "Interrupts, DMA and the block engine"): insn, block and
# auto give the same itrace.  In CI (e2e) the interrupt- and DMA-heavy runs:
# irqdma (a fast timer interrupt, a DMA stream restarted from its completion
# interrupt), irqdma whose DMA input runs out, sched (WFI) and crc32 (DMA
# into a sleeping core), ARM and Thumb; every example under slow.
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND TARGET firmware_irqdma)
  add_test(NAME replay_engines_irq COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/replay_engines.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR} ${CITCAT_EXAMPLE_DATA_DIR} ${CMAKE_CURRENT_BINARY_DIR}/replay_engines_irq
    irqdma irqdma:dmaend sched crc32)
  set_tests_properties(replay_engines_irq PROPERTIES LABELS e2e)
  add_test(NAME replay_engines COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/replay_engines.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR} ${CITCAT_EXAMPLE_DATA_DIR} ${CMAKE_CURRENT_BINARY_DIR}/replay_engines
    crc32 sha256 qsort matmul strsearch dijkstra sched uartline counter idle cxx_demo irqdma irqdma:dmaend)
  set_tests_properties(replay_engines PROPERTIES LABELS slow)
endif()
# A run of 500 M instructions with a timer interrupt every 3000 cycles and a
# DMA stream whose 2 MiB input runs out at about a third: replayed exactly
# with the default engine and with the block engine, each in bounded memory
# (issue 36 part 2; tests/long_replay.sh names the command for 1 B).
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND TARGET firmware_irqdma_big)
  add_test(NAME long_replay_500M COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/long_replay.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR}/irqdma_big.elf 500000000 2097152 ${CMAKE_CURRENT_BINARY_DIR}/long_replay auto block)
  set_tests_properties(long_replay_500M PROPERTIES LABELS slow)
endif()
