# Registry checks (included from CMakeLists.txt; sources in registry/), label unit:
# - generator_registry_name_<name>[_nvcc]: a registry of registry/pinned.h named `ringkernel`, `std`
#   or `detail` compiles (it spells ::ringkernel:: and ::std::, which the registry's own namespace
#   would otherwise capture), and the type ids of a message in a namespace, in an inline namespace and
#   nested in a message equal the literal vectors docs/generator.md gives.
#   The same source checks kernel_message_slot (size and alignment the largest over the registry's
#   KernelMessage<T>, make_kernel_message_slot and dispatch_kernel_message(slot, visitor), also in a
#   kernel); message_table() / kernel_table() are the host arrays on the host (static_asserts) and
#   under nvcc a kernel iterates both and follows receives and sends (the device copies); a
#   __host__ __device__ router uses on_device in the device pass only (docs/generator.md);
#   generator_registry_slot_foreign_message: make_kernel_message_slot of a message the
#   registry lacks (stale::Ping) stops with its own static_assert, alone.
# - generator_registry_stale_*: a registry made from registry/stale.h compiles with that header's
#   .rk.h, and stops with its "is stale" static_assert with a .rk.h generated after the message's type
#   id (or kernel) changed.
# - generator_registry_odr: two libraries with one REGISTRY name in one program, at -O0, each find
#   and dispatch their own messages (the registries' inline namespaces are keyed on their contents).
set(rk_registry_src "${CMAKE_CURRENT_SOURCE_DIR}/registry")
set(rk_registry_out "${CMAKE_CURRENT_BINARY_DIR}/registry_gen")
set(rk_registry_outputs)

# rk_registry_generate(<dir> <header> [<compiler argument>...]): ringkernel-gen on <header> into <dir>
# (stamp and depfile, as for the layout corpus).
function(rk_registry_generate dir header)
  get_filename_component(stem "${header}" NAME_WE)
  set(base "${dir}/${stem}")
  add_custom_command(
    OUTPUT "${base}.rk.stamp"
    BYPRODUCTS "${base}.rk.h" "${base}.rk.cuh" "${base}.rk.json"
    COMMAND RingKernel::gen --output-dir "${dir}" --template-dir "${PROJECT_SOURCE_DIR}/templates"
            --depfile "${base}.rk.d" --stamp "${base}.rk.stamp" "${header}" -- -std=c++20 "-I${rk_registry_src}" ${ARGN}
    DEPENDS "${header}" RingKernel::gen ${rk_templates}
    DEPFILE "${base}.rk.d"
    COMMENT "ringkernel-gen ${header} into ${dir} (registry checks)"
    VERBATIM)
  set(rk_registry_outputs ${rk_registry_outputs} "${base}.rk.stamp" PARENT_SCOPE)
endfunction()

# rk_registry_make(<name> <dir> <generated dir> <stem>): ringkernel-gen registry --name <name> into
# <dir> over <generated dir>/<stem>.rk.json.
function(rk_registry_make name dir generated stem)
  add_custom_command(
    OUTPUT "${dir}/${name}.registry.rk.h"
    COMMAND RingKernel::gen registry --name ${name} --output-dir "${dir}"
            --template-dir "${PROJECT_SOURCE_DIR}/templates" "${generated}/${stem}.rk.json"
    DEPENDS "${generated}/${stem}.rk.stamp" RingKernel::gen ${rk_templates}
    COMMENT "ringkernel-gen registry ${name} (registry checks)"
    VERBATIM)
  set(rk_registry_outputs ${rk_registry_outputs} "${dir}/${name}.registry.rk.h" PARENT_SCOPE)
endfunction()

set(rk_registry_includes "-I${rk_registry_src}" "-I${rk_runtime_include}")

