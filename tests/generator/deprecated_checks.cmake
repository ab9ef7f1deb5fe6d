# [[deprecated]] message types (included from CMakeLists.txt; sources in deprecated/), label unit:
# deprecated/deprecated_messages.h has a deprecated message in map format and causal, a deprecated
# message as a field and a deprecated enum as a field of another message; its .rk.h, .rk.cuh and a
# registry over it are generated with the layout corpus (fixture generator_layout_corpus).
# deprecated/deprecated_use.cpp encodes, decodes, creates and stamps KernelMessage<T>, queues them and
# dispatches through the registry, naming the deprecated types only inside its own push/pop, with -Werror:
# - generator_deprecated_messages_<rkh|cuh>_<cxx|clang19>: the generated code (.rk.h, the registry,
#   with cuh the registry over .rk.cuh after .rk.h) and the runtime templates instantiated for those
#   types do not warn;
# - generator_deprecated_messages_unguarded_<cxx|clang19>: a use of the type outside the user's
#   push/pop still does (that is what [[deprecated]] is for);
# - generator_deprecated_messages_nvcc (CUDA builds): the same as CUDA, a kernel among it, with nvcc
#   -Werror all-warnings (front end 1444/1215) and its host compiler's -Werror.
set(rk_deprecated_src "${CMAKE_CURRENT_SOURCE_DIR}/deprecated")
set(rk_deprecated_out "${CMAKE_CURRENT_BINARY_DIR}/deprecated_gen")
set(rk_deprecated_base "${rk_deprecated_out}/deprecated_messages")
rk_generate_test_header("${rk_deprecated_out}" "${rk_deprecated_src}" deprecated_messages
                        "deprecated/deprecated_messages.h (deprecated-message checks)")
add_custom_command(
  OUTPUT "${rk_deprecated_out}/deprecated.registry.rk.h"
  COMMAND RingKernel::gen registry --name deprecated --output-dir "${rk_deprecated_out}"
          --template-dir "${PROJECT_SOURCE_DIR}/templates" "${rk_deprecated_base}.rk.json"
  DEPENDS "${rk_deprecated_base}.rk.stamp" RingKernel::gen ${rk_templates}
  COMMENT "ringkernel-gen registry deprecated (deprecated-message checks)"
  VERBATIM)
add_custom_target(generator_deprecated_messages
  DEPENDS "${rk_deprecated_base}.rk.stamp" "${rk_deprecated_out}/deprecated.registry.rk.h")
add_dependencies(generator_layout_corpus generator_deprecated_messages)

set(rk_deprecated_includes "-I${rk_deprecated_out}" "-I${rk_deprecated_src}" "-I${rk_runtime_include}")
set(rk_compilers cxx)
if(RINGKERNEL_CLANGXX_19)
  list(APPEND rk_compilers clang19)
endif()
foreach(compiler_name IN LISTS rk_compilers)
  set(compiler "${CMAKE_CXX_COMPILER}")
  set(rk_quiet ${rk_quiet_attributes})
  if(compiler_name STREQUAL "clang19")
    set(compiler "${RINGKERNEL_CLANGXX_19}")
    set(rk_quiet -Wno-unknown-attributes)
  endif()
  foreach(kind IN ITEMS rkh cuh unguarded)
    set(rk_define)
    if(kind STREQUAL "cuh")
      set(rk_define -DRK_REGISTRY_USE_CUH)
    elseif(kind STREQUAL "unguarded")
      set(rk_define -DRK_UNGUARDED_USE)
    endif()
    set(name generator_deprecated_messages_${kind}_${compiler_name})
    add_test(NAME ${name}
      COMMAND "${compiler}" -fsyntax-only -std=c++20 -Wall -Wextra -Werror ${rk_quiet} ${rk_define}
              ${rk_deprecated_includes} "${rk_deprecated_src}/deprecated_use.cpp")
    set_tests_properties(${name} PROPERTIES LABELS unit)
    if(kind STREQUAL "unguarded")
      # Exactly one error, at the user's own line.
      set_tests_properties(${name} PROPERTIES
        PASS_REGULAR_EXPRESSION "deprecated_use\\.cpp:[0-9]+:[0-9]+: error: [^ ]*OldPing[^ ]* is deprecated: use PingV2"
        FAIL_REGULAR_EXPRESSION "error:.*error:")
    endif()
  endforeach()
endforeach()

if(RINGKERNEL_HAS_CUDA)
  add_test(NAME generator_deprecated_messages_nvcc
    COMMAND "${CMAKE_CUDA_COMPILER}" -std=c++20 -x cu -arch=sm_90 -c -o /dev/null -Werror all-warnings
            -diag-suppress=2803 ${rk_deprecated_includes}
            "-Xcompiler=-Wall,-Wextra,-Werror,-Wno-attributes=ringkernel::" "${rk_deprecated_src}/deprecated_use.cpp")
  set_tests_properties(generator_deprecated_messages_nvcc PROPERTIES LABELS unit TIMEOUT 300)
endif()
