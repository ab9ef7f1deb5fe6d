# examples/adder copied into a project of a user's own, as docs/cmake.md invites: its files, and a
# CMakeLists.txt that is project(... LANGUAGES <LANGUAGES>) and find_package(RingKernel) followed by
# the example's CMakeLists.txt as it is. Configures against the installed package (Ninja), builds
# the example and runs it without an argument (on a GPU only where the copy has CUDA code).
#   cmake -DEXAMPLE_DIR=<examples/adder> -DPREFIX=<install prefix> -DCXX=<c++> -DWORK=<dir>
#         "-DLANGUAGES=CXX CUDA" [-DCUDA_COMPILER=<nvcc>] -DPACKAGE_HAS_CUDA=ON|OFF -P check_example_copy.cmake
# -DCUDA_LATE=ON (with LANGUAGES CXX CUDA): the project() names CXX only and enable_language(CUDA)
# follows find_package(RingKernel), so the package sets no C++20 flag for nvcc on CMake < 3.26 and
# the example has to (generate failed: CUDA_STANDARD 20 with CUDA_STANDARD_REQUIRED); configures
# only, and checks that adder_kernel.cu compiles with -std=c++20.
# CUDA_COMPILER: the nvcc RingKernel was built with, given to the copy's configure (project(... CUDA)
# alone searches only PATH and CUDACXX; RingKernel also finds /usr/local/cuda/bin/nvcc).
# LANGUAGES CXX with a package built with CUDA: configure says that adder_kernel.cu is left out,
# and the example runs on a host-backend device (it once failed to link: ringkernel_warnings, a
# target of RingKernel's own tree, and adder_start_on_device, defined by the .cu CMake ignored).
cmake_minimum_required(VERSION 3.25)

foreach(var EXAMPLE_DIR PREFIX CXX WORK LANGUAGES PACKAGE_HAS_CUDA)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_example_copy: -D${var}=... is required")
  endif()
endforeach()

separate_arguments(LANGUAGES UNIX_COMMAND "${LANGUAGES}")  # "CXX CUDA" is given as one argument
set(cuda OFF)
if("CUDA" IN_LIST LANGUAGES)
  set(cuda ON)
endif()
string(JOIN " " languages ${LANGUAGES})

set(src "${WORK}/src")
set(bin "${WORK}/build")
file(REMOVE_RECURSE "${WORK}")
file(COPY "${EXAMPLE_DIR}/" DESTINATION "${src}")
file(READ "${EXAMPLE_DIR}/CMakeLists.txt" example)
set(project_languages "${languages}")
set(late "")
if(CUDA_LATE)
  set(project_languages CXX)
  set(late "enable_language(CUDA)\n")
endif()
file(WRITE "${src}/CMakeLists.txt"
  "cmake_minimum_required(VERSION 3.25)\nproject(myadder LANGUAGES ${project_languages})\n"
  "find_package(RingKernel 0.1 REQUIRED)\n${late}\n${example}")

function(fail what output)
  message(FATAL_ERROR "check_example_copy [LANGUAGES ${languages}]: ${what}\n---- output ----\n${output}")
endfunction()

set(configure_args -S "${src}" -B "${bin}" -G Ninja "-DCMAKE_PREFIX_PATH=${PREFIX}"
  "-DCMAKE_CXX_COMPILER=${CXX}")
if(cuda)
  list(APPEND configure_args "-DCMAKE_CUDA_HOST_COMPILER=${CXX}")
  if(CUDA_COMPILER)
    list(APPEND configure_args "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}")
  endif()
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  fail("configure failed" "${out}")
endif()
if(out MATCHES "CMake Warning")
  fail("configure printed warnings" "${out}")
endif()
set(left_out "adder: RingKernel has the CUDA backend, but the CUDA language is not enabled in this directory")
if(PACKAGE_HAS_CUDA AND NOT cuda AND NOT out MATCHES "${left_out}")
  fail("configure did not say that adder_kernel.cu is left out" "${out}")
endif()
if((NOT PACKAGE_HAS_CUDA OR cuda) AND out MATCHES "${left_out}")
  fail("configure said that adder_kernel.cu is left out" "${out}")
endif()

if(CUDA_LATE)
  file(READ "${bin}/build.ninja" ninja)
  if(NOT ninja MATCHES "build [^\n]*adder_kernel\\.cu\\.o: CUDA_COMPILER[^\n]*\n([ ]+[^\n]*\n)*[ ]+FLAGS = [^\n]*-std=c\\+\\+20")
    fail("adder_kernel.cu does not compile with -std=c++20" "${out}")
  endif()
  message("check_example_copy: ok (LANGUAGES CXX, enable_language(CUDA) after find_package; configure only)")
  return()
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" --build "${bin}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  fail("build failed (exit ${rc})" "${out}")
endif()

# No argument, as the README's main job runs it: a GPU where the copy has CUDA code and there is one.
execute_process(COMMAND "${CMAKE_COMMAND}" -E env RINGKERNEL_HOST_DEVICES=1 "${bin}/adder"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")  # for the test log
if(NOT rc EQUAL 0 OR NOT out MATCHES "\nadder: OK, all checks passed\n$")
  fail("the example did not pass (exit ${rc})" "${out}")
endif()
if(NOT cuda AND NOT out MATCHES "\\(host backend\\)\n  no GPU used; ")
  fail("the copy without CUDA code did not run on a host-backend device, saying why" "${out}")
endif()
message("check_example_copy: ok (LANGUAGES ${languages})")
