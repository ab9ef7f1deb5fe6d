# cmake --install: ringkernel-gen, the runtime library and its public headers, the templates, a
# relocatable package (RingKernelConfig.cmake + version + exported RingKernel::runtime/RingKernel::gen
# + ringkernel_generate_messages()) and a pkg-config file (RingKernelPkgConfig.cmake). With
# RINGKERNEL_INSTALL off (the default under add_subdirectory or FetchContent) only the build tree's own
# config is written and nothing is installed.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RINGKERNEL_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/RingKernel")
set(RINGKERNEL_INSTALL_TEMPLATEDIR "${CMAKE_INSTALL_DATADIR}/ringkernel/templates")

# The installed config is staged in package/; the build tree's own top level gets a config that
# says it is no package (find_package with RingKernel_DIR set to the build folder lands there).
set(_ringkernel_package_stage "${PROJECT_BINARY_DIR}/package")
# The static runtime links its consumers with CUDA::cudart_static, so its package needs the toolkit;
# a shared one holds the CUDA runtime and exports no CUDA target.
get_target_property(_ringkernel_runtime_type ringkernel_runtime TYPE)
if(_ringkernel_runtime_type STREQUAL "SHARED_LIBRARY")
  set(RINGKERNEL_SHARED_RUNTIME ON)
else()
  set(RINGKERNEL_SHARED_RUNTIME OFF)
endif()
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/RingKernelConfig.cmake.in"
  "${_ringkernel_package_stage}/RingKernelConfig.cmake"
  INSTALL_DESTINATION ${RINGKERNEL_INSTALL_CMAKEDIR}
  PATH_VARS RINGKERNEL_INSTALL_TEMPLATEDIR)
foreach(_ringkernel_dir IN ITEMS "${_ringkernel_package_stage}" "${PROJECT_BINARY_DIR}")
  write_basic_package_version_file(
    "${_ringkernel_dir}/RingKernelConfigVersion.cmake"
    COMPATIBILITY SameMinorVersion)
endforeach()
configure_file("${PROJECT_SOURCE_DIR}/cmake/RingKernelBuildTreeConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/RingKernelConfig.cmake" @ONLY)
if(NOT RINGKERNEL_INSTALL)
  return()
endif()

set(_ringkernel_install_targets ringkernel_runtime ringkernel-info)
# An installed ringkernel-info finds a shared runtime next to it, wherever the prefix moves.
if(RINGKERNEL_SHARED_RUNTIME AND NOT APPLE)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
    set(_ringkernel_rpath "${CMAKE_INSTALL_FULL_LIBDIR}")
  else()
    file(RELATIVE_PATH _ringkernel_rpath "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_LIBDIR}")
    set(_ringkernel_rpath "$ORIGIN/${_ringkernel_rpath}")
  endif()
  set_target_properties(ringkernel-info PROPERTIES INSTALL_RPATH "${_ringkernel_rpath}")
  unset(_ringkernel_rpath)
endif()
if(TARGET ringkernel-gen)
  get_target_property(_ringkernel_gen_imported ringkernel-gen IMPORTED)
  if(NOT _ringkernel_gen_imported)
    list(APPEND _ringkernel_install_targets ringkernel-gen)
  endif()
endif()

# `cmake --install` copies what the build made; it builds nothing. A build of some targets only (the
# README's main job builds the adder example) lacks ringkernel-info: say what to build instead of
# install(TARGETS)'s "file INSTALL cannot find ...".
set(_ringkernel_install_files "")
foreach(_ringkernel_target IN LISTS _ringkernel_install_targets)
  string(APPEND _ringkernel_install_files " \"$<TARGET_FILE:${_ringkernel_target}>\"")
endforeach()
string(JOIN " " _ringkernel_install_target_names ${_ringkernel_install_targets})
get_property(_ringkernel_multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
if(_ringkernel_multi_config)
  string(APPEND _ringkernel_install_target_names " --config \${CMAKE_INSTALL_CONFIG_NAME}")
endif()
install(CODE "
  set(_ringkernel_missing \"\")
  foreach(_ringkernel_file IN ITEMS ${_ringkernel_install_files})
    if(NOT EXISTS \"\${_ringkernel_file}\")
      string(APPEND _ringkernel_missing \"\n  \${_ringkernel_file}\")
    endif()
  endforeach()
  if(_ringkernel_missing)
    message(FATAL_ERROR \"RingKernel: not built yet, nothing installed; missing:\${_ringkernel_missing}\\n\"
      \"Build first: cmake --build \\\"${CMAKE_BINARY_DIR}\\\" (everything) or \"
      \"cmake --build \\\"${CMAKE_BINARY_DIR}\\\" --target ${_ringkernel_install_target_names} \"
      \"(what the package contains), then run cmake --install again.\")
  endif()")
unset(_ringkernel_install_files)
unset(_ringkernel_install_target_names)
unset(_ringkernel_multi_config)
install(TARGETS ${_ringkernel_install_targets}
  EXPORT RingKernelTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/ringkernel"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/templates/"
  DESTINATION ${RINGKERNEL_INSTALL_TEMPLATEDIR}
  FILES_MATCHING PATTERN "*.mustache")
install(EXPORT RingKernelTargets
  NAMESPACE RingKernel::
  DESTINATION ${RINGKERNEL_INSTALL_CMAKEDIR})

install(FILES
  "${_ringkernel_package_stage}/RingKernelConfig.cmake"
  "${_ringkernel_package_stage}/RingKernelConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RingKernelGenerate.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RingKernelGenerateArgs.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RingKernelGenerateChecks.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RingKernelGenerateDepfile.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RingKernelGenerateFinalize.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RingKernelGenerateLink.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RingKernelGenerateNames.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RingKernelGenerateRegistry.cmake"
  DESTINATION ${RINGKERNEL_INSTALL_CMAKEDIR})
include(RingKernelPkgConfig)  # <libdir>/pkgconfig/ringkernel.pc
