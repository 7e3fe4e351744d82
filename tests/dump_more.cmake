# citcat dump of LVT, DAF and SDC-LSP (issue 12): records walked beside the
# run's itrace or decoded with the program image, expected lines reasoned
# from tiny.S (tests/dump_flow.sh).  Included from tests/CMakeLists.txt.
if(TINY_ELF)
  add_test(NAME dump_flow COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/dump_flow.sh $<TARGET_FILE:citcat_cli> ${TINY_ELF})
  set_tests_properties(dump_flow PROPERTIES LABELS e2e)
endif()
