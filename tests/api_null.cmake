# Every exported function with NULL handles and pointers (issue 13).
# Included from tests/CMakeLists.txt.  Public headers and the shared library
# only, like test_api; api_null_cover fails when an export is not called.
add_executable(test_api_null test_api_null.c)
citcat_target_setup(test_api_null)
target_link_libraries(test_api_null PRIVATE citcat_shared)
target_include_directories(test_api_null PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}) # check.h
add_test(NAME test_api_null COMMAND test_api_null)
add_test(NAME api_null_cover COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/api_null_cover.sh
  $<TARGET_FILE:citcat_shared> ${CMAKE_CURRENT_SOURCE_DIR}/test_api_null.c)
set_tests_properties(test_api_null api_null_cover PROPERTIES LABELS unit)
