# Segment bundles (IMS version 3 / AES version 4, common/SEGIDX.md): the
# hand-built index and its malformations.  Included from tests/CMakeLists.txt.
citcat_unit_test(test_segidx)
target_include_directories(test_segidx PRIVATE ${CMAKE_SOURCE_DIR}/common)
