# Installs a library's generated headers and builds a second project against them (test
# cmake.install_generated): install_generated/producer is copied to WORK, built with GENERATOR
# (a multi-config one installs the Release configuration) and installed into WORK/inst; its source
# and build trees are then deleted, so install_generated/user builds from the installed files alone.
# With -DPLAIN_LINK=ON (test cmake.install_generated.plain_link) the producer links its library with
# the plain signature of target_link_libraries, before and after the calls, and the installed export
# must carry RingKernel::runtime between those libraries.
# Run as: cmake -DGENERATOR=... -DCXX=... -DWORK=... -DPREFIX=<installed RingKernel> [-DPLAIN_LINK=ON]
#   -P check_install_generated.cmake
cmake_minimum_required(VERSION 3.25)

foreach(var GENERATOR CXX WORK PREFIX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_install_generated: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(COPY "${CMAKE_CURRENT_LIST_DIR}/install_generated/producer" DESTINATION "${WORK}")

# Runs a command; fails with its output unless it succeeds.
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_install_generated: ${what} failed (exit ${rc})\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# Lists do not survive step()'s arguments: give them through an initial cache.
file(WRITE "${WORK}/lists.cmake"
  "set(CMAKE_CONFIGURATION_TYPES \"Debug;Release\" CACHE STRING \"\")\n"
  "set(CMAKE_PREFIX_PATH \"${WORK}/inst;${PREFIX}\" CACHE PATH \"\")\n")
step("producer configure" "${CMAKE_COMMAND}" -S "${WORK}/producer" -B "${WORK}/producer-build"
  -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release -C "${WORK}/lists.cmake"
  "-DPLAIN_LINK=${PLAIN_LINK}")
step("producer build" "${CMAKE_COMMAND}" --build "${WORK}/producer-build" --config Release)
step("producer install" "${CMAKE_COMMAND}" --install "${WORK}/producer-build" --config Release
  --prefix "${WORK}/inst")
foreach(file messages.h types.h more.h messages.rk.h messages.rk.cuh mylib.registry.rk.h more.rk.h more.rk.cuh)
  if(NOT EXISTS "${WORK}/inst/include/mylib/${file}")
    message(FATAL_ERROR "check_install_generated: include/mylib/${file} was not installed\n${out}")
  endif()
endforeach()
if(PLAIN_LINK)
  # Where the producer installed its export: its CMAKE_INSTALL_LIBDIR (lib, lib64 or lib/<multiarch>),
  # read from its cache rather than globbed (lib* would match lib and lib64 both).
  file(STRINGS "${WORK}/producer-build/CMakeCache.txt" libdir REGEX "^CMAKE_INSTALL_LIBDIR:[A-Z]+=")
  string(REGEX REPLACE "^[^=]*=" "" libdir "${libdir}")
  cmake_path(ABSOLUTE_PATH libdir BASE_DIRECTORY "${WORK}/inst")  # an absolute one stays
  set(targets_file "${libdir}/cmake/mylib/mylibTargets.cmake")
  if(NOT EXISTS "${targets_file}")
    message(FATAL_ERROR "check_install_generated: no mylibTargets.cmake at '${targets_file}'")
  endif()
  file(READ "${targets_file}" exported)
  if(NOT exported MATCHES "INTERFACE_LINK_LIBRARIES \"m;RingKernel::runtime;dl\"")
    message(FATAL_ERROR "check_install_generated: the export does not link m, RingKernel::runtime (once for both "
      "calls) and dl in that order:\n${exported}")
  endif()
endif()
file(REMOVE_RECURSE "${WORK}/producer" "${WORK}/producer-build")

step("user configure" "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/install_generated/user"
  -B "${WORK}/user-build" -G Ninja "-DCMAKE_CXX_COMPILER=${CXX}" -C "${WORK}/lists.cmake")
step("user build" "${CMAKE_COMMAND}" --build "${WORK}/user-build")
step("user run" "${WORK}/user-build/user")
if(NOT out MATCHES "user ok")
  message(FATAL_ERROR "check_install_generated: the user program printed\n${out}")
endif()
message(STATUS "installed generated headers: user ok")
