# Issue 10 measurement (WET.md, "Measured: sharing across statements"): how
# many dependence labels sharing across statements could remove.  Prints
# numbers; built, not run by CTest.
add_executable(wet_share wet_share.c)
citcat_target_setup(wet_share)
target_link_libraries(wet_share PRIVATE citcat PkgConfig::XXHASH)
target_include_directories(wet_share PRIVATE ${CMAKE_SOURCE_DIR}/wet)
# ... and what tier 1 (unique values + pattern) would do to the access
# value and address streams (WET.md, "Measured: tier 1 for access values").
add_executable(wet_tier1_acc wet_tier1_acc.c)
citcat_target_setup(wet_tier1_acc)
target_link_libraries(wet_tier1_acc PRIVATE citcat)
target_include_directories(wet_tier1_acc PRIVATE ${CMAKE_SOURCE_DIR}/wet)
