# How ringkernel_generate_messages() links RingKernel::runtime to its target (docs/cmake.md, "What the
# function does"); included by RingKernelGenerate.cmake.
include_guard(GLOBAL)

# Links RingKernel::runtime to `target` as target_link_libraries(PUBLIC) does, but with either
# signature of target_link_libraries in use for the target (before or after the call): PUBLIC
# appends the name to LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES (for executables and every kind of
# library alike; $<LINK_ONLY:> marks only PRIVATE ones of static libraries), which install(EXPORT)
# and export() translate to the exported name. Skipped when the name is already there (a second call
# for the target).
#
# A name in the properties is looked up, when CMake generates, in the target's directory, while
# target_link_libraries from another directory has it looked up in the caller's (between ::@
# markers). Appending directly is right only where the target's directory certainly sees
# RingKernel::runtime; else this keeps target_link_libraries(PUBLIC), which fails for a target that
# uses the plain signature. A name that is not IMPORTED (an ALIAS of a target of the build, as with
# add_subdirectory/FetchContent of RingKernel) or IMPORTED GLOBAL is seen everywhere. Other IMPORTED
# targets are scoped: a directory sees those created in it and those its parent saw when the
# directory was added (add_subdirectory copies them then; one imported in the parent later is not
# seen). So, given that the calling directory sees it, the target's directory does when it is the
# calling directory or one of its parents and no directory from the calling one up to (not
# including) the target's created it (IMPORTED_TARGETS lists the ones a directory created): the
# name reached the calling directory through the target's. When the target's directory is below the
# calling one or beside it, when it was created is unknown here (find_package after the
# add_subdirectory of the target's directory: not seen), so those fall back too.
function(_ringkernel_link_runtime target target_dir)
  get_property(links TARGET ${target} PROPERTY LINK_LIBRARIES)
  get_property(interface TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES)
  if("RingKernel::runtime" IN_LIST links AND "RingKernel::runtime" IN_LIST interface)
    return()
  endif()
  set(visible FALSE)
  if(TARGET RingKernel::runtime)
    get_target_property(imported RingKernel::runtime IMPORTED)
    get_target_property(global RingKernel::runtime IMPORTED_GLOBAL)
    if(NOT imported OR global)
      set(visible TRUE)
    else()
      set(dir "${CMAKE_CURRENT_SOURCE_DIR}")
      while(dir)
        if(dir STREQUAL target_dir)
          set(visible TRUE)
          break()
        endif()
        get_directory_property(imports DIRECTORY "${dir}" IMPORTED_TARGETS)
        if("RingKernel::runtime" IN_LIST imports)
          break()  # created below the target's directory, or the target's is not a parent
        endif()
        get_directory_property(dir DIRECTORY "${dir}" PARENT_DIRECTORY)
      endwhile()
    endif()
  endif()
  if(visible)
    if(NOT "RingKernel::runtime" IN_LIST links)
      set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES RingKernel::runtime)
    endif()
    if(NOT "RingKernel::runtime" IN_LIST interface)
      set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES RingKernel::runtime)
    endif()
  else()
    target_link_libraries(${target} PUBLIC RingKernel::runtime)
  endif()
endfunction()
