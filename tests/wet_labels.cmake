# WET shared labels (issue 10, section 3.3): a hand-written version 4 WET,
# its producers worked by hand, and every kind of bad label reference.
add_executable(test_wet_labels test_wet_labels.c)
citcat_target_setup(test_wet_labels)
target_link_libraries(test_wet_labels PRIVATE citcat)
target_include_directories(test_wet_labels PRIVATE ${CMAKE_SOURCE_DIR}/wet)
add_test(NAME test_wet_labels COMMAND test_wet_labels)
set_tests_properties(test_wet_labels PROPERTIES LABELS unit)
