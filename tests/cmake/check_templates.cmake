# Templates of RingKernel used by add_subdirectory (test cmake.templates): editing one regenerates
# (the steps depend on every template), and so does adding one (the template directory of a source
# tree is globbed again by every build: ringkernel-gen reads every *.mustache there, and a broken
# new one must fail the build, not wait for an unrelated change). Works on a copy of the parts of
# RingKernel's source tree that add_subdirectory reads (the templates are edited) and builds only the
# generation steps. Run as:
#   cmake -DWORK=... -DRK_SOURCE_DIR=... -DRK_GEN=... -DCXX=... -P check_templates.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var WORK RK_SOURCE_DIR RK_GEN CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_templates: -D${var}=... is required")
  endif()
endforeach()

function(fail what output)
  message(FATAL_ERROR "check_templates: ${what}\n---- output ----\n${output}")
endfunction()

set(rk "${WORK}/ringkernel")
set(bin "${WORK}/build")
file(REMOVE_RECURSE "${WORK}")
# What add_subdirectory reads of RingKernel as a subproject with a prebuilt generator (no tests,
# examples, benchmarks or install rules), not the whole tree: that may hold in-tree build
# directories. Something more it needs fails the configure below.
file(MAKE_DIRECTORY "${rk}")
foreach(entry CMakeLists.txt cmake templates runtime)
  file(COPY "${RK_SOURCE_DIR}/${entry}" DESTINATION "${rk}")
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/templates" -B "${bin}" -G Ninja
    "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Debug "-DRK_COPY=${rk}"
    "-DRINGKERNEL_GEN_EXECUTABLE=${RK_GEN}" -DRINGKERNEL_ENABLE_CUDA=OFF
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  fail("configure failed" "${out}")
endif()
set(gen "${bin}/ringkernel_gen/app")

# Builds the generation steps; sets ${out_var} to the output; fails unless the exit status matches
# `expect` (success or failure).
function(generate out_var expect)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${bin}"
      --target ringkernel_gen/app/msgs.rk.stamp ringkernel_gen/app/reg.registry.rk.stamp
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(expect STREQUAL "success" AND NOT rc EQUAL 0)
    fail("the generation failed (exit ${rc})" "${out}")
  elseif(expect STREQUAL "failure" AND rc EQUAL 0)
    fail("the generation succeeded but was expected to fail" "${out}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

generate(out success)
if(NOT out MATCHES "ringkernel-gen msgs.h" OR NOT EXISTS "${gen}/msgs.rk.h")
  fail("the first build did not generate msgs.rk.h" "${out}")
endif()
# The generation waits for what `app` links except RingKernel's runtime, which generates no header
# (RingKernelGenerateFinalize.cmake): it must not have compiled a single runtime source.
file(GLOB_RECURSE runtime_objects "${bin}/ringkernel/runtime/*.o")
if(runtime_objects)
  list(LENGTH runtime_objects count)
  fail("building the generation steps compiled ${count} sources of RingKernel's runtime first" "${out}")
endif()
generate(out success)
if(NOT out MATCHES "no work to do")
  fail("a second build with no change ran commands" "${out}")
endif()

# Editing a template: msgs.h and the registry regenerate, with the edit.
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(APPEND "${rk}/templates/rk_h.mustache" "// check_templates: edited rk_h\n")
file(APPEND "${rk}/templates/registry.mustache" "// check_templates: edited registry\n")
generate(out success)
file(READ "${gen}/msgs.rk.h" header)
file(READ "${gen}/reg.registry.rk.h" registry)
if(NOT header MATCHES "check_templates: edited rk_h" OR NOT registry MATCHES "check_templates: edited registry")
  fail("editing rk_h.mustache and registry.mustache did not regenerate msgs.rk.h and reg.registry.rk.h" "${out}")
endif()
generate(out success)
if(NOT out MATCHES "no work to do")
  fail("the build after editing the templates ran commands again" "${out}")
endif()

# Adding a template: the build globs the directory again, reconfigures and regenerates; the new
# template is broken, so the generation fails naming it.
file(WRITE "${rk}/templates/zz_added.mustache" "{{#unclosed}}\n")
generate(out failure)
if(NOT out MATCHES "zz_added\\.mustache")
  fail("adding a broken template did not rerun the generation (or its error does not name it)" "${out}")
endif()
# Removing it again: the next build globs, reconfigures and generates.
file(REMOVE "${rk}/templates/zz_added.mustache")
generate(out success)
if(NOT out MATCHES "ringkernel-gen msgs.h")
  fail("removing the broken template did not regenerate" "${out}")
endif()
