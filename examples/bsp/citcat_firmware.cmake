# citcat_firmware.cmake - build firmware for the modelled CITCAT target.
#
#   include(path/to/examples/bsp/citcat_firmware.cmake)
#   citcat_add_firmware(<name> [THUMB] [THUMB_EXCEPTIONS] SOURCES <src>... [DEFINITIONS <-DX=Y>...]
#                       [CFLAGS <flag>...] [CXXFLAGS <flag>...] [LINK_FLAGS <flag>...]
#                       [OUTPUT_DIRECTORY <dir>])
#
# Builds <dir>/<name>.elf (default dir: ${CMAKE_CURRENT_BINARY_DIR}) from the
# sources plus the BSP, checks it with check-firmware.sh (no Thumb, no VFP,
# vectors at 0), and adds a target firmware_<name> built by default.  Sets
# CITCAT_FIRMWARE_FOUND to FALSE (and does nothing else) when
# arm-none-eabi-gcc is missing.
#
# Each source is compiled on its own by its language: .c with
# CITCAT_FW_CFLAGS (C11, C-only warnings) plus CFLAGS, .S/.s with
# CITCAT_FW_ASFLAGS, .cpp/.cc/.cxx with arm-none-eabi-g++ and
# CITCAT_FW_CXXFLAGS (C++17, -fno-exceptions -fno-rtti) plus CXXFLAGS;
# DEFINITIONS go to all three.  The link adds newlib's libm and libc (nano),
# libgcc, and for a program with C++ sources libstdc++ (nano; Debian's
# libstdc++-arm-none-eabi-newlib).  printf of floating-point values needs
# `-u _printf_float` in the link (newlib nano leaves it out): pass it with
# LINK_FLAGS -u _printf_float.
#
# Why the flags look as they do: code is compiled for -mcpu=cortex-a9
# -marm -mfloat-abi=soft, but with those flags GCC's multilib selection
# picks thumb/v7-a/nofp, i.e. a Thumb-2 newlib and libgcc.  The model runs
# ARM state only, so the libraries are taken from the default "." multilib
# (ARMv4T, ARM state) by asking the driver for their paths with the
# multilib-neutral flags -marm -mfloat-abi=soft and linking them explicitly
# (-nostartfiles -nodefaultlibs).  check-firmware.sh verifies the result.
#
# THUMB builds the C and C++ sources with -mthumb (Thumb-2) and links GCC's
# Thumb multilib for the core (thumb/v7-a/nofp: Thumb newlib, libm,
# libgcc); the BSP's startup code, vectors and CITCAT driver stay ARM, and
# the linker makes the calls between the two interwork (bl becomes blx).
#
# THUMB_EXCEPTIONS adds the definition CITCAT_BSP_THUMB_EXCEPTIONS: the reset
# code sets SCTLR.TE = 1 and the IRQ/FIQ vectors and their handlers in
# start.S are built as Thumb-2 (exceptions are entered in Thumb state).

include_guard(DIRECTORY) # variables are directory-scoped: re-evaluate per including directory
include(${CMAKE_CURRENT_LIST_DIR}/citcat_firmware_rules.cmake) # the build rule shared with bsp-m7

set(CITCAT_BSP_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "CITCAT BSP directory")

