# Cortex-M7 groundwork (issue 11 part 2): Unicorn's M-profile behaviour,
# citcat's M-profile exception model, the M7 BSP.
citcat_unit_test(test_unicorn_m)
citcat_unit_test(test_m7exc)
target_include_directories(test_m7exc PRIVATE ${PROJECT_SOURCE_DIR}/capture)
