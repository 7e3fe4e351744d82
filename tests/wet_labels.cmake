# WET shared labels (issue 10, section 3.3): a hand-written version 4 WET,
# its producers worked by hand, and every kind of bad label reference.
add_executable(test_wet_labels test_wet_labels.c)
citcat_target_setup(test_wet_labels)
target_link_libraries(test_wet_labels PRIVATE citcat)
target_include_directories(test_wet_labels PRIVATE ${CMAKE_SOURCE_DIR}/wet)
add_test(NAME test_wet_labels COMMAND test_wet_labels)
set_tests_properties(test_wet_labels PROPERTIES LABELS unit)
# WET version 5, tier 1 for access addresses and values: a hand-written
# WET, its pattern and unique-value streams worked by hand, and every kind
# of bad pattern.
add_executable(test_wet_acc test_wet_acc.c)
citcat_target_setup(test_wet_acc)
target_link_libraries(test_wet_acc PRIVATE citcat)
target_include_directories(test_wet_acc PRIVATE ${CMAKE_SOURCE_DIR}/wet)
add_test(NAME test_wet_acc COMMAND test_wet_acc)
set_tests_properties(test_wet_acc PROPERTIES LABELS unit)
