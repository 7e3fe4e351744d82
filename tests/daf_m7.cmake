# Data-address filtering on the Cortex-M7 (formats/DAF.md, "The Cortex-M7"):
# daf_NAME_m7 captures each M7 example with its oracle and a DAF and checks
# that SDC-LSP + DAF rebuilds the oracle's din byte for byte, exception
# model accesses included (tests/daf_m7.sh); daf_m7cap, daf_m7fault and
# daf_m7stk do the same on the hand-written firmware: nested preemption,
# SVC, PendSV, SysTick, a UsageFault; precise BusFaults and escalation;
# stacking, unstacking and vector-read bus errors.
if(CITCAT_FIRMWARE_M7_FOUND)
  set(daf_m7_names ${CITCAT_EXAMPLE_M7_NAMES})
  if(CITCAT_SANITIZE)
    set(daf_m7_names sched crc32) # NVIC interrupts, DMA: memory checks only
  endif()
  foreach(n IN LISTS daf_m7_names)
    if(n MATCHES "_long$")
      continue() # the long variants: below, label slow
    endif()
    set(opts)
    if(n STREQUAL "sched")
      set(opts --raw)
    endif()
    add_test(NAME daf_${n}_m7 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/daf_m7.sh $<TARGET_FILE:citcat_cli>
      ${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf ${opts})
    set_tests_properties(daf_${n}_m7 PROPERTIES LABELS e2e)
  endforeach()
  if(NOT CITCAT_SANITIZE)
    foreach(n matmul_long sha256_long)
      add_test(NAME daf_${n}_m7 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/daf_m7.sh $<TARGET_FILE:citcat_cli>
        ${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf --long)
      set_tests_properties(daf_${n}_m7 PROPERTIES LABELS slow)
    endforeach()
  endif()
  if(TARGET firmware_m7cap)
    add_test(NAME daf_m7cap COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/daf_m7.sh $<TARGET_FILE:citcat_cli>
      ${CMAKE_CURRENT_BINARY_DIR}/m7/m7cap.elf --raw --tamper)
    set_tests_properties(daf_m7cap PROPERTIES LABELS e2e)
  endif()
  if(TARGET firmware_m7fault)
    add_test(NAME daf_m7fault COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/daf_m7.sh $<TARGET_FILE:citcat_cli>
      ${CMAKE_CURRENT_BINARY_DIR}/m7/m7fault.elf --fix)
    set_tests_properties(daf_m7fault PROPERTIES LABELS e2e)
  endif()
  if(TARGET firmware_m7dev)
    add_test(NAME daf_m7dev COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/daf_m7.sh $<TARGET_FILE:citcat_cli>
      ${CMAKE_CURRENT_BINARY_DIR}/m7/m7dev.elf --fix)
    set_tests_properties(daf_m7dev PROPERTIES LABELS e2e)
  endif()
  if(TARGET firmware_m7it)
    add_test(NAME daf_m7it COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/daf_m7.sh $<TARGET_FILE:citcat_cli>
      ${CMAKE_CURRENT_BINARY_DIR}/m7/m7it.elf)
    set_tests_properties(daf_m7it PROPERTIES LABELS e2e)
  endif()
  if(TARGET firmware_m7stk)
    add_test(NAME daf_m7stk COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/daf_m7.sh $<TARGET_FILE:citcat_cli>
      ${CMAKE_CURRENT_BINARY_DIR}/m7/m7stk.elf --ram 32M)
    set_tests_properties(daf_m7stk PROPERTIES LABELS e2e)
  endif()
endif()
