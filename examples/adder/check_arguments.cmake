# Runs the adder example with bad or help arguments and checks the exit code and which stream says
# what (CTest: example.adder_help*, example.adder_usage.*).
#   cmake -DADDER=<path> "-DARGS=--host --gpu" -DRC=2 -DSTDOUT=<regex> -DSTDERR=<regex> -P check_arguments.cmake
# STDOUT / STDERR: regular expressions the stream must match; an empty one: the stream must be empty.
cmake_minimum_required(VERSION 3.25)

separate_arguments(ARGS UNIX_COMMAND "${ARGS}")
execute_process(COMMAND "${ADDER}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("---- stdout ----\n${out}---- stderr ----\n${err}")  # for the test log
string(JOIN " " command adder ${ARGS})
foreach(stream IN ITEMS out err)
  set(expected "${STDOUT}")
  if(stream STREQUAL "err")
    set(expected "${STDERR}")
  endif()
  if(expected STREQUAL "" AND NOT ${stream} STREQUAL "")
    message(FATAL_ERROR "check_arguments (${command}): std${stream} should be empty")
  elseif(NOT ${stream} MATCHES "${expected}")
    message(FATAL_ERROR "check_arguments (${command}): std${stream} does not match '${expected}'")
  endif()
endforeach()
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "check_arguments (${command}): exit code ${rc}, expected ${RC}")
endif()
