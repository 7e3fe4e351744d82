# Precise BusFault on the Cortex-M7 (issue 11, capture/TARGET-M7.md Faults):
# hand-written firmware whose handlers check CFSR, BFAR, HFSR and the
# stacked frame against values worked out by hand, the escalation to
# HardFault, no handler, exact replay and a tampered AES (tests/m7fault.sh).
if(CITCAT_FIRMWARE_M7_FOUND AND TARGET m7rep_edit)
  citcat_add_firmware_m7(m7fault SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7fault.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  citcat_add_firmware_m7(m7fault_nohandler SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7fault_nohandler.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  add_test(NAME m7fault COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7fault.sh $<TARGET_FILE:citcat_cli>
    $<TARGET_FILE:m7rep_edit> ${CITCAT_ARM_TOOL_PREFIX_M7} ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set_tests_properties(m7fault PROPERTIES LABELS e2e)
endif()
# the Unicorn behaviour the BusFault relies on (unit)
citcat_unit_test(test_unicorn_m_fault)
# and what the device and SCS BusFaults rely on in MMIO callbacks (unit)
citcat_unit_test(test_unicorn_m_mmio)
# and what resuming inside an IT block after a BusFault relies on (unit;
# TARGET-M7.md, "IT blocks and bus errors")
citcat_unit_test(test_unicorn_m_it)
# Stacking, unstacking and vector-read bus errors (STKERR, UNSTKERR,
# VECTTBL; TARGET-M7.md Faults): firmware checks by hand, the oracle's
# entry records and exact replay (tests/m7stk.sh).
if(CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware_m7(m7stk SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7stk.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  add_test(NAME m7stk COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7stk.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX_M7} ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set_tests_properties(m7stk PROPERTIES LABELS e2e)
endif()
# Lockups from those errors (a VECTTBL whose HardFault vector fails too, a
# STKERR of NMI taken with FAULTMASK set): the capture stops naming the
# lockup, and the run up to it replays exactly (tests/m7lock.sh).
if(CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware_m7(m7lock_vecttbl SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7lock.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  citcat_add_firmware_m7(m7lock_stkerr SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7lock.c
    DEFINITIONS -DM7LOCK_STKERR OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  add_test(NAME m7lock COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7lock.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX_M7} ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set_tests_properties(m7lock PROPERTIES LABELS e2e)
endif()
# Imprecise BusFault: a store to a device register no device accepts is
# dropped and taken later (IMPRECISERR; TARGET-M7.md Faults): firmware
# checks by hand, exact replay, --lvt and --daf (tests/m7imp.sh).
if(CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware_m7(m7imp SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7imp.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  citcat_add_firmware_m7(m7imp_masked SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7imp.c
    DEFINITIONS -DM7IMP_MASKED OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  add_test(NAME m7imp COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7imp.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX_M7} ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set_tests_properties(m7imp PROPERTIES LABELS e2e)
endif()
# Precise BusFaults of device and SCS accesses (a register no device
# reads, the wrong size, a refused SCS access) and the imprecise device
# write of the wrong size (TARGET-M7.md Faults): firmware checks by hand,
# exact replay (AES, LVT, DAF) (tests/m7dev.sh).
if(CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware_m7(m7dev SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7dev.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  citcat_add_firmware_m7(m7dev_nohandler SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7dev.c
    DEFINITIONS -DM7DEV_NOHANDLER OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  add_test(NAME m7dev COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7dev.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX_M7} ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set_tests_properties(m7dev PROPERTIES LABELS e2e)
endif()
# A precise BusFault inside an IT block: ITSTATE stacked, the return
# resumes inside the block (TARGET-M7.md "IT blocks and bus errors"):
# firmware checks by hand, exact replay (AES, LVT) (tests/m7it.sh).
if(CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware_m7(m7it SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7it.c
    LINK_FLAGS -Wl,--section-start=.m7it_end=0x00fffff8 OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  add_test(NAME m7it COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7it.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX_M7} ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set_tests_properties(m7it PROPERTIES LABELS e2e)
endif()