# Registry names that would capture ringkernel:: or std::, and the pinned type ids.
rk_registry_generate("${rk_registry_out}/pinned" "${rk_registry_src}/pinned.h")
foreach(name IN ITEMS ringkernel std detail)
  rk_registry_make(${name} "${rk_registry_out}/pinned" "${rk_registry_out}/pinned" pinned)
  set(rk_defines "-DRK_REGISTRY=${name}" "-DRK_REGISTRY_HEADER=\"${name}.registry.rk.h\"")
  add_test(NAME generator_registry_name_${name}
    COMMAND "${CMAKE_CXX_COMPILER}" -fsyntax-only -std=c++20 -Wall -Wextra -Werror ${rk_quiet_attributes}
            ${rk_defines} "-I${rk_registry_out}/pinned" ${rk_registry_includes}
            "${rk_registry_src}/registry_names.cpp")
  set_tests_properties(generator_registry_name_${name} PROPERTIES LABELS unit)
  if(RINGKERNEL_HAS_CUDA)
    add_test(NAME generator_registry_name_${name}_nvcc
      COMMAND "${CMAKE_CUDA_COMPILER}" -std=c++20 -x cu -arch=sm_90 -c -o /dev/null -Werror all-warnings
              -diag-suppress=2803 ${rk_defines} "-I${rk_registry_out}/pinned" ${rk_registry_includes}
              "-Xcompiler=-Wall,-Wextra,-Werror,-Wno-attributes=ringkernel::" "${rk_registry_src}/registry_names.cpp")
    set_tests_properties(generator_registry_name_${name}_nvcc PROPERTIES LABELS unit)
  endif()
endforeach()

# A stale registry: made from stale.h as it is, compiled with the .rk.h of each variant.
rk_registry_generate("${rk_registry_out}/stale_fresh" "${rk_registry_src}/stale.h")
rk_registry_generate("${rk_registry_out}/stale_id" "${rk_registry_src}/stale.h" -DRK_STALE_ID)
rk_registry_generate("${rk_registry_out}/stale_kernel" "${rk_registry_src}/stale.h" -DRK_STALE_KERNEL)
rk_registry_make(stale "${rk_registry_out}/stale_registry" "${rk_registry_out}/stale_fresh" stale)
foreach(variant IN ITEMS fresh id kernel)
  add_test(NAME generator_registry_stale_${variant}
    COMMAND "${CMAKE_CXX_COMPILER}" -fsyntax-only -std=c++20 -Wall -Wextra -Werror ${rk_quiet_attributes}
            "-I${rk_registry_out}/stale_registry" "-I${rk_registry_out}/stale_${variant}" ${rk_registry_includes}
            "${rk_registry_src}/stale_registry.cpp")
  set_tests_properties(generator_registry_stale_${variant} PROPERTIES LABELS unit)
  if(NOT variant STREQUAL "fresh")
    set_tests_properties(generator_registry_stale_${variant} PROPERTIES
      PASS_REGULAR_EXPRESSION "ringkernel: registry stale is stale: the type id or kernel id of ::stale::Ping in its generated header differs from this registry's \\(0x[0-9a-f]+u, 0x[0-9a-f]+u\\); regenerate the registry"
      FAIL_REGULAR_EXPRESSION "error:.*error:")
  endif()
endforeach()

# A slot of the registry `ringkernel` (pinned.h) for a message of stale.h: make_kernel_message_slot's
# static_assert names the registry, and no second error follows.
add_test(NAME generator_registry_slot_foreign_message
  COMMAND "${CMAKE_CXX_COMPILER}" -fsyntax-only -std=c++20 -Wall -Wextra -Werror ${rk_quiet_attributes}
          -DRK_REGISTRY=ringkernel "-DRK_REGISTRY_HEADER=\"ringkernel.registry.rk.h\"" -DRK_FOREIGN_MESSAGE
          "-I${rk_registry_out}/pinned" "-I${rk_registry_out}/stale_fresh" ${rk_registry_includes}
          "${rk_registry_src}/registry_names.cpp")
set_tests_properties(generator_registry_slot_foreign_message PROPERTIES LABELS unit
  PASS_REGULAR_EXPRESSION "ringkernel: make_kernel_message_slot: T is not a message of registry ringkernel"
  FAIL_REGULAR_EXPRESSION "error:.*error:")

add_custom_target(generator_registry_checks ALL DEPENDS ${rk_registry_outputs})

# Two libraries, one REGISTRY name, other messages, -O0.
foreach(library IN ITEMS a b)
  add_library(registry_odr_${library} STATIC registry/odr_lib.cpp)
  target_compile_definitions(registry_odr_${library} PRIVATE RK_ODR_LIB=${library})
  target_compile_options(registry_odr_${library} PRIVATE -O0)
  target_link_libraries(registry_odr_${library} PRIVATE ringkernel_warnings)
  ringkernel_generate_messages(registry_odr_${library} HEADERS registry/odr_${library}.h REGISTRY app)
endforeach()
add_executable(registry_odr_test registry/odr_main.cpp)
target_link_libraries(registry_odr_test PRIVATE registry_odr_a registry_odr_b RingKernel::runtime ringkernel_warnings)
add_test(NAME generator_registry_odr COMMAND registry_odr_test)
set_tests_properties(generator_registry_odr PROPERTIES LABELS unit)
