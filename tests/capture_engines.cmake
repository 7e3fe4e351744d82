# The capture's block engine (issue 14, capture/TARGET.md "The block
# engine"): every ARM and Thumb example and the hand-written test firmware
# (faults, an undefined instruction, a WFI deadlock, DMA into a sleeping
# core, interrupt line 16, TE = 1 exception entry, UART input, --max-insns)
# captured with --engine insn and --engine block, the CAT, oracle and UART
# output compared byte for byte; the refusals (a Cortex-M7 run, segment
# checkpoints) checked against --engine auto (tests/capture_engines.sh).
# Included after the files that build that firmware.  blk_exc_* take a CPU
# exception inside a block run without the code hook (tests/firmware/blk_exc.c).
citcat_add_firmware(blk_exc_smc SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/blk_exc.c DEFINITIONS -DBLKEXC=1
  OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
citcat_add_firmware(blk_exc_undef SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/blk_exc.c DEFINITIONS -DBLKEXC=2
  OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND TARGET firmware_crash_wild AND TARGET firmware_m7cap
   AND TARGET firmware_ckpt AND TARGET robust_firmware AND TARGET firmware_trng)
  set(ce_elfs)
  foreach(n crc32 sha256 qsort matmul strsearch dijkstra sched uartline counter idle)
    list(APPEND ce_elfs ${CITCAT_EXAMPLE_DIR}/${n}.elf ${CITCAT_EXAMPLE_DIR}/${n}_thumb.elf)
  endforeach()
  list(APPEND ce_elfs ${CITCAT_EXAMPLE_DIR}/cxx_demo.elf)
  # interrupt- and DMA-heavy (issue 31): irqdma, and irqdma whose DMA input runs out
  foreach(n irqdma irqdma_thumb)
    list(APPEND ce_elfs ${CITCAT_EXAMPLE_DIR}/${n}.elf ${CITCAT_EXAMPLE_DIR}/${n}.elf:--dma-in:DMA16K)
  endforeach()
  foreach(n blk_exc_smc blk_exc_undef crash_devjump crash_exit7 crash_stack crash_undef crash_wild irq_line16 tiny wfi_dead wfi_dma)
    list(APPEND ce_elfs ${CMAKE_CURRENT_BINARY_DIR}/${n}.elf)
  endforeach()
  foreach(n idle_arm_te sched_thumb_te te_switch thumb_test trng)
    list(APPEND ce_elfs ${CMAKE_CURRENT_BINARY_DIR}/firmware/${n}.elf)
  endforeach()
  list(APPEND ce_elfs ${CMAKE_CURRENT_BINARY_DIR}/crash_hang.elf:--max-insns:1M
    ${CMAKE_CURRENT_BINARY_DIR}/ckpt.elf:--checkpoint-every:5000 ${CMAKE_CURRENT_BINARY_DIR}/m7/m7cap.elf)
  add_test(NAME capture_engines COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/capture_engines.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DATA_DIR} ${CMAKE_CURRENT_BINARY_DIR}/capture_engines ${ce_elfs})
  set_tests_properties(capture_engines PROPERTIES LABELS e2e)
endif()
