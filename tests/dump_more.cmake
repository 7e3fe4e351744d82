# citcat dump of LVT, DAF and SDC-LSP (issue 12): records walked beside the
# run's itrace or decoded with the program image, expected lines reasoned
# from tiny.S (tests/dump_flow.sh).  Included from tests/CMakeLists.txt.
if(TINY_ELF)
  add_test(NAME dump_flow COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/dump_flow.sh $<TARGET_FILE:citcat_cli> ${TINY_ELF})
  set_tests_properties(dump_flow PROPERTIES LABELS e2e)
endif()

# The firmware recorded in the CAT (formats/CAT.md, version 4).
citcat_unit_test(test_cat_elf)
find_program(ARM_READELF arm-none-eabi-readelf)
if("counter" IN_LIST CITCAT_EXAMPLE_NAMES AND ARM_READELF)
  add_test(NAME cat_elf COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cat_elf.sh $<TARGET_FILE:citcat_cli>
    ${CITCAT_EXAMPLE_DIR}/counter.elf ${ARM_READELF})
  set_tests_properties(cat_elf PROPERTIES LABELS e2e FIXTURES_REQUIRED ex_counter)
endif()

# A second interrupt forces the exit, temporary outputs removed (cli/util.c).
if(TARGET firmware_crash_hang)
  add_test(NAME sigint_twice COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/sigint_twice.sh $<TARGET_FILE:citcat_cli>
    ${CMAKE_CURRENT_BINARY_DIR}/crash_hang.elf)
  set_tests_properties(sigint_twice PROPERTIES LABELS e2e TIMEOUT 300)
endif()
