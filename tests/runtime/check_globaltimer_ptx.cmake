# Copyright RingKernel authors.
# Test runtime.globaltimer_ptx (label unit, no GPU needed): the PTX kernel that
# measure_wall_clock_offset has the driver compile on CUDA devices (runtime/src/globaltimer_ptx.h)
# assembles with ptxas for each architecture in ARCHS, and declares the entry the runtime looks up.
# The driver's JIT would otherwise find a mistake only on the first GPU to run it.
# Usage: cmake -DPTXAS=<ptxas> -DHEADER=<globaltimer_ptx.h> -DWORK=<dir> [-DARCHS=75,90] -P check_globaltimer_ptx.cmake
cmake_minimum_required(VERSION 3.25)

if(NOT ARCHS)
  set(ARCHS 90)
endif()
string(REPLACE "," ";" ARCHS "${ARCHS}")
file(MAKE_DIRECTORY "${WORK}")
file(READ "${HEADER}" header)

string(REGEX MATCH "R\"ptx\\((.*)\\)ptx\"" found "${header}")
set(ptx "${CMAKE_MATCH_1}")
if(NOT found OR ptx STREQUAL "")
  message(FATAL_ERROR "${HEADER}: no raw string R\"ptx(...)ptx\" holding the kernel")
endif()
string(REGEX MATCH "globaltimer_kernel_name = \"([A-Za-z_0-9]+)\"" found "${header}")
set(name "${CMAKE_MATCH_1}")
if(NOT found)
  message(FATAL_ERROR "${HEADER}: no globaltimer_kernel_name = \"...\"")
endif()
string(FIND "${ptx}" ".visible .entry ${name}(" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${HEADER}: the PTX has no .visible .entry ${name}, the name the runtime looks up")
endif()

file(WRITE "${WORK}/globaltimer.ptx" "${ptx}")
foreach(arch IN LISTS ARCHS)
  execute_process(COMMAND "${PTXAS}" -arch=sm_${arch} -o "${WORK}/globaltimer_sm_${arch}.cubin" "${WORK}/globaltimer.ptx"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ptxas -arch=sm_${arch} refused the kernel of ${HEADER} (exit ${status}):\n${out}${err}")
  endif()
  message(STATUS "sm_${arch}: assembled")
endforeach()
