# The library named by ringkernel.pc has the per-configuration postfix (test cmake.pkgconfig_postfix):
# configures RK_SOURCE_DIR (configure only, with the prebuilt RK_GEN, no CUDA, nothing but the package)
# with -DCMAKE_DEBUG_POSTFIX=d, once with Ninja (Debug) and once with Ninja Multi-Config, and reads the
# ringkernel.pc each configuration stages for `cmake --install`
# (<build>/package/pkgconfig/<config>/relocatable/, cmake/RingKernelPkgConfig.cmake): Debug must link
# -lringkernel_runtimed (the file the build makes, libringkernel_runtimed.a), Release
# -lringkernel_runtime. Building the runtime to install it would take minutes; cmake.pkgconfig does
# that for the default build.
# Run as: cmake -DRK_SOURCE_DIR=... -DRK_GEN=... -DCXX=... -DWORK=... -P check_postfix.cmake
cmake_minimum_required(VERSION 3.25)

foreach(var RK_SOURCE_DIR RK_GEN CXX WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_postfix: -D${var}=... is required")
  endif()
endforeach()

# Configures with `generator` and the extra arguments; checks each "config=library" in `expect`.
function(check name generator expect)
  set(bin "${WORK}/${name}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${RK_SOURCE_DIR}" -B "${bin}" -G "${generator}"
      "-DCMAKE_CXX_COMPILER=${CXX}" "-DRINGKERNEL_GEN_EXECUTABLE=${RK_GEN}" -DRINGKERNEL_INSTALL=ON
      -DRINGKERNEL_ENABLE_CUDA=OFF -DRINGKERNEL_BUILD_TESTS=OFF -DRINGKERNEL_BUILD_BENCH=OFF
      -DRINGKERNEL_BUILD_EXAMPLES=OFF -DCMAKE_DEBUG_POSTFIX=d ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_postfix: ${name}: configuring RingKernel failed (exit ${rc})\n${out}\n${err}")
  endif()
  foreach(pair IN LISTS expect)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 config)
    list(GET pair 1 library)
    set(pc "${bin}/package/pkgconfig/${config}/relocatable/ringkernel.pc")
    if(NOT EXISTS "${pc}")
      message(FATAL_ERROR "check_postfix: ${name}: no ${pc}")
    endif()
    file(STRINGS "${pc}" libs REGEX "^Libs:")
    if(NOT libs MATCHES " -l${library} ")
      message(FATAL_ERROR "check_postfix: ${name}: ${config} should link -l${library}, ringkernel.pc says\n${libs}")
    endif()
    message(STATUS "check_postfix: ${name} ${config}: ${libs}")
  endforeach()
endfunction()

file(REMOVE_RECURSE "${WORK}")
check(single Ninja "Debug=ringkernel_runtimed" -DCMAKE_BUILD_TYPE=Debug)
check(multi "Ninja Multi-Config" "Debug=ringkernel_runtimed;Release=ringkernel_runtime")
file(REMOVE_RECURSE "${WORK}")
