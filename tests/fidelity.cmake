# Fidelity (issue 36): accesses that cross a line or a page, the CAT's
# WRITE sizes, regression firmware for each defect the random-program
# campaign found (tests/fidelity/README.md), and the campaign's fixed-seed
# slice.
citcat_unit_test(test_unicorn_split)
target_include_directories(test_unicorn_split PRIVATE ${CMAKE_SOURCE_DIR}/capture ${CMAKE_SOURCE_DIR}/common)
# the GE bits of the M7's xPSR (core_m7_write_xpsr; tests/ckpt_ge.sh)
citcat_unit_test(test_unicorn_ge)
target_include_directories(test_unicorn_ge PRIVATE ${CMAKE_SOURCE_DIR}/machine ${CMAKE_SOURCE_DIR}/common)

# Part 1: tests/firmware/straddle.c on ARM, Thumb-2 and the M7, in every
# line size, policy and write mode of the issue (tests/straddle.sh)
include(${PROJECT_SOURCE_DIR}/examples/bsp-m7/citcat_firmware_m7.cmake)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND CITCAT_FIRMWARE_M7_FOUND)
  set(fid_fw ${CMAKE_CURRENT_BINARY_DIR}/fidelity)
  citcat_add_firmware(straddle_arm SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/straddle.c OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware(straddle_thumb THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/straddle.c OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware_m7(straddle_m7 SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/straddle.c OUTPUT_DIRECTORY ${fid_fw})
  foreach(isa arm thumb m7) # one test each, so that ctest -j runs them side by side
    add_test(NAME straddle_${isa} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/straddle.sh $<TARGET_FILE:citcat_cli>
      $<TARGET_FILE:ref_cache> ${CITCAT_ARM_TOOL_PREFIX}nm $<TARGET_FILE:test_wet_ref> ${isa}=${fid_fw}/straddle_${isa}.elf)
    set_tests_properties(straddle_${isa} PROPERTIES LABELS e2e)
  endforeach()
endif()

# An unaligned load and store across the end of RAM (tests/ramend.sh)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware(ramend_ld SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ramend.c OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware(ramend_st SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ramend.c DEFINITIONS -DSTORE=1
    OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware_m7(ramend_m7 SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ramend.c OUTPUT_DIRECTORY ${fid_fw})
  add_test(NAME ramend COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ramend.sh $<TARGET_FILE:citcat_cli>
    ${fid_fw}/ramend_ld.elf ${fid_fw}/ramend_st.elf ${fid_fw}/ramend_m7.elf)
  set_tests_properties(ramend PROPERTIES LABELS e2e)
endif()

# An unaligned LDREX: the CAT with and without --oracle (tests/firmware/ldrex_align.c)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware(ldrex_align SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ldrex_align.c OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware_m7(ldrex_align_m7 SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ldrex_align.c OUTPUT_DIRECTORY ${fid_fw})
  foreach(n ldrex_align ldrex_align_m7)
    add_test(NAME fid_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fidelity/roundtrip.sh $<TARGET_FILE:citcat_cli> 3
      ${fid_fw}/${n}.elf)
    set_tests_properties(fid_${n} PROPERTIES LABELS e2e)
  endforeach()
endif()

# Part 3: the random-program campaign (tests/fidelity/README.md)
add_executable(fidgen fidelity/fidgen.c)
citcat_target_setup(fidgen)

# The campaign's fixed-seed slice (label fidelity): two Csmith and two fidgen
# programs, each built for ARM, Thumb-2 and the M7, under the baseline and two
# random machines: 36 runs checked end to end.  Smaller under the sanitizers.
find_program(CITCAT_CSMITH csmith)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND CITCAT_FIRMWARE_M7_FOUND AND CITCAT_CSMITH
   AND EXISTS /usr/include/csmith/csmith.h)
  set(fid_n 2)
  set(fid_k 2)
  if(CITCAT_SANITIZE)
    set(fid_n 1)
    set(fid_k 1)
  endif()
  add_test(NAME fidelity_csmith COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fidelity/campaign.sh
    --citcat $<TARGET_FILE:citcat_cli> --fidgen $<TARGET_FILE:fidgen> --csmith 1:${fid_n} --fidgen-seeds 1:0
    --configs ${fid_k} --out ${CMAKE_CURRENT_BINARY_DIR}/fidelity_csmith)
  add_test(NAME fidelity_fidgen COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fidelity/campaign.sh
    --citcat $<TARGET_FILE:citcat_cli> --fidgen $<TARGET_FILE:fidgen> --csmith 1:0 --fidgen-seeds 1:${fid_n}
    --configs ${fid_k} --out ${CMAKE_CURRENT_BINARY_DIR}/fidelity_fidgen)
  set_tests_properties(fidelity_csmith fidelity_fidgen PROPERTIES LABELS fidelity)
else()
  message(STATUS "citcat: the fidelity campaign's CTest slice needs csmith and libcsmith-dev (skipped)")
endif()

# Checkpoints between LDREX and STREX (tests/ckpt_excl.sh; found by the campaign)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware(ckpt_excl SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ckpt_excl.c OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware(ckpt_excl_thumb THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ckpt_excl.c OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware_m7(ckpt_excl_m7 SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ckpt_excl.c OUTPUT_DIRECTORY ${fid_fw})
  add_test(NAME ckpt_excl COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ckpt_excl.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX}nm ${fid_fw}/ckpt_excl.elf ${fid_fw}/ckpt_excl_thumb.elf ${fid_fw}/ckpt_excl_m7.elf)
  set_tests_properties(ckpt_excl PROPERTIES LABELS e2e)
