# Checkpoints on the Cortex-M7 (issue 14 part 3, capture/TARGET-M7.md
# "Checkpoints"; tests/m7ckpt.sh): sched and crc32 (IRQs, DMA) and the
# nested-exception firmware tests/firmware/m7ckpt.c captured with
# checkpoints and replayed serially, by segment (plan + GNU parallel +
# merge) and with --jobs 2, exact under --verify and --oracle; the dilation
# per checkpoint on matmul; usage errors; tampered segment state.
if(CITCAT_FIRMWARE_M7_FOUND AND TARGET m7rep_edit)
  citcat_add_firmware_m7(m7ckpt SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7ckpt.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  citcat_add_firmware_m7(m7ckpt_nmi SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7ckpt_nmi.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set(m7ck_args $<TARGET_FILE:citcat_cli> $<TARGET_FILE:m7rep_edit> ${CITCAT_EXAMPLE_DIR}/m7 ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set(m7ck_sections segments_sched segments_crc32 nested dilation usage tamper)
  if(CITCAT_SANITIZE)
    # the capture's checkpoint path, segment extraction and a checkpoint's
    # segment replayed with its SCS state, in 3 s; segments_sched and nested
    # take 40-70 s each under ASan (run by hand before merging)
    set(m7ck_sections tamper)
  endif()
  foreach(section IN LISTS m7ck_sections)
    add_test(NAME m7ckpt_${section} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7ckpt.sh ${section} ${m7ck_args})
    set_tests_properties(m7ckpt_${section} PROPERTIES LABELS e2e TIMEOUT 600)
  endforeach()
endif()
