# The replay engines against each other (tests/replay_engines.sh,
# replay/REPLAY.md "Interrupts, DMA and the block engine"): insn, block and
# auto give the same itrace on the interrupt- and DMA-heavy irqdma (a fast
# timer interrupt, a DMA stream restarted from its completion interrupt),
# with and without its DMA input running out, ARM and Thumb; the block
# engine must have entered interrupts between blocks and applied DMA inside
# them.  Every example: `bash tests/replay_engines.sh build/cli/citcat
# build/examples examples/data /tmp/re` (not in CTest: replay_block_NAME
# covers them one engine at a time).
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND TARGET firmware_irqdma)
  add_test(NAME replay_engines_irq COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/replay_engines.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR} ${CITCAT_EXAMPLE_DATA_DIR} ${CMAKE_CURRENT_BINARY_DIR}/replay_engines_irq irqdma irqdma:dmaend)
  set_tests_properties(replay_engines_irq PROPERTIES LABELS e2e)
endif()
# A run of 500 M instructions with a timer interrupt every 3000 cycles and a
# DMA stream whose 2 MiB input runs out at about a third: replayed exactly
# with the default engine and with the block engine, each in bounded memory
# (issue 36 part 2; tests/long_replay.sh names the command for 1 B).  Not
# under the sanitizers: 500 M instructions there take far too long, and
# their own memory is not the replay's (replay_renew covers the engine's
# renewal there).
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND TARGET firmware_irqdma_big AND NOT CITCAT_SANITIZE)
  add_test(NAME long_replay_500M COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/long_replay.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR}/irqdma_big.elf 500000000 2097152 ${CMAKE_CURRENT_BINARY_DIR}/long_replay auto block)
  set_tests_properties(long_replay_500M PROPERTIES LABELS slow)
endif()
# Code that changes between runs of the same block (tests/firmware/blk_smc.c):
# CPU stores and DMA transfers into a function's first instruction, ARM and
# Thumb; every engine's itrace equal to the oracle.  The block engine's cache
# skips its byte compare only while no write reached a cached block
# (replay.c code_touched).
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  citcat_add_firmware(blk_smc SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/blk_smc.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  citcat_add_firmware(blk_smc_thumb THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/blk_smc.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  # the same under a timer interrupt every 150 cycles: hundreds of them at
  # cuts inside blocks, entered in the block engine's second engine, some
  # inside the function (replay/REPLAY.md "Two engines")
  citcat_add_firmware(blk_smc_irq SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/blk_smc.c DEFINITIONS -DSMC_TICK=150
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  citcat_add_firmware(blk_smc_irq_thumb THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/blk_smc.c
    DEFINITIONS -DSMC_TICK=150 OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  # ARM and Thumb builds of:
  # - blk_near: long blocks without accesses, their I-lines cold or warm,
  #   under a timer whose interrupts land at every phase of them (the
  #   capture's bound on a block's cycles near an event);
  # - blk_itmem: memory instructions inside Thumb IT blocks, to RAM and to
  #   device registers, under a timer;
  # - blk_devrd: device reads, quiet and loud, inside and outside IT
  #   blocks, under a timer (capture/TARGET.md "Device reads in the block
  #   engine");
  # - blk_devflt: device accesses the block engine must turn back for (an
  #   LDM, a write that sets a line), quiet writes, and a run that ends on
  #   a device bus error
  # (each tests/firmware/NAME.c)
  foreach(n blk_near blk_itmem blk_devrd blk_devflt)
    citcat_add_firmware(${n} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/${n}.c
      OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
    citcat_add_firmware(${n}_thumb THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/${n}.c
      OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  endforeach()
  add_test(NAME replay_engines_smc COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/replay_engines.sh $<TARGET_FILE:citcat_cli>
    ${CMAKE_CURRENT_BINARY_DIR}/firmware ${CITCAT_EXAMPLE_DATA_DIR} ${CMAKE_CURRENT_BINARY_DIR}/replay_engines_smc blk_smc blk_smc_irq
    blk_near blk_itmem blk_devrd)
  set_tests_properties(replay_engines_smc PROPERTIES LABELS e2e)
  # the capture's two engines (capture/TARGET.md "Two engines") on the same
  # firmware: stores and transfers into code while the other engine has it
  # translated; blk_near, blocks right in front of an interrupt; blk_itmem,
  # device accesses inside IT blocks; blk_devrd, device reads answered in
  # the middle of a block or not;
  # --engine block against --engine insn, byte for byte
  set(ces)
  foreach(n blk_smc blk_smc_thumb blk_smc_irq blk_smc_irq_thumb blk_near blk_near_thumb blk_itmem blk_itmem_thumb
      blk_devrd blk_devrd_thumb blk_devflt blk_devflt_thumb)
    list(APPEND ces ${CMAKE_CURRENT_BINARY_DIR}/firmware/${n}.elf)
  endforeach()
  # and with bytes arriving 10 cycles apart, so that a UART read is loud
  list(APPEND ces ${CMAKE_CURRENT_BINARY_DIR}/firmware/blk_devrd_thumb.elf:--uart-rate:10)
  # and with device reads costing most of a block's cycles, which the bound
  # for a block near an event must count
  # (and a UART byte arriving sooner than a device read takes)
  list(APPEND ces ${CMAKE_CURRENT_BINARY_DIR}/firmware/blk_devrd.elf:--penalty:miss=0,wb=0,uncached=2000
    ${CMAKE_CURRENT_BINARY_DIR}/firmware/blk_devflt_thumb.elf:--penalty:miss=0,wb=0,uncached=2000:--uart-rate:100)
  add_test(NAME capture_engines_smc COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/capture_engines.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DATA_DIR} ${CMAKE_CURRENT_BINARY_DIR}/capture_engines_smc ${ces})
  set_tests_properties(capture_engines_smc PROPERTIES LABELS e2e)
endif()
