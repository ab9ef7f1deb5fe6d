# Copyright RingKernel authors.
# Test codec.inlining (label unit): compiles codec_entry_points.cpp with each compiler in COMPILERS
# at -O2 and fails when the object defines any function of namespace ringkernel other than the
# entry points encode/decode and msgpack_reader's skip_value/skip_item (unknown values, a cold
# path): everything else (the message fold, generated visit_fields, the field codecs and their
# unrolling lambdas) must be inlined into one function per message.
# Usage: cmake -DCOMPILERS=<c++>[,<c++>...] -DSOURCE=codec_entry_points.cpp -DINCLUDES=<dir>[,<dir>...]
#        -DNM=<nm> -DWORK=<dir> -P check_codec_inlining.cmake
cmake_minimum_required(VERSION 3.25)

string(REPLACE "," ";" COMPILERS "${COMPILERS}")
string(REPLACE "," ";" INCLUDES "${INCLUDES}")
list(TRANSFORM INCLUDES PREPEND "-I")
file(MAKE_DIRECTORY "${WORK}")
set(failures "")
set(index 0)
foreach(compiler IN LISTS COMPILERS)
  math(EXPR index "${index} + 1")
  set(object "${WORK}/codec_entry_points.${index}.o")
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
    if(name MATCHES "^_Z[0-9]+(en|de)code_")
      math(EXPR entry_points "${entry_points} + 1")
    elseif(name MATCHES "10ringkernel" AND NOT name MATCHES "^_ZN10ringkernel6(en|de)codeI"
           AND NOT name MATCHES "14msgpack_reader(10skip_value|9skip_item)[EI]")
      list(APPEND outlined "${name}")
    endif()
  endforeach()
  if(entry_points LESS 16)
    list(APPEND failures "${compiler}: ${entry_points} of the 16 encode_*/decode_* functions in ${object}")
  endif()
  foreach(name IN LISTS outlined)
    execute_process(COMMAND c++filt "${name}" OUTPUT_VARIABLE readable ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT readable)
      set(readable "${name}")
    endif()
    list(APPEND failures "${compiler} -O2: not inlined: ${readable}")
  endforeach()
  list(LENGTH outlined count)
  message(STATUS "${compiler} -O2: ${entry_points} entry points, ${count} codec functions left out of line")
endforeach()
if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "codec functions left out of line (each message must encode and decode as one "
                      "function; see RINGKERNEL_CODEC_INLINE in ringkernel/detail/byte_ops.h):\n  ${text}")
endif()
