# Runs the adder example and checks its exit code and what it prints (CTest: example.adder_*).
#   cmake -DADDER=<path> -DWHERE=host|any|gpu -P check_output.cmake
# host / any: exit 0, the hex dump's legend and, as the last line, "adder: OK, all checks passed";
# a run on a host-backend device without --host also says why no GPU was used. gpu: the same on a
# GPU; without one, exit 77 and a line saying why, after which this script prints
# "check_output: SKIPPED" (the test's SKIP_REGULAR_EXPRESSION: the example's own output cannot match
# it, so a skip that fails a check here fails the test).
cmake_minimum_required(VERSION 3.25)

set(args)
if(WHERE STREQUAL "host")
  set(args --host)
elseif(WHERE STREQUAL "gpu")
  set(args --gpu)
elseif(NOT WHERE STREQUAL "any")
  message(FATAL_ERROR "check_output: -DWHERE=host|any|gpu, not '${WHERE}'")
endif()

execute_process(COMMAND "${ADDER}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")  # what the example printed, for the test log

string(JOIN " " command adder ${args})
function(fail why)
  message(FATAL_ERROR "check_output (${command}): ${why}")
endfunction()

if(rc EQUAL 77)
  if(NOT WHERE STREQUAL "gpu")
    fail("exit code 77 (skipped) without --gpu")
  endif()
  if(NOT out MATCHES "adder --gpu: skipped \\(exit code 77\\), no GPU usable by this build; (the cuda backend says|this build of the example has no CUDA code)[^\n]+")
    fail("skipped without saying why")
  endif()
  message("check_output: SKIPPED (no CUDA device)")
  return()
endif()
if(NOT rc EQUAL 0)
  if(NOT out MATCHES "\nadder: FAILED: [^\n]+\n$")
    fail("exit code ${rc} without an 'adder: FAILED: ...' last line")
  endif()
  fail("exit code ${rc}")
endif()
if(NOT out MATCHES "\nadder: OK, all checks passed\n$")
  fail("exit code 0, but the last line is not 'adder: OK, all checks passed'")
endif()
if(NOT out MATCHES "\n  \\(an array of 8: type id, [^\n]*docs/wire-format.md, section 9\\)\n")
  fail("the MessagePack dump has no legend")
endif()
if(WHERE STREQUAL "any" AND out MATCHES "\\(host backend\\)\n" AND
   NOT out MATCHES "\n  no GPU used; (the cuda backend says|this build of the example has no CUDA code)[^\n]+\n")
  fail("ran on the host backend without saying why no GPU was used")
endif()
if(WHERE STREQUAL "host" AND NOT out MATCHES "\\(host backend\\)\n  host backend chosen by --host\n")
  fail("--host did not run on a host-backend device")
endif()
