# Configures tests/cmake/registry in a fresh directory with GENERATOR and checks that the one
# registry of target `app` covers all five of its calls (earlier and later ones, from the target's
# directory, a subdirectory, the parent and a sibling): the program it builds dispatches to the
# messages of each. Then: a build with no change runs nothing; the registry header deleted by hand is
# regenerated, twice (its depfile with Unix Makefiles names it once); editing the header of the last call
# (sibling directory) regenerates it and the registry; two messages with one id in two calls fail the
# build naming both (-DCOLLIDE=ON), and the build recovers without them; the same without any
# REGISTRY (-DWITHOUT_REGISTRY=ON: the check step). A multi-config GENERATOR builds Debug and Release. Run as: cmake -DGENERATOR=... -DCXX=... -DWORK=... -DRK_GEN=...
#   -DRK_SOURCE_DIR=... -P check_registry.cmake (tests cmake.registry.<generator>)
cmake_minimum_required(VERSION 3.25)

foreach(var GENERATOR CXX WORK RK_GEN RK_SOURCE_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_registry: -D${var}=... is required")
  endif()
endforeach()

function(fail what output)
  message(FATAL_ERROR "check_registry [${GENERATOR}]: ${what}\n---- output ----\n${output}")
endfunction()

set(src "${WORK}/src")
set(bin "${WORK}/build")
file(REMOVE_RECURSE "${WORK}")
file(COPY "${CMAKE_CURRENT_LIST_DIR}/registry/" DESTINATION "${src}")
set(multi_config OFF)
if(GENERATOR MATCHES "Multi-Config")
  set(multi_config ON)
endif()

# Configures with ARGN; fails unless it succeeds.
function(configure)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${src}" -B "${bin}" -G "${GENERATOR}"
      "-DCMAKE_CXX_COMPILER=${CXX}" "-DRK_GEN=${RK_GEN}" "-DRK_SOURCE_DIR=${RK_SOURCE_DIR}"
      -DCMAKE_BUILD_TYPE=Debug ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    fail("configure failed" "${out}")
  endif()
endfunction()

# Builds `config` with one job; sets ${out_var} to the output, ${rc_var} to the exit status.
function(build config out_var rc_var)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${bin}" --config ${config} -j 1
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${rc_var} "${rc}" PARENT_SCOPE)
endfunction()

# Builds `config`, which must succeed, and runs the program, which must find every message.
function(build_and_run config what)
  build(${config} out rc)
  if(NOT rc EQUAL 0)
    fail("${what}: the build of ${config} failed (exit ${rc})" "${out}")
  endif()
  set(exe "${bin}/app/app")
  if(multi_config)
    set(exe "${bin}/app/${config}/app")
  endif()
  execute_process(COMMAND "${exe}" RESULT_VARIABLE rc OUTPUT_VARIABLE run ERROR_VARIABLE run)
  if(NOT rc EQUAL 0 OR NOT run MATCHES "registry ok")
    fail("${what}: the program of ${config} did not find every message (exit ${rc})" "${run}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(expect_no_work what)
  build(Debug out rc)
  if(NOT rc EQUAL 0 OR out MATCHES "ringkernel-gen|Building|Linking|Generating" OR
     (GENERATOR MATCHES "^Ninja" AND NOT out MATCHES "no work to do"))
    fail("${what}: a build with no change ran commands (exit ${rc})" "${out}")
  endif()
endfunction()

configure()
build_and_run(Debug "the first build")
if(NOT out MATCHES "ringkernel-gen registry app_messages")
  fail("the first build did not run the registry step" "${out}")
endif()
if(multi_config)
  build_and_run(Release "the first build")
endif()
expect_no_work("the second build")

# The registry header deleted by hand, twice: each build regenerates it (Unix Makefiles: through the
# depfile its step writes, RingKernelGenerateDepfile.cmake), and that depfile, which the tool does
# not write, names it once however often the step ran.
set(reg "${bin}/app/reg/registry_gen/Debug/app_messages.registry.rk")
foreach(round IN ITEMS 1 2)
  file(REMOVE "${reg}.h")
  build_and_run(Debug "after deleting the registry header (${round})")
  if(NOT EXISTS "${reg}.h" OR NOT out MATCHES "ringkernel-gen registry app_messages")
    fail("deleting the registry header (${round}) did not regenerate it" "${out}")
  endif()
endforeach()
if(EXISTS "${reg}.d")
  file(READ "${reg}.d" depfile)
  string(REGEX MATCHALL "app_messages\\.registry\\.rk\\.h" listed "${depfile}")
  list(LENGTH listed times)
  if(NOT times EQUAL 1)
    fail("the registry step's depfile names its header ${times} times, not once" "${depfile}")
  endif()
endif()
expect_no_work("the build after regenerating the registry header")

# The header of the last call, in a sibling of the target's directory, edited (a field added):
# that header and the registry are regenerated.
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(READ "${src}/sibling/sibling.h" sibling)
string(REPLACE "std::uint32_t value;" "std::uint32_t value; std::uint16_t more;" edited "${sibling}")
file(WRITE "${src}/sibling/sibling.h" "${edited}")
build_and_run(Debug "after editing sibling.h")
if(NOT out MATCHES "ringkernel-gen sibling.h" OR NOT out MATCHES "ringkernel-gen registry app_messages")
  fail("editing sibling.h (the last call) did not regenerate it and the registry" "${out}")
endif()
expect_no_work("the build after editing sibling.h")

# Two messages with id 0x77, in the first call (the target's directory, before the REGISTRY call)
# and the last (a sibling directory): the registry step fails the build naming both types.
configure(-DCOLLIDE=ON)
build(Debug out rc)
if(rc EQUAL 0)
  fail("two messages of the target with one id built" "${out}")
endif()
if(NOT out MATCHES "type id 0x00000077 is used twice: [^\n]*(DupFirst[^\n]* and [^\n]*DupSibling|DupSibling[^\n]* and [^\n]*DupFirst)")
  fail("the failed build does not name both messages with id 0x77" "${out}")
endif()
configure(-DCOLLIDE=OFF)
build_and_run(Debug "after removing the collision")
expect_no_work("the build after removing the collision")

# No call names REGISTRY: the check step (ringkernel-gen check, over the headers of all five calls)
# builds and runs once per change, the registry header of before is gone, and the same collision
# still fails the build naming both; then the registry comes back.
configure(-DWITHOUT_REGISTRY=ON)
build_and_run(Debug "without a registry")
if(NOT out MATCHES "ringkernel-gen check app" OR out MATCHES "ringkernel-gen registry")
  fail("without a registry the build did not run the check step (or ran the registry step)" "${out}")
endif()
if(EXISTS "${bin}/app/reg/registry_gen/Debug/app_messages.registry.rk.h")
  fail("the registry header outlived the REGISTRY that made it" "")
endif()
if(multi_config)
  build_and_run(Release "without a registry")
endif()
expect_no_work("the second build without a registry")
configure(-DWITHOUT_REGISTRY=ON -DCOLLIDE=ON)
build(Debug out rc)
if(rc EQUAL 0)
  fail("without a registry, two messages of the target with one id built" "${out}")
endif()
if(NOT out MATCHES "type id 0x00000077 is used twice: [^\n]*(DupFirst[^\n]* and [^\n]*DupSibling|DupSibling[^\n]* and [^\n]*DupFirst)")
  fail("without a registry, the failed build does not name both messages with id 0x77" "${out}")
endif()
configure(-DWITHOUT_REGISTRY=OFF -DCOLLIDE=OFF)
build_and_run(Debug "with the registry again")
message(STATUS "check_registry [${GENERATOR}]: ok")
