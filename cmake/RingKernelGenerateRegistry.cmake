# Where the build steps of ringkernel_generate_messages() hang, and the registry of a target
# (docs/cmake.md, REGISTRY). A target has at most one registry (DESIGN.md §1: "all manifests of a
# target"), made from the manifests of every header that any call generates for it: calls before
# and after the REGISTRY call, from any directory, with any OUTPUT_DIR. Included by
# RingKernelGenerate.cmake.
#
# How: every call hangs its steps on a utility target of its own directory,
# ringkernel_gen_<target>_<n>, which the target depends on; the REGISTRY call adds the registry step
# on one more, ringkernel_gen_<target>_registry, which depends on the utility of every call (earlier
# ones here, later ones when they are made), and which the target depends on. The step's command and
# file dependencies read the target's manifests and stamps through $<TARGET_PROPERTY> when CMake
# generates, so they include the calls made after it ($<TARGET_GENEX_EVAL> evaluates the $<CONFIG>
# of a multi-config output directory inside them). Why utilities for the calls in the target's
# own directory too: a custom command gets a build rule only in targets of its own directory, and
# Unix Makefiles build each target's rules on their own, so the registry step (in the directory of
# the REGISTRY call) can wait for another directory's steps only through target-level dependencies,
# and it cannot wait for steps that are part of the target's own build, which in turn waits for the
# registry.
include_guard(GLOBAL)

# Hangs the steps of one call (`stamps`, outputs of custom commands of the current directory) on a
# utility target of the current directory and records its `manifests` and stamps for the registry.
# _ringkernel_finalize orders the utility after what the target links once all links are known.
function(_ringkernel_add_call_steps target stamps manifests)
  get_target_property(calls ${target} RINGKERNEL_GENERATE_CALLS)
  if(NOT calls)
    set(calls 0)
  endif()
  math(EXPR calls "${calls} + 1")
  set_target_properties(${target} PROPERTIES RINGKERNEL_GENERATE_CALLS ${calls})
  set(utility ringkernel_gen_${target}_${calls})
  add_custom_target(${utility} DEPENDS ${stamps})
  set_target_properties(${utility} PROPERTIES FOLDER ringkernel_gen)  # IDEs with USE_FOLDERS: one folder
  add_dependencies(${target} ${utility})
  set_property(GLOBAL APPEND PROPERTY RINGKERNEL_GEN_UTILITIES "${target}|${utility}")
  set_property(TARGET ${target} APPEND PROPERTY RINGKERNEL_GEN_CALL_UTILITIES ${utility})
  set_property(TARGET ${target} APPEND PROPERTY RINGKERNEL_GEN_MANIFESTS ${manifests})
  set_property(TARGET ${target} APPEND PROPERTY RINGKERNEL_GEN_STAMPS ${stamps})
  set_property(GLOBAL APPEND PROPERTY RINGKERNEL_GEN_TARGETS ${target})
  # A call after the REGISTRY call, or after _ringkernel_add_id_checks made the check step.
  foreach(merge IN ITEMS RINGKERNEL_GEN_REGISTRY_UTILITY RINGKERNEL_GEN_CHECK_UTILITY)
    get_target_property(step ${target} ${merge})
    if(step)
      add_dependencies(${step} ${utility})
    endif()
  endforeach()
endfunction()

