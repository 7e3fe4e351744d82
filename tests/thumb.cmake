# Thumb-2 on the ARMv7-A target (issue 11, part 1).
# Unicorn's Thumb behaviour and the IRQ entry from Thumb state.
citcat_unit_test(test_unicorn_thumb)
target_include_directories(test_unicorn_thumb PRIVATE ${CMAKE_SOURCE_DIR}/capture ${CMAKE_SOURCE_DIR}/common)
