# Copyright RingKernel authors.
# Test codec.device_outlining (label unit, no GPU needed): compiles device_outlining.cu to PTX and
# checks that its kernels call the codec's shared device functions instead of carrying inlined
# copies of them (see device_outlining.cu). Fails when a function below is no longer called, e.g.
# because RINGKERNEL_CODEC_DEVICE_NOINLINE / RINGKERNEL_CODEC_DEVICE_OUTLINED lost their __noinline__.
# Usage: cmake -DNVCC=... -DSOURCE=device_outlining.cu -DINCLUDES=<dir>,<dir> -DWORK=<dir>
#        [-DCCBIN=<host compiler>] -P check_device_outlining.cmake
cmake_minimum_required(VERSION 3.25)

include("${CMAKE_CURRENT_LIST_DIR}/nvcc_script_args.cmake")
set(ptx_file "${WORK}/device_outlining.ptx")
execute_process(
  COMMAND "${NVCC}" ${nvcc_args} -arch=sm_90 -ptx "${SOURCE}"
          -o "${ptx_file}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc -ptx ${SOURCE} failed (${rc}):\n${out}${err}")
endif()
file(READ "${ptx_file}" ptx)

# "<kernel>|<function>|<least number of calls>": the kernel must call the function that often.
set(expected
  "decode_two_envelopes|read_envelope_elements|2"   # one function for both payload types
  "decode_two_envelopes|skip_value|2"               # extra envelope elements, both types
  "decode_floats|read_float_other_forms|1"
  "decode_floats|read_double_other_forms|1"
  "encode_small|encode_checked|1")
set(failures "")
foreach(item IN LISTS expected)
  string(REPLACE "|" ";" parts "${item}")
  list(GET parts 0 kernel)
  list(GET parts 1 function)
  list(GET parts 2 least)
  # The kernel's body: from its .entry to the next .entry or .func definition (or the end).
  string(REGEX MATCH "\\.entry [A-Za-z0-9_]*${kernel}[A-Za-z0-9_]*\\(" head "${ptx}")
  if(NOT head)
    list(APPEND failures "no kernel ${kernel} in ${ptx_file}")
    continue()
  endif()
  string(FIND "${ptx}" "${head}" begin)
  string(SUBSTRING "${ptx}" ${begin} -1 body)
  string(SUBSTRING "${body}" 1 -1 rest)
  string(REGEX MATCH "\n\\.(visible |weak )?(entry|func)[^\n]*" next_head "${rest}")
  if(next_head)
    string(FIND "${rest}" "${next_head}" next)
    string(SUBSTRING "${body}" 0 ${next} body)
  endif()
  # call.uni (retval0),\n\t<function>,\n\t(params): the callee may stand on the next line.
  string(REGEX MATCHALL "call[.a-z]*[ \t]+(\\([^)]*\\),)?[ \t\r\n]*[A-Za-z0-9_]*${function}[A-Za-z0-9_]*" calls "${body}")
  list(LENGTH calls count)
  if(count LESS least)
    list(APPEND failures "${kernel}: ${count} call(s) of ${function}, expected at least ${least} (inlined instead?)")
  endif()
endforeach()

if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "device code carries inlined copies of shared codec paths (${ptx_file}):\n  ${text}")
endif()
message(STATUS "codec device outlining: every expected call found")
