# Copyright RingKernel authors.
# ODR check across nvcc and the host compiler (test messaging.odr_cuda_and_host, label unit, no
# GPU): nvcc compiles CUDA_SOURCE and the host compiler HOST_SOURCE, both with -flto, and the host
# compiler links them with -Werror=odr, so that link-time optimisation compares every class the two
# translation units share and fails on one defined differently in them (a member type chosen by
# __CUDACC__, say). nvcc is given the same host compiler (-ccbin CXX): the two objects' LTO bytecode
# must come from one GCC.
# Usage: cmake -DNVCC=<nvcc> -DCXX=<g++> -DCUDA_SOURCE=<x.cu> -DHOST_SOURCE=<y.cpp>
#        -DINCLUDES=<dir>[,<dir>...] -DLIBRARIES=<file or -l...>[,...] -DWORK=<dir> -P check_odr.cmake
cmake_minimum_required(VERSION 3.25)

string(REPLACE "," ";" INCLUDES "${INCLUDES}")
list(TRANSFORM INCLUDES PREPEND "-I")
string(REPLACE "," ";" LIBRARIES "${LIBRARIES}")
file(MAKE_DIRECTORY "${WORK}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "${what} failed (${rc}):\n${command}\n${out}${err}")
  endif()
endfunction()

run("nvcc -flto" "${NVCC}" -ccbin "${CXX}" -std=c++20 -O2 -arch=sm_90 ${INCLUDES} -Xcompiler=-flto
    -c "${CUDA_SOURCE}" -o "${WORK}/cuda_unit.o")
run("${CXX} -flto" "${CXX}" -std=c++20 -O2 -flto -Wno-attributes ${INCLUDES} -c "${HOST_SOURCE}" -o "${WORK}/host_unit.o")
# A class defined differently in the two units: "type 'X' violates the C++ One Definition Rule".
run("the link with -Werror=odr (a class differs between the nvcc and the host translation units)"
    "${CXX}" -O2 -flto -Wodr -Werror=odr "${WORK}/cuda_unit.o" "${WORK}/host_unit.o" ${LIBRARIES} -o "${WORK}/odr_probe")
message(STATUS "ODR check passed: the classes of ${HOST_SOURCE} and ${CUDA_SOURCE} agree")
