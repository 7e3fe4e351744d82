# WET version 7 (issue 32): the range coder and the segment models round
# trip (test_wet_rc); a run worked by hand through the segment coder, and
# files of older versions and damaged ones refused at the byte at fault
# (test_wet_v7).
add_executable(test_wet_rc test_wet_rc.c)
citcat_target_setup(test_wet_rc)
target_link_libraries(test_wet_rc PRIVATE citcat)
target_include_directories(test_wet_rc PRIVATE ${CMAKE_SOURCE_DIR}/wet)
add_test(NAME test_wet_rc COMMAND test_wet_rc)
set_tests_properties(test_wet_rc PROPERTIES LABELS unit)
add_executable(test_wet_v7 test_wet_v7.c)
citcat_target_setup(test_wet_v7)
target_link_libraries(test_wet_v7 PRIVATE citcat PkgConfig::XXHASH)
target_include_directories(test_wet_v7 PRIVATE ${CMAKE_SOURCE_DIR}/wet)
add_test(NAME test_wet_v7 COMMAND test_wet_v7 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/wet/irqs.wet)
set_tests_properties(test_wet_v7 PROPERTIES LABELS unit)
# The layout of WET.md read by a reader of its own (tests/wet_spec.py,
# Python: xxHash through libxxhash, xz through lzma) on the fuzz seeds, and
# twelve forbidden fields (tests/wet_spec_mutate.py) refused by both readers.
add_test(NAME wet_spec COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_spec.sh ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/wet
  $<TARGET_FILE:citcat_cli>)
set_tests_properties(wet_spec PROPERTIES LABELS unit)
# Issue 11, first step of the WET on Thumb code: the def-use decoder's
# Thumb sets (hand-worked encodings) and, on the hand-written Thumb test
# and two Thumb examples, every instruction's condition and def set
# against the replayed register file.
add_executable(test_wet_thumb_du test_wet_thumb_du.c)
citcat_target_setup(test_wet_thumb_du)
target_link_libraries(test_wet_thumb_du PRIVATE citcat)
target_include_directories(test_wet_thumb_du PRIVATE ${CMAKE_SOURCE_DIR}/wet ${CMAKE_SOURCE_DIR}/formats)
add_test(NAME test_wet_thumb_du COMMAND test_wet_thumb_du)
set_tests_properties(test_wet_thumb_du PROPERTIES LABELS unit)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  foreach(n thumb_test crc32_thumb sched_thumb)
    if(n STREQUAL "thumb_test" OR n IN_LIST CITCAT_EXAMPLE_THUMB_NAMES)
      add_test(NAME wet_thumb_du_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_thumb_du.sh $<TARGET_FILE:citcat_cli>
        $<TARGET_FILE:test_wet_thumb_du> ${CMAKE_CURRENT_BINARY_DIR}/thumb ${n})
      set_tests_properties(wet_thumb_du_${n} PROPERTIES FIXTURES_REQUIRED ex_${n})
    endif()
  endforeach()
endif()
# Issue 11: control dependences of Thumb code, a run worked by hand
# (BL T1 and BLX Rm calls, an interrupt taken in Thumb state).
add_executable(test_wet_cdep_thumb test_wet_cdep_thumb.c)
citcat_target_setup(test_wet_cdep_thumb)
target_link_libraries(test_wet_cdep_thumb PRIVATE citcat)
target_include_directories(test_wet_cdep_thumb PRIVATE ${CMAKE_SOURCE_DIR}/wet)
add_test(NAME test_wet_cdep_thumb COMMAND test_wet_cdep_thumb)
set_tests_properties(test_wet_cdep_thumb PROPERTIES LABELS unit)
# Issue 11: the WET of Thumb code against the brute-force reference
# (test_wet_ref, tests/wet_example.sh): the hand-written IT-heavy run
# whole (IT blocks, interworking, interrupts inside IT blocks) from its
# fixture, and the first 300,000 instructions of crc32_thumb and
# sched_thumb captured by tests/wet_thumb.sh (a few seconds each).  The
# sanitizer build (memory checks, not exactness; about 3-4 s of CPU each):
# the first 60,000 instructions of the hand-written run, 50,000 of
# crc32_thumb, 3 evenly spaced slices.
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  if(CITCAT_SANITIZE)
    set(wet_thumb_spaced 3)
    set(wet_thumb_max 50000)
    set(wet_thumb_examples crc32_thumb)
    add_test(NAME wet_thumb_test COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_thumb.sh $<TARGET_FILE:citcat_cli>
      $<TARGET_FILE:test_wet_ref> ${CMAKE_CURRENT_BINARY_DIR}/firmware/thumb_test.elf thumb_test 60000 3)
  else()
    set(wet_thumb_spaced 8)
    set(wet_thumb_max 300000)
    set(wet_thumb_examples crc32_thumb sched_thumb)
    add_test(NAME wet_thumb_test COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_example.sh $<TARGET_FILE:citcat_cli>
      $<TARGET_FILE:test_wet_ref> ${CMAKE_CURRENT_BINARY_DIR}/thumb thumb_test ${wet_thumb_spaced} nozip)
    set_tests_properties(wet_thumb_test PROPERTIES FIXTURES_REQUIRED ex_thumb_test)
  endif()
  foreach(n IN LISTS wet_thumb_examples)
    if(n IN_LIST CITCAT_EXAMPLE_THUMB_NAMES)
      add_test(NAME wet_${n} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_thumb.sh $<TARGET_FILE:citcat_cli>
        $<TARGET_FILE:test_wet_ref> ${CITCAT_EXAMPLE_DIR}/${n}.elf ${n} ${wet_thumb_max} ${wet_thumb_spaced})
    endif()
  endforeach()
  # SCTLR.TE = 1 (handlers in Thumb state, tests/thumb.cmake's firmware):
  # te_switch whole (6,320 instructions, TE set and cleared by the
  # firmware, entries in both states) and, release only, the first 100,000
  # instructions of sched_thumb_te (Thumb code interrupted, Thumb handlers)
  add_test(NAME wet_te_switch COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_thumb.sh $<TARGET_FILE:citcat_cli>
    $<TARGET_FILE:test_wet_ref> ${CMAKE_CURRENT_BINARY_DIR}/firmware/te_switch.elf te_switch 300000 ${wet_thumb_spaced})
  if(NOT CITCAT_SANITIZE)
    add_test(NAME wet_sched_thumb_te COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wet_thumb.sh $<TARGET_FILE:citcat_cli>
      $<TARGET_FILE:test_wet_ref> ${CMAKE_CURRENT_BINARY_DIR}/firmware/sched_thumb_te.elf sched_thumb_te 100000 3)
  endif()
endif()
