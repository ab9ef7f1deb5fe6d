# Copyright RingKernel authors.
# Shared by the -P check scripts of this folder (check_device_outlining.cmake, check_device_rdc.cmake):
# creates WORK and sets `nvcc_ccbin` (-ccbin CCBIN, when given) and `nvcc_args`, the nvcc options both
# compile with: `nvcc_ccbin`, C++20, warnings as errors as in the project's CUDA build, and -I for each of INCLUDES
# (comma-separated, as passed on the cmake command line).
file(MAKE_DIRECTORY "${WORK}")
string(REPLACE "," ";" INCLUDES "${INCLUDES}")
set(nvcc_ccbin "")
if(CCBIN)
  set(nvcc_ccbin -ccbin "${CCBIN}")
endif()
set(nvcc_args ${nvcc_ccbin} -std=c++20 --Werror all-warnings -diag-suppress=2803)
foreach(dir IN LISTS INCLUDES)
  list(APPEND nvcc_args "-I${dir}")
endforeach()
