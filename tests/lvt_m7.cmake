# The LVT on the Cortex-M7 (formats/LVT.md, "The Cortex-M7"): every M7
# example and the hand-written exception and fault firmware captured with
# --lvt and decoded equal to the oracle, corruption and a fault end refused
# (tests/lvt_m7.sh); tampered trace-port bits reported at the consuming
# instruction (test_lvt_tamper on m7cap: nested preemption, SVC, faults).
if(CITCAT_FIRMWARE_M7_FOUND)
  set(lvt_m7_names ${CITCAT_EXAMPLE_M7_NAMES})
  if(CITCAT_SANITIZE)
    set(lvt_m7_names sched sha256) # the NVIC and DMA: memory checks only
  endif()
  set(lvt_m7_elfs)
  foreach(n IN LISTS lvt_m7_names)
    list(APPEND lvt_m7_elfs ${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf)
  endforeach()
  set(lvt_m7_hand ${CMAKE_CURRENT_BINARY_DIR}/m7/m7cap.elf ${CMAKE_CURRENT_BINARY_DIR}/m7/m7fault.elf)
  add_test(NAME lvt_m7 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lvt_m7.sh $<TARGET_FILE:citcat_cli>
    ${CMAKE_CURRENT_BINARY_DIR}/lvt_m7 ${lvt_m7_hand} ${lvt_m7_elfs}
    -- ${CMAKE_CURRENT_BINARY_DIR}/m7/m7cap_nohandler.elf)
  set_tests_properties(lvt_m7 PROPERTIES LABELS e2e)
  # the long variants (examples/CMakeLists.txt builds them with the M7 examples)
  if(NOT CITCAT_SANITIZE)
    add_test(NAME lvt_m7_long COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lvt_m7.sh $<TARGET_FILE:citcat_cli>
      ${CMAKE_CURRENT_BINARY_DIR}/lvt_m7_long --no-word ${CITCAT_EXAMPLE_DIR}/m7/matmul_long_m7.elf
      ${CITCAT_EXAMPLE_DIR}/m7/sha256_long_m7.elf)
    set_tests_properties(lvt_m7_long PROPERTIES LABELS slow)
  endif()
  if(TARGET test_lvt_tamper)
    add_test(NAME lvt_tamper_m7cap COMMAND test_lvt_tamper ${CMAKE_CURRENT_BINARY_DIR}/m7/m7cap.elf
      ${CMAKE_CURRENT_BINARY_DIR}/lvt_tamper_m7cap m7)
  endif()
endif()
