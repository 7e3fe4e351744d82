# citcat_firmware_rules.cmake - the build rule both BSPs share (internal).
#
# citcat_add_firmware (bsp/citcat_firmware.cmake, the ARMv7-A target) and
# citcat_add_firmware_m7 (bsp-m7/citcat_firmware_m7.cmake) differ only in
# flags, BSP sources, include directories, linker script and libraries;
# each computes those and calls
#
#   citcat_firmware_rule(<name> <output dir> TARGET a|m7 TOOL_PREFIX <p> COMMENT <text>
#     GCC <gcc> [GXX <g++>] SOURCES <src>... BSP_SOURCES <src>... INCLUDES <dir>...
#     CFLAGS <flag>... ASFLAGS <flag>... [CXXFLAGS <flag>...]
#     DEFINITIONS <-DX=Y>... USER_CFLAGS <flag>... USER_CXXFLAGS <flag>...
#     LINK_FIRST <flag>... LINK <flag>... DEPENDS <file>...)
#
# which compiles every BSP and program source on its own by its language
# (.S/.s: ASFLAGS DEFINITIONS; .cpp/.cc/.cxx: GXX with CXXFLAGS -Werror?
# DEFINITIONS USER_CXXFLAGS; else CFLAGS -Werror? DEFINITIONS USER_CFLAGS;
# then -I for each of INCLUDES), links them (GCC LINK_FIRST, the objects,
# LINK: the linker script, libraries, map file), checks the ELF with
# bsp/check-firmware.sh for TARGET, and adds the target firmware_<name>.
# citcat_firmware_has_cxx(<var> <src>...) tells a caller whether a C++
# source is among them (for its libraries).

include_guard(GLOBAL)

set(CITCAT_BSP_RULES_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "CITCAT BSP shared rules directory")

function(citcat_firmware_has_cxx var)
  set(r FALSE)
  foreach(s IN LISTS ARGN)
    if(s MATCHES "\\.(cpp|cc|cxx)$")
      set(r TRUE)
    endif()
  endforeach()
  set(${var} ${r} PARENT_SCOPE)
endfunction()

function(citcat_firmware_rule name outdir)
  cmake_parse_arguments(R "" "TARGET;TOOL_PREFIX;COMMENT;GCC;GXX"
    "SOURCES;BSP_SOURCES;INCLUDES;CFLAGS;ASFLAGS;CXXFLAGS;DEFINITIONS;USER_CFLAGS;USER_CXXFLAGS;LINK_FIRST;LINK;DEPENDS"
    ${ARGN})
  set(werror)
  if(CITCAT_WERROR)
    set(werror -Werror)
  endif()
  set(inc)
  foreach(d IN LISTS R_INCLUDES)
    list(APPEND inc -I${d})
  endforeach()
  set(out ${outdir}/${name}.elf)
  set(objdir ${outdir}/${name}.obj)
  set(cmds COMMAND ${CMAKE_COMMAND} -E make_directory ${objdir})
  set(objs)
  set(srcs)
  set(i 0)
  foreach(s IN LISTS R_BSP_SOURCES R_SOURCES)
    get_filename_component(s "${s}" ABSOLUTE)
    list(APPEND srcs "${s}")
    get_filename_component(base "${s}" NAME)
    set(o ${objdir}/${i}_${base}.o) # numbered: two sources may share a name
    math(EXPR i "${i} + 1")
    if(s MATCHES "\\.(S|s)$")
      list(APPEND cmds COMMAND ${R_GCC} ${R_ASFLAGS} ${R_DEFINITIONS} ${inc} -c ${s} -o ${o})
    elseif(s MATCHES "\\.(cpp|cc|cxx)$")
      list(APPEND cmds COMMAND ${R_GXX} ${R_CXXFLAGS} ${werror} ${R_DEFINITIONS} ${R_USER_CXXFLAGS} ${inc} -c ${s} -o ${o})
    else()
      list(APPEND cmds COMMAND ${R_GCC} ${R_CFLAGS} ${werror} ${R_DEFINITIONS} ${R_USER_CFLAGS} ${inc} -c ${s} -o ${o})
    endif()
    list(APPEND objs ${o})
  endforeach()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${outdir}
    ${cmds}
    COMMAND ${R_GCC} ${R_LINK_FIRST} ${objs} ${R_LINK} -o ${out}.tmp
    COMMAND sh ${CITCAT_BSP_RULES_DIR}/check-firmware.sh ${out}.tmp ${R_TOOL_PREFIX} ${R_TARGET}
    COMMAND ${CMAKE_COMMAND} -E rename ${out}.tmp ${out}
    DEPENDS ${srcs} ${R_DEPENDS} ${CITCAT_BSP_RULES_DIR}/check-firmware.sh
      ${CITCAT_BSP_RULES_DIR}/citcat_firmware_rules.cmake
    COMMENT "${R_COMMENT}"
    VERBATIM)
  add_custom_target(firmware_${name} ALL DEPENDS ${out})
endfunction()
