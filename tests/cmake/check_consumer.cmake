# Configures and builds tests/cmake/consumer in a fresh directory and checks the build behaviour of
# ringkernel_generate_messages(). Run as: cmake -DMODE=... -DGENERATOR=... -DCXX=... -DWORK=...
#   -DRK_SOURCE_DIR=... [-DGEN_EXE=...] [-DPREFIX=...] [-DCUDA=ON [-DCUDA_COMPILER=<nvcc>]] [-DINCREMENTAL=ON]
#   [-DBUILD_TYPE=Debug|Release|...] [-DCONFIG_CHECKS=ON] -P check_consumer.cmake
# A multi-config GENERATOR ("Ninja Multi-Config") configures Debug and Release and builds BUILD_TYPE
# first. CONFIG_CHECKS: also check what a reconfigure does (outputs of a header dropped from HEADERS,
# or of a whole call removed, are deleted, not after a configure that stopped at an error; two
# targets sharing an OUTPUT_DIR fail clearly).
cmake_minimum_required(VERSION 3.25)

foreach(var MODE GENERATOR CXX WORK RK_SOURCE_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_consumer: -D${var}=... is required")
  endif()
endforeach()

if(NOT BUILD_TYPE)
  set(BUILD_TYPE Debug)
endif()

set(multi_config OFF)
if(GENERATOR MATCHES "Multi-Config|Visual Studio|Xcode")
  set(multi_config ON)
endif()

set(src "${WORK}/src")
set(bin "${WORK}/build")
file(REMOVE_RECURSE "${WORK}")
file(COPY "${CMAKE_CURRENT_LIST_DIR}/consumer/" DESTINATION "${src}")

function(fail what output)
  message(FATAL_ERROR "check_consumer [${MODE}, ${GENERATOR}, ${CXX}, ${BUILD_TYPE}]: ${what}\n---- build output ----\n${output}")
endfunction()

# Fails unless the exit status `rc` of step `what` (build, reconfigure) matches `expect`
# (success or failure).
function(expect_exit what expect rc output)
  if(expect STREQUAL "success" AND NOT rc EQUAL 0)
    fail("${what} failed (exit ${rc})" "${output}")
  elseif(expect STREQUAL "failure" AND rc EQUAL 0)
    fail("${what} succeeded but was expected to fail" "${output}")
  endif()
endfunction()

# Parallel jobs of build(); 1 where the output is matched across lines (with 2, another target's
# "Built target" line once landed inside the tool's diagnostic).
set(build_jobs 2)

# Runs a build (of BUILD_TYPE, or of the configuration given after `expect`) with ${build_jobs}
# jobs; sets ${out_var} to its output; fails unless the exit status matches `expect`.
function(build out_var expect)
  set(config "${BUILD_TYPE}")
  if(ARGC GREATER 2)
    set(config "${ARGV2}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${bin}" -j ${build_jobs} --config "${config}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  expect_exit(build "${expect}" "${rc}" "${out}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# Configures `bin` again with configure_args and any further arguments; sets ${out_var} to the
# output; fails unless the exit status matches `expect` (also used by check_reconfigure.cmake).
function(reconfigure out_var expect)
  execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  expect_exit(reconfigure "${expect}" "${rc}" "${out}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# A build that must run no command at all.
function(expect_no_work label)
  build(out success)
  if(GENERATOR MATCHES "^Ninja")
    if(NOT out MATCHES "no work to do")
      fail("${label}: a no-change build ran commands" "${out}")
    endif()
    # An installed package's templates are fixed: nothing to glob again at build time.
    if(MODE STREQUAL "package" AND out MATCHES "Re-checking globbed directories")
      fail("${label}: a no-change build re-globbed the installed templates" "${out}")
    endif()
  elseif(out MATCHES "ringkernel-gen|Building|Linking|Generating")
    fail("${label}: a no-change build ran commands" "${out}")
  endif()
endfunction()

function(mtime file out_var)
  execute_process(COMMAND stat -c %y "${file}" OUTPUT_VARIABLE t OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out_var} "${t}" PARENT_SCOPE)
endfunction()

set(configure_args -S "${src}" -B "${bin}" -G "${GENERATOR}"
  "-DCMAKE_CXX_COMPILER=${CXX}" "-DRK_MODE=${MODE}" "-DRK_SOURCE_DIR=${RK_SOURCE_DIR}")
set(other_config Release)
if(BUILD_TYPE STREQUAL "Release")
  set(other_config Debug)
endif()
if(multi_config)
  # A list does not survive execute_process's arguments: give it through an initial cache.
  file(WRITE "${WORK}/configs.cmake"
    "set(CMAKE_CONFIGURATION_TYPES \"${BUILD_TYPE};${other_config}\" CACHE STRING \"\")\n")
  list(APPEND configure_args -C "${WORK}/configs.cmake")
else()
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
endif()
if(NOT MODE STREQUAL "package")
  # RingKernel is built inside the consumer: keep it to the host backend (CUDA has its own test).
  list(APPEND configure_args -DRINGKERNEL_ENABLE_CUDA=OFF)
endif()
if(GEN_EXE)
  list(APPEND configure_args "-DRINGKERNEL_GEN_EXECUTABLE=${GEN_EXE}")
endif()
if(PREFIX)
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${PREFIX}")
endif()
if(CUDA)
  list(APPEND configure_args -DRK_CUDA=ON "-DCMAKE_CUDA_HOST_COMPILER=${CXX}")
  if(CUDA_COMPILER)  # the nvcc RingKernel found, also where it is not on PATH
    list(APPEND configure_args "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}")
  endif()
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  fail("configure failed" "${out}")
endif()
if(out MATCHES "CMake Warning")
  fail("configure printed warnings" "${out}")
endif()

build(out success)
if(NOT out MATCHES "ringkernel-gen alpha.h" OR NOT out MATCHES "ringkernel-gen registry consumer" OR
   NOT out MATCHES "ringkernel-gen gamma.h")
  fail("the first build did not run the generator" "${out}")
endif()
set(exe "${bin}/consumer")
set(gen_root "${bin}/ringkernel_gen/consumer")
set(gen "${gen_root}")
if(multi_config)
  set(exe "${bin}/${BUILD_TYPE}/consumer")
  set(gen "${gen_root}/${BUILD_TYPE}")   # one output directory per configuration
endif()
if(NOT EXISTS "${gen}/alpha.rk.h")
  fail("no ${gen}/alpha.rk.h after the first build" "${out}")
endif()
execute_process(COMMAND "${exe}" RESULT_VARIABLE rc OUTPUT_VARIABLE run ERROR_VARIABLE run)
if(NOT rc EQUAL 0 OR NOT run MATCHES "consumer ok")
  fail("the consumer did not run correctly (exit ${rc})" "${run}")
endif()
if(NOT MODE STREQUAL "package")
  # RingKernel inside the consumer's build (RINGKERNEL_INSTALL off by default): its ringkernel-info is
  # not built by `all`, and the consumer's `cmake --install` installs nothing of RingKernel's (the
  # consumer project has no install rules of its own, so the check is that nothing is installed).
  file(GLOB_RECURSE info "${bin}/*/ringkernel-info")
  if(info)
    fail("the consumer's build built RingKernel's ringkernel-info (${info})" "${out}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" --install "${bin}" --config "${BUILD_TYPE}" --prefix "${WORK}/inst"
    RESULT_VARIABLE rc OUTPUT_VARIABLE install ERROR_VARIABLE install)
  file(GLOB_RECURSE installed "${WORK}/inst/*")
  if(NOT rc EQUAL 0 OR installed)
    fail("the consumer's install failed (exit ${rc}) or installed RingKernel's files: ${installed}" "${install}")
  endif()
  # RingKernel's own sources compile with -Wall -Wextra but not -Werror here (RINGKERNEL_WARNINGS_AS_ERRORS
  # is off unless RingKernel is the top-level project): the consumer's compiler and flags may warn
  # where RingKernel's builds do not, and must not stop its build.
  if(NOT multi_config)
    file(READ "${bin}/compile_commands.json" commands)
    string(REGEX MATCHALL "\"command\": \"[^\n]*/runtime/src/[a-z_]+\\.cpp\"" runtime_commands "${commands}")
    if(NOT runtime_commands)
      fail("compile_commands.json lists no RingKernel runtime source" "${commands}")
    endif()
    foreach(command IN LISTS runtime_commands)
      if(command MATCHES "-Werror" OR NOT command MATCHES "-Wall")
        fail("a RingKernel source compiles with -Werror (or without -Wall) in a consumer's build: ${command}" "${out}")
      endif()
    endforeach()
  endif()
endif()

if(multi_config)
  # The other configuration (its own flags: the consumer defines CONSUMER_DEBUG_BUILD in Debug only)
  # generates into its own directory, so switching back rebuilds nothing.
  build(out success "${other_config}")
  if(NOT out MATCHES "ringkernel-gen alpha.h" OR NOT EXISTS "${gen_root}/${other_config}/alpha.rk.h")
    fail("building ${other_config} did not generate into ringkernel_gen/consumer/${other_config}" "${out}")
  endif()
  expect_no_work("${BUILD_TYPE} build after building ${other_config}")
endif()

if(NOT INCREMENTAL)
  if(CONFIG_CHECKS)
    include("${CMAKE_CURRENT_LIST_DIR}/check_reconfigure.cmake")
  endif()
  return()
endif()

expect_no_work("second build")

# The generator reads the target's flags from a file that CMake rewrites only when they change: a
# changed CXX-only definition (it sizes a field of gamma.h) regenerates gamma (and the target's other
# headers, whose outputs stay as they were), a reconfigure that changes nothing runs nothing.
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
reconfigure(out success "-DRK_LABEL=cxx only v2")
build(out success)
if(NOT out MATCHES "ringkernel-gen gamma.h")
  fail("changing the CXX-only CONSUMER_LABEL did not regenerate gamma" "${out}")
endif()
reconfigure(out success "-DRK_LABEL=cxx only v2")
expect_no_work("build after a reconfigure with unchanged definitions")

# Touching a header included by an annotated header regenerates that header's outputs only.
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(TOUCH "${src}/include/common/units.h")
build(out success)
if(NOT out MATCHES "ringkernel-gen alpha.h")
  fail("touching common/units.h did not regenerate alpha" "${out}")
endif()
if(out MATCHES "ringkernel-gen beta.h")
  fail("touching common/units.h regenerated beta" "${out}")
endif()
expect_no_work("build after touching an included header")

# Editing one of two annotated headers regenerates only its outputs and the registry.
mtime("${gen}/alpha.rk.h" alpha_before)
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(APPEND "${src}/include/beta.h"
  "\nnamespace consumer { struct [[ringkernel::message]] Reset { std::uint32_t sensor; }; }\n")
build(out success)
if(NOT out MATCHES "ringkernel-gen beta.h" OR NOT out MATCHES "ringkernel-gen registry consumer")
  fail("editing beta.h did not regenerate beta and the registry" "${out}")
endif()
if(out MATCHES "ringkernel-gen alpha.h")
  fail("editing beta.h regenerated alpha" "${out}")
endif()
mtime("${gen}/alpha.rk.h" alpha_after)
if(NOT alpha_before STREQUAL alpha_after)
  fail("alpha.rk.h was rewritten although its content did not change" "${out}")
endif()
file(READ "${gen}/consumer.registry.rk.h" registry)
if(NOT registry MATCHES "consumer::Reset")
  fail("the registry does not list the new message" "${registry}")
endif()
expect_no_work("build after editing beta.h")

# The registry covers every call of the target: editing gamma.h, which a later call from another
# directory (extra/, no REGISTRY) generates, regenerates gamma and registry `consumer`, which then
# lists the new message.
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(READ "${src}/extra/gamma.h" good_gamma)
file(APPEND "${src}/extra/gamma.h"
  "\nnamespace consumer { struct [[ringkernel::message]] Zero { std::uint32_t sensor; }; }\n")
build(out success)
if(NOT out MATCHES "ringkernel-gen gamma.h" OR NOT out MATCHES "ringkernel-gen registry consumer")
  fail("editing gamma.h (a later call from another directory) did not regenerate gamma and the registry" "${out}")
endif()
if(out MATCHES "ringkernel-gen alpha.h")
  fail("editing gamma.h regenerated alpha" "${out}")
endif()
file(READ "${gen}/consumer.registry.rk.h" registry)
if(NOT registry MATCHES "consumer::Zero")
  fail("registry consumer does not list the message added to gamma.h" "${registry}")
endif()
expect_no_work("build after editing gamma.h")

# Two messages of the target with one type id, in the headers of two calls (beta.h in the REGISTRY
# call, gamma.h in extra/'s): the registry step fails the build naming both types (it used to build
# when each call had its own registry); the build recovers once the ids differ again.
file(READ "${src}/include/beta.h" good_beta)
file(APPEND "${src}/include/beta.h"
  "namespace consumer { struct [[ringkernel::message(id = 0x77)]] DupBeta { std::uint32_t x; }; }\n")
file(APPEND "${src}/extra/gamma.h"
  "namespace consumer { struct [[ringkernel::message(id = 0x77)]] DupGamma { std::uint32_t y; }; }\n")
set(build_jobs 1)
build(out failure)
set(build_jobs 2)
if(NOT out MATCHES "type id 0x00000077 is used twice: [^\n]*(DupBeta[^\n]* and [^\n]*DupGamma|DupGamma[^\n]* and [^\n]*DupBeta)")
  fail("two messages of the target with id 0x77 (beta.h, gamma.h of another call) did not fail the build naming both" "${out}")
endif()
file(WRITE "${src}/include/beta.h" "${good_beta}")
file(WRITE "${src}/extra/gamma.h" "${good_gamma}")
build(out success)
expect_no_work("build after removing the id collision")

# An invalid message fails the build with the tool's file:line:col diagnostic, leaves no stale
# outputs, and the build recovers once the header is fixed.
file(READ "${src}/include/beta.h" good_beta)
file(APPEND "${src}/include/beta.h"
  "namespace consumer { struct [[ringkernel::message]] Broken {\n  int* target;\n}; }\n")
set(build_jobs 1)
build(out failure)
set(build_jobs 2)
if(NOT out MATCHES "beta.h:[0-9]+:[0-9]+: error: [^\n]*target")
  fail("the failing build does not show the tool's file:line:col diagnostic naming the field" "${out}")
endif()
foreach(stale beta.rk.h beta.rk.cuh beta.rk.json)
  if(EXISTS "${gen}/${stale}")
    fail("a failed generation left ${stale} behind" "${out}")
  endif()
endforeach()
file(WRITE "${src}/include/beta.h" "${good_beta}")
build(out success)
if(NOT EXISTS "${gen}/beta.rk.h")
  fail("fixing beta.h did not regenerate its outputs" "${out}")
endif()
expect_no_work("build after fixing the error")

if(CONFIG_CHECKS)
  include("${CMAKE_CURRENT_LIST_DIR}/check_reconfigure.cmake")
endif()
