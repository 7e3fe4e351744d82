# Thumb-2 on the ARMv7-A target (issue 11, part 1).
# Unicorn's Thumb behaviour and the IRQ entry from Thumb state.
citcat_unit_test(test_unicorn_thumb)
target_include_directories(test_unicorn_thumb PRIVATE ${CMAKE_SOURCE_DIR}/capture ${CMAKE_SOURCE_DIR}/common)

# Hand-written Thumb tests (IT blocks, interworking, pop {pc}, interrupts in
# IT blocks and in 32-bit streams) and every example built with -mthumb:
# capture -> ims/aes -> replay --verify --oracle exact.
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  citcat_add_firmware(thumb_test THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/thumb_main.c
    ${CMAKE_CURRENT_SOURCE_DIR}/firmware/thumb_asm.S OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  add_test(NAME thumb_asm COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/thumb_check.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX}nm ${CMAKE_CURRENT_BINARY_DIR}/firmware/thumb_test.elf ${CMAKE_CURRENT_BINARY_DIR}/thumb)
  foreach(n IN LISTS CITCAT_EXAMPLE_THUMB_NAMES)
    set(extra)
    if(n STREQUAL "uartline_thumb")
      set(extra --uart-in ${CITCAT_EXAMPLE_DATA_DIR}/uartline.txt)
    endif()
    # the same run records the LVT and the DAF that lvt_NAME and daf_NAME check (below)
    add_test(NAME example_capture_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/example_capture.sh
      $<TARGET_FILE:citcat_cli> ${CITCAT_EXAMPLE_DIR}/${n}.elf ${CMAKE_CURRENT_BINARY_DIR}/thumb ${n} ${extra}
      --lvt ${CMAKE_CURRENT_BINARY_DIR}/thumb/${n}.lvt --daf ${CMAKE_CURRENT_BINARY_DIR}/thumb/${n}.daf)
    set_tests_properties(example_capture_${n} PROPERTIES FIXTURES_SETUP ex_${n})
    add_test(NAME replay_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/replay_example.sh
      $<TARGET_FILE:citcat_cli> ${CMAKE_CURRENT_BINARY_DIR}/thumb ${n})
    set_tests_properties(replay_${n} PROPERTIES FIXTURES_REQUIRED ex_${n})
    # the address formats and their second tiers on Thumb code (issue 34)
    if(NOT CITCAT_SANITIZE OR n MATCHES "^(crc32|sched)_thumb$")
      citcat_addr_roundtrip(${n} ${CMAKE_CURRENT_BINARY_DIR}/thumb/${n}.itrace)
      set_tests_properties(addr_roundtrip_${n} PROPERTIES FIXTURES_REQUIRED ex_${n})
    endif()
    # DAF on Thumb code (T32 rules, DAF.md): SDC-LSP + DAF and the itrace's
    # flow + DAF rebuild the itrace's din byte for byte (three examples in
    # the ASan suite, for its time budget)
    if(NOT CITCAT_SANITIZE OR n MATCHES "^(crc32|sched|uartline)_thumb$")
      add_test(NAME daf_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/daf_example.sh $<TARGET_FILE:citcat_cli>
        ${CITCAT_EXAMPLE_DIR}/${n}.elf ${n} ${CMAKE_CURRENT_BINARY_DIR}/thumb ${extra})
      set_tests_properties(daf_${n} PROPERTIES FIXTURES_REQUIRED ex_${n})
    endif()
  endforeach()
endif()

# itrace version 3 by hand, version 2 still read, Thumb classification and listing.
citcat_unit_test(test_thumb_formats)
target_include_directories(test_thumb_formats PRIVATE ${CMAKE_SOURCE_DIR}/formats ${CMAKE_SOURCE_DIR}/common)

# SDC-LSP on Thumb (ISA 2): decode(encode(trace)) equals the trace's
# addresses, sizes and states, every variant and several configurations.
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  foreach(n crc32_thumb sched_thumb)
    if(n IN_LIST CITCAT_EXAMPLE_THUMB_NAMES)
      add_test(NAME sdclsp_roundtrip_${n} COMMAND test_sdclsp_roundtrip ${CMAKE_CURRENT_BINARY_DIR}/thumb/${n}.itrace
        ${CITCAT_EXAMPLE_DIR}/${n}.elf)
      set_tests_properties(sdclsp_roundtrip_${n} PROPERTIES FIXTURES_REQUIRED ex_${n})
    endif()
  endforeach()
  add_test(NAME sdclsp_roundtrip_thumb_asm COMMAND test_sdclsp_roundtrip ${CMAKE_CURRENT_BINARY_DIR}/thumb/thumb_test.itrace
    ${CMAKE_CURRENT_BINARY_DIR}/firmware/thumb_test.elf)
  set_tests_properties(thumb_asm PROPERTIES FIXTURES_SETUP ex_thumb_test)
  set_tests_properties(sdclsp_roundtrip_thumb_asm PROPERTIES FIXTURES_REQUIRED ex_thumb_test)