find_program(CITCAT_ARM_GCC arm-none-eabi-gcc)
find_program(CITCAT_ARM_OBJDUMP arm-none-eabi-objdump)
find_program(CITCAT_ARM_GXX arm-none-eabi-g++)
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
  execute_process(COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_LIB_FLAGS} -print-file-name=libm.a
    OUTPUT_VARIABLE CITCAT_FW_LIBM OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_LIB_FLAGS} -print-file-name=libstdc++_nano.a
    OUTPUT_VARIABLE CITCAT_FW_LIBSTDCXX OUTPUT_STRIP_TRAILING_WHITESPACE)
  # Thumb firmware (THUMB below): GCC's own multilib for -mthumb on this
  # core, the Thumb-2 newlib, libm, libgcc and libstdc++ of thumb/v7-a/nofp.
  set(CITCAT_FW_THUMB_LIB_FLAGS -mcpu=cortex-a9 -mthumb -mfloat-abi=soft --specs=nano.specs)
  foreach(_l libc_nano.a libm.a libstdc++_nano.a)
    execute_process(COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_THUMB_LIB_FLAGS} -print-file-name=${_l}
      OUTPUT_VARIABLE _p OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND CITCAT_FW_THUMB_LIBS ${_p})
  endforeach()
  execute_process(COMMAND ${CITCAT_ARM_GCC} ${CITCAT_FW_THUMB_LIB_FLAGS} -print-libgcc-file-name
    OUTPUT_VARIABLE _p OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(APPEND CITCAT_FW_THUMB_LIBS ${_p})
  if(CITCAT_ARM_GXX AND EXISTS "${CITCAT_FW_LIBSTDCXX}")
    set(CITCAT_FIRMWARE_CXX_FOUND TRUE)
  else()
    set(CITCAT_FIRMWARE_CXX_FOUND FALSE)
  endif()
  if(NOT _citcat_multi STREQUAL "." OR NOT EXISTS "${CITCAT_FW_LIBC}" OR NOT EXISTS "${CITCAT_FW_LIBGCC}")
    message(WARNING "arm-none-eabi-gcc: no ARM-state newlib/libgcc found "
      "(multilib '${_citcat_multi}', libc '${CITCAT_FW_LIBC}'); firmware is not built")
  else()
    set(CITCAT_FIRMWARE_FOUND TRUE)
  endif()
else()
  message(STATUS "arm-none-eabi-gcc not found: example firmware is not built")
endif()

set(CITCAT_FW_COMMON_FLAGS -mcpu=cortex-a9 -marm -mfloat-abi=soft --specs=nano.specs -O2 -g
  -ffunction-sections -fdata-sections)
set(CITCAT_FW_CFLAGS ${CITCAT_FW_COMMON_FLAGS} -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -fno-common)
set(CITCAT_FW_ASFLAGS ${CITCAT_FW_COMMON_FLAGS})
set(CITCAT_FW_CXXFLAGS ${CITCAT_FW_COMMON_FLAGS} -std=c++17 -Wall -Wextra -Wshadow -fno-exceptions -fno-rtti
  -fno-threadsafe-statics)
set(CITCAT_FW_BSP_SOURCES
  ${CITCAT_BSP_DIR}/start.S ${CITCAT_BSP_DIR}/crt.c ${CITCAT_BSP_DIR}/syscalls.c
  ${CITCAT_BSP_DIR}/citcat_driver.S)

function(citcat_add_firmware name)
  cmake_parse_arguments(FW "THUMB;THUMB_EXCEPTIONS" "OUTPUT_DIRECTORY" "SOURCES;DEFINITIONS;CFLAGS;CXXFLAGS;LINK_FLAGS" ${ARGN})
  if(FW_THUMB_EXCEPTIONS) # SCTLR.TE = 1: Thumb vectors and handlers (start.S)
    list(APPEND FW_DEFINITIONS -DCITCAT_BSP_THUMB_EXCEPTIONS=1)
  endif()
  if(FW_THUMB) # C and C++ in Thumb-2 with the Thumb multilib; the BSP's assembly stays ARM
    list(APPEND FW_CFLAGS -mthumb)
    list(APPEND FW_CXXFLAGS -mthumb)
  endif()
  if(NOT CITCAT_FIRMWARE_FOUND)
    return()
  endif()
  if(NOT FW_SOURCES)
    message(FATAL_ERROR "citcat_add_firmware(${name}): no SOURCES")
  endif()
  if(NOT FW_OUTPUT_DIRECTORY)
    set(FW_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  citcat_firmware_has_cxx(cxx ${FW_SOURCES})
  if(cxx AND NOT CITCAT_FIRMWARE_CXX_FOUND)
    message(WARNING "citcat_add_firmware(${name}): C++ needs arm-none-eabi-g++ and libstdc++-arm-none-eabi-newlib; not built")
    return()
  endif()
  set(libs ${CITCAT_FW_LIBM} ${CITCAT_FW_LIBC} ${CITCAT_FW_LIBGCC})
  if(cxx)
    set(libs ${CITCAT_FW_LIBSTDCXX} ${libs})
  endif()
  if(FW_THUMB)
    list(GET CITCAT_FW_THUMB_LIBS 0 _libc)
    list(GET CITCAT_FW_THUMB_LIBS 1 _libm)
    list(GET CITCAT_FW_THUMB_LIBS 2 _libstdcxx)
    list(GET CITCAT_FW_THUMB_LIBS 3 _libgcc)
    set(libs ${_libm} ${_libc} ${_libgcc})
    if(cxx)
      set(libs ${_libstdcxx} ${libs})
    endif()
  endif()
  citcat_firmware_rule(${name} ${FW_OUTPUT_DIRECTORY} TARGET a TOOL_PREFIX ${CITCAT_ARM_TOOL_PREFIX}
    COMMENT "Building firmware ${name}.elf" GCC ${CITCAT_ARM_GCC} GXX ${CITCAT_ARM_GXX}
    SOURCES ${FW_SOURCES} BSP_SOURCES ${CITCAT_FW_BSP_SOURCES} INCLUDES ${CITCAT_BSP_DIR}
    CFLAGS ${CITCAT_FW_CFLAGS} ASFLAGS ${CITCAT_FW_ASFLAGS} CXXFLAGS ${CITCAT_FW_CXXFLAGS}
    DEFINITIONS ${FW_DEFINITIONS} USER_CFLAGS ${FW_CFLAGS} USER_CXXFLAGS ${FW_CXXFLAGS}
    LINK_FIRST ${CITCAT_FW_COMMON_FLAGS}
    LINK ${FW_LINK_FLAGS} -nostartfiles -nodefaultlibs -T ${CITCAT_BSP_DIR}/link.ld
      -Wl,--gc-sections -Wl,--build-id -Wl,-Map=${FW_OUTPUT_DIRECTORY}/${name}.map
      -Wl,--start-group ${libs} -Wl,--end-group
    DEPENDS ${CITCAT_BSP_DIR}/citcat_target.h ${CITCAT_BSP_DIR}/citcat_regs.h ${CITCAT_BSP_DIR}/link.ld)
endfunction()
