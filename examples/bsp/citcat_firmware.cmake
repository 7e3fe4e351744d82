# citcat_firmware.cmake - build firmware for the modelled CITCAT target.
#
#   include(path/to/examples/bsp/citcat_firmware.cmake)
#   citcat_add_firmware(<name> SOURCES <src>... [DEFINITIONS <-DX=Y>...]
#                       [OUTPUT_DIRECTORY <dir>])
#
# Builds <dir>/<name>.elf (default dir: ${CMAKE_CURRENT_BINARY_DIR}) from the
# sources plus the BSP, with one cross-compiler invocation, checks it with
# check-firmware.sh (no Thumb, no VFP, vectors at 0), and adds a target
# firmware_<name> built by default.  Sets CITCAT_FIRMWARE_FOUND to FALSE
# (and does nothing else) when arm-none-eabi-gcc is missing.
#
# Why the flags look as they do: code is compiled for -mcpu=cortex-a9
# -marm -mfloat-abi=soft, but with those flags GCC's multilib selection
# picks thumb/v7-a/nofp, i.e. a Thumb-2 newlib and libgcc.  The model runs
# ARM state only, so the libraries are taken from the default "." multilib
# (ARMv4T, ARM state) by asking the driver for their paths with the
# multilib-neutral flags -marm -mfloat-abi=soft and linking them explicitly
# (-nostartfiles -nodefaultlibs).  check-firmware.sh verifies the result.

include_guard(DIRECTORY) # variables are directory-scoped: re-evaluate per including directory

set(CITCAT_BSP_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "CITCAT BSP directory")

find_program(CITCAT_ARM_GCC arm-none-eabi-gcc)
find_program(CITCAT_ARM_OBJDUMP arm-none-eabi-objdump)
set(CITCAT_FIRMWARE_FOUND FALSE)
if(CITCAT_ARM_GCC AND CITCAT_ARM_OBJDUMP)
  get_filename_component(_citcat_bin "${CITCAT_ARM_GCC}" DIRECTORY)
  set(CITCAT_ARM_TOOL_PREFIX "${_citcat_bin}/arm-none-eabi-")
  set(CITCAT_FW_LIB_FLAGS -marm -mfloat-abi=soft --specs=nano.specs)
  execute_process(COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_LIB_FLAGS} -print-multi-directory
    OUTPUT_VARIABLE _citcat_multi OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_LIB_FLAGS} -print-file-name=libc_nano.a
    OUTPUT_VARIABLE CITCAT_FW_LIBC OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_LIB_FLAGS} -print-libgcc-file-name
    OUTPUT_VARIABLE CITCAT_FW_LIBGCC OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _citcat_multi STREQUAL "." OR NOT EXISTS "${CITCAT_FW_LIBC}" OR NOT EXISTS "${CITCAT_FW_LIBGCC}")
    message(WARNING "arm-none-eabi-gcc: no ARM-state newlib/libgcc found "
      "(multilib '${_citcat_multi}', libc '${CITCAT_FW_LIBC}'); firmware is not built")
  else()
    set(CITCAT_FIRMWARE_FOUND TRUE)
  endif()
else()
  message(STATUS "arm-none-eabi-gcc not found: example firmware is not built")
endif()

set(CITCAT_FW_CFLAGS -mcpu=cortex-a9 -marm -mfloat-abi=soft --specs=nano.specs
  -O2 -g -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes
  -ffunction-sections -fdata-sections -fno-common)
set(CITCAT_FW_BSP_SOURCES
  ${CITCAT_BSP_DIR}/start.S ${CITCAT_BSP_DIR}/crt.c ${CITCAT_BSP_DIR}/syscalls.c
  ${CITCAT_BSP_DIR}/citcat_driver.S)

function(citcat_add_firmware name)
  cmake_parse_arguments(FW "" "OUTPUT_DIRECTORY" "SOURCES;DEFINITIONS" ${ARGN})
  if(NOT CITCAT_FIRMWARE_FOUND)
    return()
  endif()
  if(NOT FW_SOURCES)
    message(FATAL_ERROR "citcat_add_firmware(${name}): no SOURCES")
  endif()
  if(NOT FW_OUTPUT_DIRECTORY)
    set(FW_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(srcs)
  foreach(s IN LISTS FW_SOURCES)
    get_filename_component(s "${s}" ABSOLUTE)
    list(APPEND srcs "${s}")
  endforeach()
  set(werror)
  if(CITCAT_WERROR)
    set(werror -Werror)
  endif()
  set(out ${FW_OUTPUT_DIRECTORY}/${name}.elf)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${FW_OUTPUT_DIRECTORY}
    COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_CFLAGS} ${werror} ${FW_DEFINITIONS}
      -I${CITCAT_BSP_DIR} ${CITCAT_FW_BSP_SOURCES} ${srcs}
      -nostartfiles -nodefaultlibs -T ${CITCAT_BSP_DIR}/link.ld
      -Wl,--gc-sections -Wl,-Map=${FW_OUTPUT_DIRECTORY}/${name}.map
      -Wl,--start-group ${CITCAT_FW_LIBC} ${CITCAT_FW_LIBGCC} -Wl,--end-group
      -o ${out}.tmp
    COMMAND sh ${CITCAT_BSP_DIR}/check-firmware.sh ${out}.tmp ${CITCAT_ARM_TOOL_PREFIX}
    COMMAND ${CMAKE_COMMAND} -E rename ${out}.tmp ${out}
    DEPENDS ${srcs} ${CITCAT_FW_BSP_SOURCES} ${CITCAT_BSP_DIR}/citcat_target.h ${CITCAT_BSP_DIR}/citcat_regs.h
      ${CITCAT_BSP_DIR}/link.ld ${CITCAT_BSP_DIR}/check-firmware.sh
    COMMENT "Building firmware ${name}.elf"
    VERBATIM)
  add_custom_target(firmware_${name} ALL DEPENDS ${out})
endfunction()
