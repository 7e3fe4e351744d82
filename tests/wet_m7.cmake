# The WET of Cortex-M7 runs (WET.md "Cortex-M7") against the brute-force
# reference (test_wet_ref, tests/wet_example.sh through wet_thumb.sh):
# the first 100,000 instructions of sched_m7 (74 interrupts) and crc32_m7;
# the hand-written firmware whole: m7cap (104,256 instructions: nested
# IRQs, SVC, PendSV, SysTick, a UDF UsageFault), m7fault (27,615: BusFault
# PRECISERR at a load and a store, a fetch fault, escalations to
# HardFault) and m7stk (2,843, --ram 32M: STKERR with stacking outside RAM
# wholly and in part, UNSTKERR, a return to the PSP).  The sanitizer build
# (memory checks): m7fault and m7stk whole, 3 spaced slices.
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_M7_FOUND)
  set(wet_m7_hand m7fault m7stk m7it)
  if(NOT CITCAT_SANITIZE)
    list(APPEND wet_m7_hand m7cap)
    foreach(n sched crc32)
      if(n IN_LIST CITCAT_EXAMPLE_M7_NAMES)
        add_test(NAME wet_${n}_m7 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_thumb.sh $<TARGET_FILE:citcat_cli>
          $<TARGET_FILE:test_wet_ref> ${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf ${n}_m7 100000 ${wet_thumb_spaced})
      endif()
    endforeach()
  endif()
  foreach(n IN LISTS wet_m7_hand)
    set(opt)
    if(n STREQUAL "m7stk")
      set(opt --ram 32M) # RAM ends at 0x02000000: a frame stacked in part (tests/m7stk.sh)
    endif()
    add_test(NAME wet_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_thumb.sh $<TARGET_FILE:citcat_cli>
      $<TARGET_FILE:test_wet_ref> ${CMAKE_CURRENT_BINARY_DIR}/m7/${n}.elf ${n} 200000 ${wet_thumb_spaced} ${opt})
  endforeach()
endif()
# what stays refused: the whole of a checkpointed M7 capture (a segment
# bundle) without --segment K
if(CITCAT_EXAMPLES AND "sched" IN_LIST CITCAT_EXAMPLE_M7_NAMES)
  add_test(NAME wet_m7_ckpt_refused COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_m7_ckpt.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR}/m7/sched_m7.elf)
  # the WET of one segment (--segment K) of a checkpointed sched_m7 capture:
  # segments 1 and 9 (the latter inside the timer handler) against the
  # reference, and the A target's segments refused (its sched, when built;
  # tests/wet_m7_seg.sh).  Release only: 7.9 s in the sanitizer build
  # (where it passed clean), 6.8 s there with segment 9 alone.
  if(NOT CITCAT_SANITIZE)
    set(wet_a_elf)
    if("sched" IN_LIST CITCAT_EXAMPLE_NAMES)
      set(wet_a_elf ${CITCAT_EXAMPLE_DIR}/sched.elf)
    endif()
    add_test(NAME wet_m7_seg COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_m7_seg.sh $<TARGET_FILE:citcat_cli>
      $<TARGET_FILE:test_wet_ref> ${CITCAT_EXAMPLE_DIR}/m7/sched_m7.elf ${CITCAT_ARM_TOOL_PREFIX_M7}nm ${wet_a_elf})
  endif()
endif()
