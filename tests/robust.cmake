# Hardening (issue 15): regression tests for hostile inputs and interruptions
# that used to crash, hang or exhaust memory (tests/robust_cli.sh, one CTest
# per section).  Included from tests/CMakeLists.txt.
add_executable(elfgen elfgen.c)
citcat_target_setup(elfgen)
target_include_directories(elfgen PRIVATE ${PROJECT_SOURCE_DIR}/common)
add_executable(pcs_gen pcs_gen.c)
citcat_target_setup(pcs_gen)
target_link_libraries(pcs_gen PRIVATE citcat)

# The REPEAT bombs in the AES corpus must be read in bounded time.
set_tests_properties(fuzz_aes_corpus PROPERTIES TIMEOUT 60)

find_program(ARM_AS arm-none-eabi-as)
find_program(ARM_LD arm-none-eabi-ld)
if(ARM_AS AND ARM_LD)
  # name, link address
  set(robust_fw wfi_dead 0 wfi_dma 0 spin_hi 0x20000000)
  set(robust_elfs)
  while(robust_fw)
    list(POP_FRONT robust_fw name addr)
    string(REGEX REPLACE "_hi$" "" src ${name})
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.elf)
    add_custom_command(OUTPUT ${out}
      COMMAND ${ARM_AS} -mcpu=cortex-a9 ${CMAKE_CURRENT_SOURCE_DIR}/firmware/${src}.S -o ${name}.o
      COMMAND ${ARM_LD} -Ttext=${addr} -e _start ${name}.o -o ${out}
      DEPENDS firmware/${src}.S WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} COMMENT "Assembling ${name}.elf")
    list(APPEND robust_elfs ${out})
  endwhile()
  add_custom_target(robust_firmware ALL DEPENDS ${robust_elfs})
  set(robust_sections elf wfi aes signals sdclsp_rss)
  if(CITCAT_EXAMPLES AND CITCAT_EXAMPLE_NAMES)
    list(APPEND robust_sections replay) # needs a firmware with the CITCAT driver
  endif()
  foreach(section IN LISTS robust_sections)
    add_test(NAME robust_${section} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/robust_cli.sh ${section}
      $<TARGET_FILE:citcat_cli> $<TARGET_FILE:elfgen> $<TARGET_FILE:pcs_gen> ${CMAKE_CURRENT_BINARY_DIR}
      ${CMAKE_CURRENT_SOURCE_DIR} ${CITCAT_EXAMPLE_DIR}/crc32.elf)
    set_tests_properties(robust_${section} PROPERTIES TIMEOUT 300)
  endforeach()
endif()