endif()

# The LVT and the DAF on Thumb code (issue 11): hand-written Thumb-2 loads
# (IT blocks with condition-failed loads, PC-relative literals, LDRD, LDM,
# TBB) and thumb_asm.S's interworking, each LVT decoded with the firmware
# alone and checked against its oracle, each DAF rebuilding the din; and the
# LVT of every Thumb example (the fixtures above record it in the same run).
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  citcat_add_firmware(lvt_thumb THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/lvt_thumb_main.c
    ${CMAKE_CURRENT_SOURCE_DIR}/firmware/lvt_thumb.S OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  add_test(NAME lvt_thumb_asm COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lvt_thumb.sh $<TARGET_FILE:citcat_cli>
    ${CMAKE_CURRENT_BINARY_DIR}/firmware/lvt_thumb.elf ${CMAKE_CURRENT_BINARY_DIR}/thumb
    ${CMAKE_CURRENT_BINARY_DIR}/firmware/thumb_test.elf)
  foreach(n IN LISTS CITCAT_EXAMPLE_THUMB_NAMES)
    if(CITCAT_SANITIZE AND NOT n MATCHES "^(crc32|sched|uartline)_thumb$") # the ASan suite's time budget
      continue()
    endif()
    set(extra)
    if(n STREQUAL "uartline_thumb")
      set(extra --uart-in ${CITCAT_EXAMPLE_DATA_DIR}/uartline.txt)
    endif()
    add_test(NAME lvt_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lvt_example.sh $<TARGET_FILE:citcat_cli>
      ${CITCAT_EXAMPLE_DIR}/${n}.elf ${CMAKE_CURRENT_BINARY_DIR}/thumb ${n} ${extra})
    set_tests_properties(lvt_${n} PROPERTIES FIXTURES_REQUIRED ex_${n})
  endforeach()
endif()

# SCTLR.TE = 1 (issue 11): exceptions entered in Thumb state.  sched built
# Thumb-2 (interrupts from Thumb code) and idle built ARM (interrupts from
# ARM code: WFI and the BSP's `b .`), both with the BSP's THUMB_EXCEPTIONS
# (Thumb vectors and handlers): capture -> ims/aes -> replay --verify
# --oracle exact, with and without checkpoints, and the entries in the
# listing as the architecture says (tests/thumb_te.sh).
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  citcat_add_firmware(sched_thumb_te THUMB THUMB_EXCEPTIONS SOURCES ${CMAKE_SOURCE_DIR}/examples/sched/main.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  citcat_add_firmware(idle_arm_te THUMB_EXCEPTIONS SOURCES ${CMAKE_SOURCE_DIR}/examples/idle/main.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  add_test(NAME thumb_te_sched COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/thumb_te.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX}nm ${CMAKE_CURRENT_BINARY_DIR}/firmware/sched_thumb_te.elf ${CMAKE_CURRENT_BINARY_DIR}/thumb_te
    sched_thumb_te thumb $<TARGET_FILE:container_retag>)
  add_test(NAME thumb_te_idle COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/thumb_te.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX}nm ${CMAKE_CURRENT_BINARY_DIR}/firmware/idle_arm_te.elf ${CMAKE_CURRENT_BINARY_DIR}/thumb_te
    idle_arm_te arm)
  # TE changed by the firmware after P (TE = 0 in the IMS): capture and
  # replay both read the live SCTLR at each entry.
  citcat_add_firmware(te_switch SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/te_switch.c
    ${CMAKE_CURRENT_SOURCE_DIR}/firmware/te_switch_asm.S OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  add_test(NAME thumb_te_switch COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/thumb_te.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX}nm ${CMAKE_CURRENT_BINARY_DIR}/firmware/te_switch.elf ${CMAKE_CURRENT_BINARY_DIR}/thumb_te
    te_switch switch)
  set_tests_properties(thumb_te_sched thumb_te_idle thumb_te_switch PROPERTIES TIMEOUT 120)
endif()
