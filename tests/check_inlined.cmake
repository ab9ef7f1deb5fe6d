# Copyright RingKernel authors.
# Inlining checks (tests codec.inlining and messaging.queue_fast_path_inlined, label unit): compiles
# SOURCE with each compiler in COMPILERS at -O2 and fails when the object defines a function whose
# mangled name matches OUTLINED (and not ALLOWED): the hot paths named there must have been inlined
# into their callers. ENTRY (a regex) must match at least ENTRY_COUNT defined functions, so that a
# source that compiled to nothing cannot pass.
# Usage: cmake -DCOMPILERS=<c++>[,<c++>...] -DSOURCE=<file.cpp> -DINCLUDES=<dir>[,<dir>...] -DNM=<nm>
#        -DWORK=<dir> -DENTRY=<regex> -DENTRY_COUNT=<n> -DOUTLINED=<regex> [-DALLOWED=<regex>]
#        [-DHINT=<where to look when it fails>] -P check_inlined.cmake
cmake_minimum_required(VERSION 3.25)

string(REPLACE "," ";" COMPILERS "${COMPILERS}")
string(REPLACE "," ";" INCLUDES "${INCLUDES}")
list(TRANSFORM INCLUDES PREPEND "-I")
get_filename_component(stem "${SOURCE}" NAME_WE)
file(MAKE_DIRECTORY "${WORK}")
set(failures "")
set(index 0)
foreach(compiler IN LISTS COMPILERS)
  math(EXPR index "${index} + 1")
  set(object "${WORK}/${stem}.${index}.o")
  execute_process(COMMAND "${compiler}" -std=c++20 -O2 ${INCLUDES} -c "${SOURCE}" -o "${object}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${compiler} -O2 -c ${SOURCE} failed (${rc}):\n${out}${err}")
  endif()
  execute_process(COMMAND "${NM}" --defined-only "${object}" RESULT_VARIABLE rc OUTPUT_VARIABLE symbols ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} ${object} failed (${rc}): ${err}")
  endif()
  string(REGEX MATCHALL "[0-9a-f]+ [TtWw] [^\n]+" functions "${symbols}")
  set(entry_points 0)
  set(outlined "")
  foreach(line IN LISTS functions)
    string(REGEX REPLACE "^[0-9a-f]+ [TtWw] " "" name "${line}")
    if(name MATCHES "${ENTRY}")
      math(EXPR entry_points "${entry_points} + 1")
    elseif(name MATCHES "${OUTLINED}" AND NOT (ALLOWED AND name MATCHES "${ALLOWED}"))
      list(APPEND outlined "${name}")
    endif()
  endforeach()
  if(entry_points LESS ENTRY_COUNT)
    list(APPEND failures "${compiler}: ${entry_points} of the ${ENTRY_COUNT} functions matching '${ENTRY}' in ${object}")
  endif()
  foreach(name IN LISTS outlined)
    execute_process(COMMAND c++filt "${name}" OUTPUT_VARIABLE readable ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT readable)
      set(readable "${name}")
    endif()
    list(APPEND failures "${compiler} -O2: not inlined: ${readable}")
  endforeach()
  list(LENGTH outlined count)
  message(STATUS "${compiler} -O2: ${entry_points} entry points, ${count} functions left out of line")
endforeach()
if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "${SOURCE}: functions left out of line. ${HINT}\n  ${text}")
endif()
