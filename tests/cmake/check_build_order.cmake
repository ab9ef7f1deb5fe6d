# Configures tests/cmake/build_order in a fresh directory, builds it from clean with -j4 (generation
# steps that wait for nothing would race the slow generated headers they include), then builds it
# again, which must run nothing; then deletes two generated headers, which the next build must
# regenerate (Unix Makefiles did not: a BYPRODUCT has no rule there), and a build after that runs
# nothing. Run as: cmake -DGENERATOR=... -DCXX=... -DWORK=... -DRK_GEN=...
#   -DRK_SOURCE_DIR=... -P check_build_order.cmake (tests cmake.build_order.<generator>)
cmake_minimum_required(VERSION 3.25)

foreach(var GENERATOR CXX WORK RK_GEN RK_SOURCE_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_build_order: -D${var}=... is required")
  endif()
endforeach()

function(fail what output)
  message(FATAL_ERROR "check_build_order [${GENERATOR}]: ${what}\n---- output ----\n${output}")
endfunction()

file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/build_order" -B "${WORK}"
    -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DRK_GEN=${RK_GEN}" "-DRK_SOURCE_DIR=${RK_SOURCE_DIR}"
    -DCMAKE_BUILD_TYPE=Debug
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  fail("configure failed" "${out}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}" -j 4
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  fail("the clean -j4 build failed (a generation step ran before a header it includes existed?)" "${out}")
endif()
if(NOT out MATCHES "ringkernel-gen linked_msgs\\.hpp -> linked_msgs\\.rk\\.")
  fail("the build did not name the header linked_msgs.hpp as it is" "${out}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}" -j 4
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR out MATCHES "ringkernel-gen" OR (GENERATOR MATCHES "^Ninja" AND NOT out MATCHES "no work to do"))
  fail("a build with no change ran commands (exit ${rc})" "${out}")
endif()

# A generated header deleted by hand: the next build regenerates it (only it), and then nothing runs.
set(deleted "${WORK}/ringkernel_gen/own/own_msgs.rk.h" "${WORK}/sub/ringkernel_gen/linked/linked_msgs.rk.cuh")
foreach(file IN LISTS deleted)
  if(NOT EXISTS "${file}")
    fail("'${file}' was not generated" "")
  endif()
endforeach()
file(REMOVE ${deleted})
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}" -j 4
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
foreach(file IN LISTS deleted)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${file}")
    fail("a build after deleting generated headers did not regenerate '${file}' (exit ${rc})" "${out}")
  endif()
endforeach()
if(out MATCHES "ringkernel-gen genex_msgs")
  fail("a build after deleting generated headers regenerated one that was not deleted" "${out}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}" -j 4
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR out MATCHES "ringkernel-gen" OR (GENERATOR MATCHES "^Ninja" AND NOT out MATCHES "no work to do"))
  fail("a build after the regeneration ran commands (exit ${rc})" "${out}")
endif()
