# The names ringkernel_generate_messages() generates for a target (docs/cmake.md, "Names of generated
# headers"). Generated headers are included by bare name (`#include "<stem>.rk.h"`, also by the
# registry) and every call puts its output directory on the target's include path: a stem or a
# registry name that the target already generates would shadow one of the two files, whatever the
# OUTPUT_DIRs. Included by RingKernelGenerate.cmake.
include_guard(GLOBAL)

# Fails the call at configure time for a header (ARGN: the HEADERS as given) that is missing, listed
# twice, already generated for `target` by an earlier call, or that has the stem of another header
# of the target; and for a `registry` name (empty: none) an earlier call generated. Sets `out_var`
# to the headers as absolute, normalised paths. (Lists, not variables named after stems: a function
# sees its caller's variables, so a `stem_<name>` of the caller's would have read as a collision.)
function(_ringkernel_check_headers where target registry out_var)
  get_property(earlier_headers TARGET ${target} PROPERTY RINGKERNEL_MESSAGE_HEADERS)
  get_property(earlier_generated TARGET ${target} PROPERTY RINGKERNEL_GENERATED_HEADERS)
  if(NOT registry STREQUAL "")
    foreach(earlier IN LISTS earlier_generated)
      cmake_path(GET earlier FILENAME name)
      if(name STREQUAL "${registry}.registry.rk.h")
        message(FATAL_ERROR "${where}: REGISTRY '${registry}' is already generated for this target "
          "(${earlier}) by an earlier call; registries are included by bare name "
          "('${name}'), so give this one another name")
      endif()
    endforeach()
  endif()

  set(known_stems)    # the stems the target generates so far ...
  set(known_headers)  # ... and the header each comes from
  foreach(earlier IN LISTS earlier_headers)
    cmake_path(GET earlier STEM LAST_ONLY stem)
    list(APPEND known_stems "${stem}")
    list(APPEND known_headers "${earlier}")
  endforeach()
  set(headers)
  foreach(header IN LISTS ARGN)
    cmake_path(ABSOLUTE_PATH header BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    if(NOT EXISTS "${header}")
      message(FATAL_ERROR "${where}: header '${header}' does not exist")
    endif()
    if(header IN_LIST headers)
      message(FATAL_ERROR "${where}: header '${header}' is listed twice in HEADERS; list it once")
    endif()
    if(header IN_LIST earlier_headers)
      message(FATAL_ERROR "${where}: header '${header}' is already generated for this target by an "
        "earlier call; list it in one call only")
    endif()
    cmake_path(GET header STEM LAST_ONLY stem)
    list(FIND known_stems "${stem}" at)
    if(at GREATER -1)
      list(GET known_headers ${at} other)
      set(call "this call")
      if(other IN_LIST earlier_headers)
        set(call "an earlier call for this target")
      endif()
      message(FATAL_ERROR "${where}: header '${header}' has the stem '${stem}' of '${other}', "
        "which ${call} generates too; generated headers are included by bare name ('${stem}.rk.h'), "
        "so stems must be unique among the generated headers a target sees (another OUTPUT_DIR does "
        "not help): rename one of the headers")
    endif()
    list(APPEND known_stems "${stem}")
    list(APPEND known_headers "${header}")
    list(APPEND headers "${header}")
  endforeach()
  set(${out_var} "${headers}" PARENT_SCOPE)
endfunction()
