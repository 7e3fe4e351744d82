# Cortex-M7 groundwork (issue 11 part 2): Unicorn's M-profile behaviour,
# citcat's M-profile exception model, the M7 BSP.
citcat_unit_test(test_unicorn_m)
citcat_unit_test(test_m7exc)
target_include_directories(test_m7exc PRIVATE ${PROJECT_SOURCE_DIR}/machine)

# The M7 BSP: a small firmware run to exit on Unicorn with the exception
# model (m7_run), and the ten examples built for the M7 checked.
add_executable(m7_run m7_run.c)
citcat_target_setup(m7_run)
target_link_libraries(m7_run PRIVATE citcat)
target_include_directories(m7_run PRIVATE ${PROJECT_SOURCE_DIR}/machine)
include(${PROJECT_SOURCE_DIR}/examples/bsp-m7/citcat_firmware_m7.cmake)
if(CITCAT_FIRMWARE_M7_FOUND)
  citcat_add_firmware_m7(m7_smoke SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/m7_smoke.c
    OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/m7)
  set(m7_examples)
  foreach(n IN LISTS CITCAT_EXAMPLE_M7_NAMES)
    list(APPEND m7_examples ${CITCAT_EXAMPLE_DIR}/m7/${n}_m7.elf)
  endforeach()
  set(m7_runset all)
  if(CITCAT_SANITIZE)
    set(m7_runset sched,idle) # interrupts through the NVIC; memory checks only
  endif()
  add_test(NAME m7_bsp COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/m7_bsp.sh $<TARGET_FILE:m7_run>
    ${PROJECT_SOURCE_DIR}/examples/bsp-m7 ${CITCAT_ARM_TOOL_PREFIX_M7} ${m7_runset}
    ${CMAKE_CURRENT_BINARY_DIR}/m7/m7_smoke.elf
    ${m7_examples})
  set_tests_properties(m7_bsp PROPERTIES LABELS e2e)
endif()
