# Copyright RingKernel authors.
# Test codec.device_rdc_link (label unit, no GPU needed): compiles device_rdc_unit.cu as two
# translation units with relocatable device code and device-links them; a codec device function
# defined without `inline` fails here with nvlink's "Multiple definition of ...".
# Usage: cmake -DNVCC=... -DSOURCE=device_rdc_unit.cu -DINCLUDES=<dir>,<dir> -DWORK=<dir>
#        [-DCCBIN=<host compiler>] -P check_device_rdc.cmake
cmake_minimum_required(VERSION 3.25)

include("${CMAKE_CURRENT_LIST_DIR}/nvcc_script_args.cmake")
set(objects "")
foreach(unit 1 2)
  set(object "${WORK}/unit${unit}.o")
  execute_process(
    COMMAND "${NVCC}" ${nvcc_args} -Xcompiler=-Wno-attributes -arch=sm_90 -rdc=true -DRK_UNIT=${unit} -c "${SOURCE}" -o "${object}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc -rdc=true -c ${SOURCE} (unit ${unit}) failed (${rc}):\n${out}${err}")
  endif()
  list(APPEND objects "${object}")
endforeach()
execute_process(
  COMMAND "${NVCC}" ${nvcc_ccbin} -arch=sm_90 -dlink ${objects} -o "${WORK}/device_link.o"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "device link of two units that use the codec failed (${rc}):\n${out}${err}")
endif()
message(STATUS "codec device functions: two rdc units device-link")
