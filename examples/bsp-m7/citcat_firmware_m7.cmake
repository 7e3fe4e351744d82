# citcat_firmware_m7.cmake - build firmware for the modelled Cortex-M7
# target (capture/TARGET-M7.md).
#
#   include(path/to/examples/bsp-m7/citcat_firmware_m7.cmake)
#   citcat_add_firmware_m7(<name> SOURCES <src>... [DEFINITIONS <-DX=Y>...]
#                          [CFLAGS <flag>...] [LINK_FLAGS <flag>...]
#                          [OUTPUT_DIRECTORY <dir>])
#
# Builds <dir>/<name>.elf (default dir: ${CMAKE_CURRENT_BINARY_DIR}) from the
# C and assembly sources plus the M7 BSP, checks it with
# check-firmware-m7.sh, and adds a target firmware_<name> built by default.
# Sets CITCAT_FIRMWARE_M7_FOUND to FALSE (and does nothing else) when
# arm-none-eabi-gcc or its Thumb v7e-m newlib is missing.
#
# Code is compiled with -mcpu=cortex-m7 -mthumb -mfloat-abi=soft: for those
# flags GCC's multilib selection picks thumb/v7e-m/nofp, a Thumb-2 newlib
# and libgcc, which is what the M7 runs, so the driver links them itself
# (newlib nano through --specs=nano.specs, libm with -lm).  The BSP is
# examples/bsp-m7/ (vector table, reset, driver, linker script) plus the A
# target's portable C from examples/bsp/ (crt.c: constructors, trace start,
# main, exit and the interrupt dispatcher; syscalls.c: the newlib stubs), so
# a program includes citcat_target.h (devices) and citcat_m7.h (NVIC,
# SysTick) as before.  C++ is not wired up yet.

include_guard(DIRECTORY)

set(CITCAT_BSP_M7_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "CITCAT Cortex-M7 BSP directory")
get_filename_component(_citcat_bsp_a "${CMAKE_CURRENT_LIST_DIR}/../bsp" ABSOLUTE)
set(CITCAT_BSP_SHARED_DIR "${_citcat_bsp_a}" CACHE INTERNAL "CITCAT BSP directory shared by both targets")

find_program(CITCAT_ARM_GCC arm-none-eabi-gcc)
set(CITCAT_FW_M7_FLAGS -mcpu=cortex-m7 -mthumb -mfloat-abi=soft --specs=nano.specs)
set(CITCAT_FIRMWARE_M7_FOUND FALSE)
if(CITCAT_ARM_GCC)
  get_filename_component(_citcat_bin "${CITCAT_ARM_GCC}" DIRECTORY)
  set(CITCAT_ARM_TOOL_PREFIX_M7 "${_citcat_bin}/arm-none-eabi-")
  execute_process(COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_M7_FLAGS} -print-file-name=libc_nano.a
    OUTPUT_VARIABLE _citcat_m7_libc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(EXISTS "${_citcat_m7_libc}")
    set(CITCAT_FIRMWARE_M7_FOUND TRUE)
  endif()
endif()

set(CITCAT_FW_M7_COMMON ${CITCAT_FW_M7_FLAGS} -O2 -g -ffunction-sections -fdata-sections)
set(CITCAT_FW_M7_CFLAGS ${CITCAT_FW_M7_COMMON} -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -fno-common)
set(CITCAT_FW_M7_BSP_SOURCES
  ${CITCAT_BSP_M7_DIR}/startup.S ${CITCAT_BSP_SHARED_DIR}/crt.c ${CITCAT_BSP_SHARED_DIR}/syscalls.c
  ${CITCAT_BSP_M7_DIR}/citcat_driver_m7.S)

function(citcat_add_firmware_m7 name)
  cmake_parse_arguments(FW "" "OUTPUT_DIRECTORY" "SOURCES;DEFINITIONS;CFLAGS;LINK_FLAGS" ${ARGN})
  if(NOT CITCAT_FIRMWARE_M7_FOUND)
    return()
  endif()
  if(NOT FW_OUTPUT_DIRECTORY)
    set(FW_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(werror)
  if(CITCAT_WERROR)
    set(werror -Werror)
  endif()
  set(out ${FW_OUTPUT_DIRECTORY}/${name}.elf)
  set(objdir ${FW_OUTPUT_DIRECTORY}/${name}.obj)
  set(cmds COMMAND ${CMAKE_COMMAND} -E make_directory ${objdir})
  set(objs)
  set(srcs)
  set(i 0)
  foreach(s IN LISTS CITCAT_FW_M7_BSP_SOURCES FW_SOURCES)
    get_filename_component(s "${s}" ABSOLUTE)
    list(APPEND srcs ${s})
    get_filename_component(base "${s}" NAME)
    set(o ${objdir}/${i}_${base}.o)
    math(EXPR i "${i} + 1")
    set(inc -I${CITCAT_BSP_M7_DIR} -I${CITCAT_BSP_SHARED_DIR})
    if(s MATCHES "\\.(S|s)$")
      list(APPEND cmds COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_M7_COMMON} ${FW_DEFINITIONS} ${inc} -c ${s} -o ${o})
    else()
      list(APPEND cmds COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_M7_CFLAGS} ${werror} ${FW_DEFINITIONS} ${FW_CFLAGS}
        ${inc} -c ${s} -o ${o})
    endif()
    list(APPEND objs ${o})
  endforeach()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${FW_OUTPUT_DIRECTORY}
    ${cmds}
    COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_M7_COMMON} ${objs} ${FW_LINK_FLAGS} -nostartfiles
      -T ${CITCAT_BSP_M7_DIR}/link.ld -Wl,--gc-sections -Wl,-Map=${FW_OUTPUT_DIRECTORY}/${name}.map -lm
      -o ${out}.tmp
    COMMAND sh ${CITCAT_BSP_M7_DIR}/check-firmware-m7.sh ${out}.tmp ${CITCAT_ARM_TOOL_PREFIX_M7}
    COMMAND ${CMAKE_COMMAND} -E rename ${out}.tmp ${out}
    DEPENDS ${srcs} ${CITCAT_BSP_M7_DIR}/citcat_m7.h ${CITCAT_BSP_M7_DIR}/citcat_m7_regs.h ${CITCAT_BSP_SHARED_DIR}/citcat_target.h
      ${CITCAT_BSP_SHARED_DIR}/citcat_regs.h ${CITCAT_BSP_M7_DIR}/link.ld ${CITCAT_BSP_M7_DIR}/check-firmware-m7.sh
    COMMENT "Building Cortex-M7 firmware ${name}.elf"
    VERBATIM)
  add_custom_target(firmware_${name} ALL DEPENDS ${out})
endfunction()
