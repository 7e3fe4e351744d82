# citcat_firmware_m7.cmake - build firmware for the modelled Cortex-M7
# target (capture/TARGET-M7.md).
#
#   include(path/to/examples/bsp-m7/citcat_firmware_m7.cmake)
#   citcat_add_firmware_m7(<name> SOURCES <src>... [DEFINITIONS <-DX=Y>...]
#                          [CFLAGS <flag>...] [CXXFLAGS <flag>...] [LINK_FLAGS <flag>...]
#                          [OUTPUT_DIRECTORY <dir>])
#
# Builds <dir>/<name>.elf (default dir: ${CMAKE_CURRENT_BINARY_DIR}) from the
# C and assembly sources plus the M7 BSP, checks it with
# bsp/check-firmware.sh (target m7), and adds a target firmware_<name> built by default.
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
# SysTick) as before.  C++ sources (.cpp, .cc, .cxx) are compiled with
# arm-none-eabi-g++ and CITCAT_FW_M7_CXXFLAGS (C++17, -fno-exceptions
# -fno-rtti -fno-threadsafe-statics, as on the A target) plus CXXFLAGS, and
# a program with C++ links libstdc++ (nano, through --specs=nano.specs;
# Debian's libstdc++-arm-none-eabi-newlib).  The ELF carries a GNU build
# id (-Wl,--build-id), which capture records in the CAT.

include_guard(DIRECTORY)
include(${CMAKE_CURRENT_LIST_DIR}/../bsp/citcat_firmware_rules.cmake) # the build rule shared with bsp/

set(CITCAT_BSP_M7_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "CITCAT Cortex-M7 BSP directory")
get_filename_component(_citcat_bsp_a "${CMAKE_CURRENT_LIST_DIR}/../bsp" ABSOLUTE)
set(CITCAT_BSP_SHARED_DIR "${_citcat_bsp_a}" CACHE INTERNAL "CITCAT BSP directory shared by both targets")

find_program(CITCAT_ARM_GCC arm-none-eabi-gcc)
find_program(CITCAT_ARM_GXX arm-none-eabi-g++)
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
  execute_process(COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_M7_FLAGS} -print-file-name=libstdc++_nano.a
    OUTPUT_VARIABLE _citcat_m7_libstdcxx OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
set(CITCAT_FIRMWARE_M7_CXX_FOUND FALSE)
if(CITCAT_FIRMWARE_M7_FOUND AND CITCAT_ARM_GXX AND EXISTS "${_citcat_m7_libstdcxx}")
  set(CITCAT_FIRMWARE_M7_CXX_FOUND TRUE)
endif()

set(CITCAT_FW_M7_COMMON ${CITCAT_FW_M7_FLAGS} -O2 -g -ffunction-sections -fdata-sections)
set(CITCAT_FW_M7_CFLAGS ${CITCAT_FW_M7_COMMON} -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -fno-common)
set(CITCAT_FW_M7_CXXFLAGS ${CITCAT_FW_M7_COMMON} -std=c++17 -Wall -Wextra -Wshadow -fno-exceptions -fno-rtti
  -fno-threadsafe-statics)
set(CITCAT_FW_M7_BSP_SOURCES
  ${CITCAT_BSP_M7_DIR}/startup.S ${CITCAT_BSP_SHARED_DIR}/crt.c ${CITCAT_BSP_SHARED_DIR}/syscalls.c
  ${CITCAT_BSP_M7_DIR}/citcat_driver_m7.S)

function(citcat_add_firmware_m7 name)
  cmake_parse_arguments(FW "" "OUTPUT_DIRECTORY" "SOURCES;DEFINITIONS;CFLAGS;CXXFLAGS;LINK_FLAGS" ${ARGN})
  if(NOT CITCAT_FIRMWARE_M7_FOUND)
    return()
  endif()
  citcat_firmware_has_cxx(cxx ${FW_SOURCES})
  set(libs -lm)
  if(cxx)
    if(NOT CITCAT_FIRMWARE_M7_CXX_FOUND)
      message(WARNING "citcat_add_firmware_m7(${name}): C++ needs arm-none-eabi-g++ and libstdc++-arm-none-eabi-newlib; not built")
      return()
    endif()
    set(libs -lstdc++ -lm) # libstdc++_nano.a through --specs=nano.specs
  endif()
  if(NOT FW_OUTPUT_DIRECTORY)
    set(FW_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  citcat_firmware_rule(${name} ${FW_OUTPUT_DIRECTORY} TARGET m7 TOOL_PREFIX ${CITCAT_ARM_TOOL_PREFIX_M7}
    COMMENT "Building Cortex-M7 firmware ${name}.elf" GCC ${CITCAT_ARM_GCC} GXX ${CITCAT_ARM_GXX}
    SOURCES ${FW_SOURCES} BSP_SOURCES ${CITCAT_FW_M7_BSP_SOURCES} INCLUDES ${CITCAT_BSP_M7_DIR} ${CITCAT_BSP_SHARED_DIR}
    CFLAGS ${CITCAT_FW_M7_CFLAGS} ASFLAGS ${CITCAT_FW_M7_COMMON} CXXFLAGS ${CITCAT_FW_M7_CXXFLAGS}
    DEFINITIONS ${FW_DEFINITIONS} USER_CFLAGS ${FW_CFLAGS} USER_CXXFLAGS ${FW_CXXFLAGS}
    LINK_FIRST ${CITCAT_FW_M7_COMMON}
    LINK ${FW_LINK_FLAGS} -nostartfiles -T ${CITCAT_BSP_M7_DIR}/link.ld -Wl,--gc-sections -Wl,--build-id
      -Wl,-Map=${FW_OUTPUT_DIRECTORY}/${name}.map ${libs}
    DEPENDS ${CITCAT_BSP_M7_DIR}/citcat_m7.h ${CITCAT_BSP_M7_DIR}/citcat_m7_regs.h ${CITCAT_BSP_SHARED_DIR}/citcat_target.h
      ${CITCAT_BSP_SHARED_DIR}/citcat_regs.h ${CITCAT_BSP_M7_DIR}/link.ld)
endfunction()