endif()

# The GE bits across checkpoints and interrupts (tests/ckpt_ge.sh; found in strsearch_m7)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware(ckpt_ge SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ckpt_ge.c OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware(ckpt_ge_thumb THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ckpt_ge.c OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware_m7(ckpt_ge_m7 SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/ckpt_ge.c OUTPUT_DIRECTORY ${fid_fw})
  add_test(NAME ckpt_ge COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ckpt_ge.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_ARM_TOOL_PREFIX}nm ${fid_fw}/ckpt_ge.elf ${fid_fw}/ckpt_ge_thumb.elf ${fid_fw}/ckpt_ge_m7.elf)
  set_tests_properties(ckpt_ge PROPERTIES LABELS e2e)
endif()

# citcat dump --itrace of Cortex-M7 LVTs with exceptions and DMA (tests/lvt_dump_m7.sh)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND CITCAT_FIRMWARE_M7_FOUND)
  add_test(NAME lvt_dump_m7 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lvt_dump_m7.sh $<TARGET_FILE:citcat_cli>
    ${fid_fw}/ckpt_ge_m7.elf ${CMAKE_CURRENT_BINARY_DIR}/m7/m7cap.elf ${CMAKE_CURRENT_BINARY_DIR}/m7/m7fault.elf
    ${CITCAT_EXAMPLE_DIR}/m7/sched_m7.elf ${CITCAT_EXAMPLE_DIR}/m7/idle_m7.elf ${CITCAT_EXAMPLE_DIR}/m7/sha256_m7.elf)
  set_tests_properties(lvt_dump_m7 PROPERTIES LABELS e2e)
endif()

# Conditional accesses decided on flags a later compare overwrites: the
# block engine's flag sources (tests/condflags.sh, tests/firmware/condflags.c)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  set(fid_fw ${CMAKE_CURRENT_BINARY_DIR}/fidelity)
  citcat_add_firmware(condflags SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/condflags.c OUTPUT_DIRECTORY ${fid_fw})
  citcat_add_firmware(condflags_thumb THUMB SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/condflags.c OUTPUT_DIRECTORY ${fid_fw})
  add_test(NAME condflags COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/condflags.sh $<TARGET_FILE:citcat_cli>
    ${fid_fw}/condflags.elf ${fid_fw}/condflags_thumb.elf)
  set_tests_properties(condflags PROPERTIES LABELS e2e)
endif()
