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
    # CMake 3.25 predates nvcc's C++20 support and knows no flag for the CUDA20 dialect: teach it.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
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

# Compile-only checks also build for sm_75 (Turing, the oldest architecture CUDA 13 compiles for):
# device headers must compile wherever users run them, not only on the sm_90 default, and sm_75
# takes the other side of every `__CUDA_ARCH__ >= 800` branch.
function(ringkernel_nvcc_check_architectures target)
  get_target_property(archs ${target} CUDA_ARCHITECTURES)
  if(archs MATCHES "^(all|all-major|native)$" OR "75" IN_LIST archs OR "75-real" IN_LIST archs)
    return()
  endif()
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 13)
    return()
  endif()
  list(APPEND archs 75-real)
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${archs}")
endfunction()

# Compile-only checks (objects that nothing runs) assemble their PTX at ptxas -O0: ptxas still parses
# and checks every instruction for each architecture (inline asm included) but skips the SASS
# optimisation, about a quarter of such a compile (codec_device_instantiations.cu: 64 -> 48 s on
# one core). Code that runs on a GPU keeps the default -O3.
function(ringkernel_nvcc_compile_only target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-O0>)
endfunction()