# Adds the registry step of `target` (REGISTRY `name`, into `out`), after _ringkernel_add_call_steps
# of the same call. The tool checks the type ids and kernel ids of all its manifests against each
# other: a collision between any two messages of the target fails the build, naming both.
function(_ringkernel_add_registry target name out template_dir templates)
  set(reg "${out}/${name}.registry.rk")
  # GNU make: a depfile naming the header, so that make regenerates it when it is deleted.
  _ringkernel_output_tracking("${reg}.d" "${reg}.stamp" track "${reg}.h")
  set(depfile)
  if(track)
    set(depfile DEPFILE "${reg}.d")
  endif()
  add_custom_command(
    OUTPUT "${reg}.stamp"
    BYPRODUCTS "${reg}.h"
    COMMAND RingKernel::gen registry
            --name "${name}"
            --output-dir "${out}"
            --remove-stale-outputs
            --template-dir "${template_dir}"
            "$<TARGET_GENEX_EVAL:${target},$<TARGET_PROPERTY:${target},RINGKERNEL_GEN_MANIFESTS>>"
    COMMAND "${CMAKE_COMMAND}" -E touch "${reg}.stamp"
    ${track}
    DEPENDS "$<TARGET_GENEX_EVAL:${target},$<TARGET_PROPERTY:${target},RINGKERNEL_GEN_STAMPS>>" RingKernel::gen ${templates}
    ${depfile}
    COMMENT "ringkernel-gen registry ${name}"
    COMMAND_EXPAND_LISTS
    VERBATIM)
  _ringkernel_add_merge_utility(${target} registry "${reg}.stamp" RINGKERNEL_GEN_REGISTRY_UTILITY)
endfunction()

# The utility target ringkernel_gen_<target>_<kind> of a step over all the calls' manifests (the
# registry or the check step, whose output is `stamp`): after the utility of every call so far
# (_ringkernel_add_call_steps adds later ones through `property`), before the target.
function(_ringkernel_add_merge_utility target kind stamp property)
  set(utility ringkernel_gen_${target}_${kind})
  add_custom_target(${utility} DEPENDS "${stamp}")
  set_target_properties(${utility} PROPERTIES FOLDER ringkernel_gen)
  get_property(calls TARGET ${target} PROPERTY RINGKERNEL_GEN_CALL_UTILITIES)
  add_dependencies(${utility} ${calls})
  add_dependencies(${target} ${utility})
  set_target_properties(${target} PROPERTIES ${property} ${utility})
endfunction()

# At the end of the configure step (_ringkernel_finalize): every target with two or more generated
# headers and no registry gets a check step, `ringkernel-gen check` over the manifests of all its
# headers, on a utility target ringkernel_gen_<target>_check of the top-level directory that the
# target depends on. The generation step checks each header on its own; this step fails the build
# on what a registry of the target would refuse: two messages with one type id or kernel id, one
# type described differently (two headers of one stem are refused at configure time already). Like the registry step, it reads the manifests and stamps through
# $<TARGET_PROPERTY>, so calls made later (deferred ones) are covered too.
function(_ringkernel_add_id_checks)
  get_property(targets GLOBAL PROPERTY RINGKERNEL_GEN_TARGETS)
  set_property(GLOBAL PROPERTY RINGKERNEL_GEN_TARGETS "")
  list(REMOVE_DUPLICATES targets)
  foreach(target IN LISTS targets)
    get_target_property(registry ${target} RINGKERNEL_GEN_REGISTRY_UTILITY)
    get_target_property(checked ${target} RINGKERNEL_GEN_CHECK_UTILITY)
    get_property(manifests TARGET ${target} PROPERTY RINGKERNEL_GEN_MANIFESTS)
    list(LENGTH manifests count)
    if(registry OR checked OR count LESS 2)
      continue()
    endif()
    set(stamp_dir "${CMAKE_BINARY_DIR}/CMakeFiles/ringkernel_gen_check")  # Makefiles do not create it
    # Per configuration (not $<BOOL:$<CONFIG>>, which is false for configurations named N, Off, ...).
    set(stamp "${stamp_dir}/${target}$<$<NOT:$<STREQUAL:$<CONFIG>,>>:.$<CONFIG>>.stamp")
    add_custom_command(
      OUTPUT "${stamp}"
      COMMAND RingKernel::gen check
              "$<TARGET_GENEX_EVAL:${target},$<TARGET_PROPERTY:${target},RINGKERNEL_GEN_MANIFESTS>>"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${stamp_dir}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS "$<TARGET_GENEX_EVAL:${target},$<TARGET_PROPERTY:${target},RINGKERNEL_GEN_STAMPS>>" RingKernel::gen
      COMMENT "ringkernel-gen check ${target}: type ids across its headers"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    _ringkernel_add_merge_utility(${target} check "${stamp}" RINGKERNEL_GEN_CHECK_UTILITY)
  endforeach()
endfunction()
