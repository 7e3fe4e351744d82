# Runs `citcat bench all --json` on the given firmware and checks only that
# it ran, that its output parses as JSON (CMake's own parser), that every
# run has the bare baseline and phases, and that the baseline followed the
# recorded path (an exactness property, not a speed).  Numbers are not
# judged.  Usage: cmake -DCITCAT=... -DELFS=a.elf,b.elf -P bench_json.cmake
string(REPLACE "," ";" ELFS "${ELFS}")
execute_process(COMMAND ${CITCAT} bench all --json --formats din,pdats2 ${ELFS}
  OUTPUT_VARIABLE out ERROR_VARIABLE errout RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench all exited ${rc}: ${errout}")
endif()
string(JSON nruns ERROR_VARIABLE jerr LENGTH "${out}" runs)
if(jerr)
  message(FATAL_ERROR "not well-formed JSON (${jerr}):\n${out}")
endif()
list(LENGTH ELFS nelfs)
if(NOT nruns EQUAL nelfs)
  message(FATAL_ERROR "${nruns} runs for ${nelfs} firmware files")
endif()
math(EXPR last "${nruns} - 1")
foreach(i RANGE ${last})
  string(JSON ok GET "${out}" runs ${i} bare path_ok)
  string(JSON nph LENGTH "${out}" runs ${i} phases)
  string(JSON bm TYPE "${out}" runs ${i} bare minsn_s)
  if(NOT ok STREQUAL "ON" OR NOT nph EQUAL 10 OR NOT bm STREQUAL "NUMBER")
    message(FATAL_ERROR "run ${i}: path_ok ${ok}, ${nph} phases, bare minsn_s ${bm}:\n${out}")
  endif()
endforeach()
message(STATUS "bench all: ${nruns} runs, well-formed")
