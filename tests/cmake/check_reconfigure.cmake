# Included by check_consumer.cmake (CONFIG_CHECKS) after the consumer was built: what reconfiguring
# with a changed ringkernel_generate_messages() call does.

# reconfigure(), build() and fail() come from check_consumer.cmake.

file(READ "${src}/CMakeLists.txt" consumer_lists)
set(configs "${BUILD_TYPE}")
if(multi_config)
  list(APPEND configs "${other_config}")
endif()

# Two targets given one OUTPUT_DIR: a clear configure error naming both targets and the directory.
set(shared_dir "\${CMAKE_BINARY_DIR}/ringkernel_gen/consumer")
if(multi_config)
  string(APPEND shared_dir "/$<CONFIG>")
endif()
file(WRITE "${src}/CMakeLists.txt" "${consumer_lists}
add_library(consumer_twin STATIC src/runtime_use.cpp)
ringkernel_generate_messages(consumer_twin HEADERS include/alpha.h OUTPUT_DIR \"${shared_dir}\")
")
reconfigure(out failure)
string(REGEX REPLACE "[ \n]+" " " flat "${out}")  # CMake wraps messages at spaces
if(NOT flat MATCHES "ringkernel_generate_messages\\(consumer_twin\\): OUTPUT_DIR '[^']*/ringkernel_gen/consumer[^']*' is already the output directory of target 'consumer'")
  fail("two targets sharing an OUTPUT_DIR did not fail with a message naming both" "${out}")
endif()
if(out MATCHES "already has a custom rule")
  fail("two targets sharing an OUTPUT_DIR still reached CMake's own error" "${out}")
endif()

# A header dropped from HEADERS: its outputs go at the next configure (in every configuration's
# directory); the other outputs, and a file of the user's in the directory, stay.
file(WRITE "${gen}/notes.rk.h" "// not written by ringkernel-gen\n")
string(REPLACE "include/alpha.h include/beta.h" "include/alpha.h" dropped "${consumer_lists}")
file(WRITE "${src}/CMakeLists.txt" "${dropped}")
reconfigure(out success)
foreach(config IN LISTS configs)
  set(dir "${gen_root}")
  if(multi_config)
    set(dir "${gen_root}/${config}")
  endif()
  foreach(stale beta.rk.h beta.rk.cuh beta.rk.json beta.rk.stamp)
    if(EXISTS "${dir}/${stale}")
      fail("${dir}/${stale} survived removing beta.h from HEADERS" "${out}")
    endif()
  endforeach()
  if(NOT EXISTS "${dir}/alpha.rk.h" OR NOT EXISTS "${dir}/consumer.registry.rk.h")
    fail("removing beta.h from HEADERS deleted the outputs of alpha.h or the registry in ${dir}" "${out}")
  endif()
endforeach()
if(NOT EXISTS "${gen}/notes.rk.h")
  fail("the reconfigure deleted a file that ringkernel-gen did not write" "${out}")
endif()
file(WRITE "${src}/CMakeLists.txt" "${consumer_lists}")
