# Fidelity (issue 36): accesses that cross a line or a page, the CAT's
# WRITE sizes, regression firmware for each defect the random-program
# campaign found (tests/fidelity/README.md), and the campaign's fixed-seed
# slice.
citcat_unit_test(test_unicorn_split)
target_include_directories(test_unicorn_split PRIVATE ${CMAKE_SOURCE_DIR}/capture ${CMAKE_SOURCE_DIR}/common)
