# Cleanups across the tree (h-clean): cc_grow, info's file version, IRQ
# lines the CAT cannot carry.
citcat_unit_test(test_grow)
target_include_directories(test_grow PRIVATE ${PROJECT_SOURCE_DIR}/common)
if(TINY_ELF)
  add_test(NAME info_version COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/info_version.sh $<TARGET_FILE:citcat_cli>
    ${TINY_ELF} $<TARGET_FILE:container_retag>)
endif()
