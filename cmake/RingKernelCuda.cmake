# Finds nvcc and enables CUDA when present. Sets RINGKERNEL_HAS_CUDA. Without CUDA every CUDA part
# (backend, device tests, nvcc compile checks) is skipped with a visible message.
include(CheckLanguage)

set(RINGKERNEL_HAS_CUDA OFF)
if(RINGKERNEL_ENABLE_CUDA)
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS "/usr/local/cuda/bin/nvcc")
    set(CMAKE_CUDA_COMPILER "/usr/local/cuda/bin/nvcc" CACHE FILEPATH "CUDA compiler")
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)  # H100 / H200
    endif()
    enable_language(CUDA)
    # After enable_language: CMake 3.25 does not know nvcc 13's CUDA20 flags before it has probed nvcc.
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(RINGKERNEL_HAS_CUDA ON)
    message(STATUS "RingKernel: CUDA ${CMAKE_CUDA_COMPILER_VERSION} found; building the CUDA backend for sm_${CMAKE_CUDA_ARCHITECTURES}")
  else()
    message(STATUS "RingKernel: no CUDA compiler found; skipping the CUDA backend, nvcc checks and GPU tests (host backend only)")
  endif()
else()
  message(STATUS "RingKernel: CUDA disabled (RINGKERNEL_ENABLE_CUDA=OFF); host backend only")
endif()
