# cmake -DDEPFILE=<file> -DSTAMP=<stamp> -P RingKernelGenerateDepfile.cmake <output>...
#
# A build step of ringkernel_generate_messages() with GNU make generators
# (_ringkernel_output_tracking, RingKernelGenerateChecks.cmake): adds the step's outputs to its
# depfile as prerequisites of its stamp, so that make reruns the step when one of them is deleted.
# DEPFILE is the tool's depfile (its rule for the stamp is extended) or, for a step whose tool
# writes none, a file of its own (written here, and kept by the next run). An output the file lists
# already is not added again, so a file the tool does not rewrite does not grow from run to run.
# Paths are escaped as the tool and GCC escape them.
cmake_minimum_required(VERSION 3.25)

set(outputs)
set(collect FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(collect)
    list(APPEND outputs "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL CMAKE_SCRIPT_MODE_FILE)
    set(collect TRUE)
  endif()
endforeach()

function(_ringkernel_make_escape path out_var)
  string(REPLACE "$" "$$" path "${path}")
  string(REPLACE " " "\\ " path "${path}")
  string(REPLACE "#" "\\#" path "${path}")
  set(${out_var} "${path}" PARENT_SCOPE)
endfunction()

if(EXISTS "${DEPFILE}")
  file(READ "${DEPFILE}" text)
  string(REGEX REPLACE "\n+$" "" text "${text}")
else()
  _ringkernel_make_escape("${STAMP}" text)
  string(APPEND text ":")
endif()
foreach(output IN LISTS outputs)
  _ringkernel_make_escape("${output}" escaped)
  # Each prerequisite is a line of its own: "  <path> \\" (the last one without the backslash).
  string(FIND "${text} \\\n" "\n  ${escaped} \\\n" listed)
  if(listed EQUAL -1)
    string(APPEND text " \\\n  ${escaped}")
  endif()
endforeach()
file(WRITE "${DEPFILE}" "${text}\n")
