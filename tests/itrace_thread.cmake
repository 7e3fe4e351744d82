# issue 14: the itrace writer's encoder thread and chunk cuts (formats/itrace.c)
citcat_unit_test(test_itrace_thread)
# session 11: the replayer's batched hand-over of access-free A32 records
# (itrace_write_a32_seq) writes the bytes of one call per record
citcat_unit_test(test_itrace_seq)
# the splicing merge of segment itraces (formats/itrace_merge.c)
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND)
  add_test(NAME itrace_merge COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/itrace_merge.sh $<TARGET_FILE:citcat_cli> ${CITCAT_EXAMPLE_DIR}
           $<TARGET_FILE:pcs_gen>)
  set_tests_properties(itrace_merge PROPERTIES LABELS e2e TIMEOUT 600)
endif()
