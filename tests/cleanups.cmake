# Cleanups across the tree (h-clean): cc_grow, info's file version, IRQ
# lines the CAT cannot carry.
citcat_unit_test(test_grow)
target_include_directories(test_grow PRIVATE ${PROJECT_SOURCE_DIR}/common)
if(TINY_ELF)
  add_test(NAME info_version COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/info_version.sh $<TARGET_FILE:citcat_cli>
    ${TINY_ELF} $<TARGET_FILE:container_retag>)
endif()

# Interrupt lines 16..31 (TARGET.md, Interrupt controller): the controller
# has lines 0..14; firmware/irq_line16.S enables and sets lines 16 and 31,
# then line 3, and exits 0 only when the first are ignored and line 3 is
# taken once.  The CAT then holds exactly one IRQ event.
if(ARM_AS AND ARM_LD)
  set(irq16_elf ${CMAKE_CURRENT_BINARY_DIR}/irq_line16.elf)
  add_custom_command(OUTPUT ${irq16_elf}
    COMMAND ${ARM_AS} -mcpu=cortex-a9 ${CMAKE_CURRENT_SOURCE_DIR}/firmware/irq_line16.S -o irq_line16.o
    COMMAND ${ARM_LD} -Ttext=0 -e _start irq_line16.o -o ${irq16_elf}
    DEPENDS firmware/irq_line16.S WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} COMMENT "Assembling irq_line16.elf")
  add_custom_target(irq_line16_firmware ALL DEPENDS ${irq16_elf})
  add_test(NAME irq_line16 COMMAND bash -c
    "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT; \
     \"$1\" capture \"$2\" -o $d/r.cat --seed 1 --exit-status -q; \
     \"$1\" info --json $d/r.cat | grep -q '\"irq\": 1,'"
    _ $<TARGET_FILE:citcat_cli> ${irq16_elf})
endif()
