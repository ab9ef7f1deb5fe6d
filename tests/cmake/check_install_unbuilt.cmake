# `cmake --install` of a RingKernel build that has not built what the package contains (the README's
# main job builds the adder example only, which leaves out ringkernel-info): it installs nothing and
# says what to build, instead of install(TARGETS)'s "file INSTALL cannot find ...".
#   cmake -DRK_SOURCE_DIR=... -DWORK=... -DCXX=... -P check_install_unbuilt.cmake
cmake_minimum_required(VERSION 3.25)

set(bin "${WORK}/build")
set(prefix "${WORK}/prefix")
file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${RK_SOURCE_DIR}" -B "${bin}" -G Ninja "-DCMAKE_CXX_COMPILER=${CXX}"
                        -DRINGKERNEL_BUILD_TESTS=OFF -DRINGKERNEL_BUILD_BENCH=OFF -DRINGKERNEL_BUILD_EXAMPLES=OFF
                        -DRINGKERNEL_ENABLE_CUDA=OFF
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_install_unbuilt: configure failed\n${out}")
endif()
# Nothing built (configuring is enough to show it, and takes seconds).
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${bin}" --prefix "${prefix}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX REPLACE "[ \n]+" " " flat "${out}")  # CMake wraps the text
if(rc EQUAL 0)
  message(FATAL_ERROR "check_install_unbuilt: cmake --install succeeded in a build that built nothing\n${out}")
endif()
foreach(expected IN ITEMS "RingKernel: not built yet, nothing installed; missing:"
                          "/runtime/libringkernel_runtime.a" "/runtime/ringkernel-info" "/generator/ringkernel-gen"
                          "Build first: cmake --build \"${bin}\" (everything) or cmake --build \"${bin}\" --target ringkernel_runtime ringkernel-info ringkernel-gen")
  string(FIND "${flat}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "check_install_unbuilt: the error does not say '${expected}'\n${out}")
  endif()
endforeach()
if(EXISTS "${prefix}")
  message(FATAL_ERROR "check_install_unbuilt: something was installed into ${prefix} before the error")
endif()
