# Post-mortem traces (issue 12, section 1): firmware that faults or hangs,
# captured, extracted and replayed exactly up to its end
# (tests/postmortem.sh).  Included from tests/CMakeLists.txt.
include(${PROJECT_SOURCE_DIR}/examples/bsp/citcat_firmware.cmake)
if(CITCAT_FIRMWARE_FOUND)
  set(pm_elfs)
  foreach(pair wild:1 stack:2 undef:3 hang:4 exit7:5 devjump:6)
    string(REPLACE ":" ";" pair ${pair})
    list(GET pair 0 name)
    list(GET pair 1 n)
    citcat_add_firmware(crash_${name} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/firmware/crash.c DEFINITIONS -DCRASH=${n}
      OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endforeach()
  find_program(ARM_NM arm-none-eabi-nm)
  foreach(section wild stack undef devjump limit sigint exit cli)
    add_test(NAME postmortem_${section} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/postmortem.sh ${section}
      $<TARGET_FILE:citcat_cli> ${CMAKE_CURRENT_BINARY_DIR} ${ARM_NM})
    set_tests_properties(postmortem_${section} PROPERTIES LABELS e2e TIMEOUT 300)
  endforeach()
endif()
