# The names ringkernel_generate_messages() generates for a target (docs/cmake.md, "Names of generated
# headers"). Generated headers are included by bare name (`#include "<stem>.rk.h"`, also by the
# registry) and every call puts its output directory on the target's include path: a stem or a
# registry name that the target already generates would shadow one of the two files, whatever the
# OUTPUT_DIRs. Also where the call is that generated a name, for the errors of a later call that
# generates it again. Included by RingKernelGenerate.cmake.
include_guard(GLOBAL)

# Fails the call at configure time for a header (ARGN: the HEADERS as given) that is missing, listed
# twice, already generated for `target` by an earlier call, or that has the stem of another header
# of the target; and for a `registry` name (empty: none) when an earlier call made one (a target has
# one registry, RingKernelGenerateRegistry.cmake). An error about
# an earlier call says which call it is (_ringkernel_describe_site); `site` is this call's,
# recorded for the next ones. Sets `out_var` to the headers as absolute, normalised paths. (Lists, not variables
# named after stems: a function sees its caller's variables, so a `stem_<name>` of the caller's
# would have read as a collision.)
function(_ringkernel_check_headers where target registry site out_var)
  get_property(earlier_headers TARGET ${target} PROPERTY RINGKERNEL_MESSAGE_HEADERS)
  if(NOT registry STREQUAL "")
    # One registry per target: it covers every message of the target (the headers of all its calls),
    # so a second one would either repeat it or leave messages of the target unchecked against each
    # other (a type-id collision between them would build).
    get_property(earlier TARGET ${target} PROPERTY RINGKERNEL_REGISTRY_NAMES)
    if(NOT "${earlier}" STREQUAL "")
      _ringkernel_earlier_site(${target} "${earlier}.registry.rk.h" earlier_at)
      _ringkernel_registry_namespace("${earlier}" namespace)
      message(FATAL_ERROR "${where}: REGISTRY '${registry}': this target already has a registry, "
        "REGISTRY '${earlier}' (namespace ringkernel::registry::${namespace}) of an earlier call "
        "(${earlier_at}). A registry covers all of a target's messages, the headers of every call "
        "for it, so a target has one: leave REGISTRY out of this call (its headers go into "
        "'${earlier}.registry.rk.h'), or generate these headers for another target (an OBJECT or "
        "STATIC library, say) with a registry of its own")
    endif()
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
      _ringkernel_earlier_site(${target} "${header}" earlier_at)
      message(FATAL_ERROR "${where}: header '${header}' is already generated for this target by an "
        "earlier call (${earlier_at}); list it in one call only")
    endif()
    cmake_path(GET header STEM LAST_ONLY stem)
    list(FIND known_stems "${stem}" at)
    if(at GREATER -1)
      list(GET known_headers ${at} other)
      set(call "this call")
      if(other IN_LIST earlier_headers)
        _ringkernel_earlier_site(${target} "${other}" earlier_at)
        set(call "an earlier call for this target (${earlier_at})")
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
  foreach(key IN LISTS headers)
    set_property(GLOBAL PROPERTY "RINGKERNEL_GEN_SITE ${target}|${key}" "${site}")
  endforeach()
  if(NOT registry STREQUAL "")
    set_property(GLOBAL PROPERTY "RINGKERNEL_GEN_SITE ${target}|${registry}.registry.rk.h" "${site}")
    set_property(TARGET ${target} APPEND PROPERTY RINGKERNEL_REGISTRY_NAMES "${registry}")
  endif()
  set(${out_var} "${headers}" PARENT_SCOPE)
endfunction()

# Sets `out_var` to the C++ namespace ringkernel-gen puts REGISTRY `name` in (a C identifier, checked
# before; the second-registry error names it, for the user to find the registry's code): cppIdentifier() of generator/src/cpp_spelling.cpp, for the names CMake lets through. A run
# of '_' becomes one, a name '_' followed by an upper-case letter gets an 'r' in front (reserved),
# and a keyword gets a '_' appended.
function(_ringkernel_registry_namespace name out_var)
  string(REGEX REPLACE "__+" "_" id "${name}")
  if(id MATCHES "^_[A-Z]")
    string(PREPEND id "r")
  endif()
  set(keywords alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue
    co_await co_return co_yield decltype default delete do double dynamic_cast else enum explicit
    export extern false float for friend goto if inline int long mutable namespace new noexcept not
    not_eq nullptr operator or or_eq private protected public register reinterpret_cast requires
    return short signed sizeof static static_assert static_cast struct switch template this
    thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
    wchar_t while xor xor_eq)
  if(id IN_LIST keywords)
    string(APPEND id "_")
  endif()
  set(${out_var} "${id}" PARENT_SCOPE)
endfunction()

# Sets `out_var` to where the call is that generated `key` (a header, or a registry's file name) for
# `target`.
function(_ringkernel_earlier_site target key out_var)
  get_property(site GLOBAL PROPERTY "RINGKERNEL_GEN_SITE ${target}|${key}")
  _ringkernel_describe_site("${site}" site)
  set(${out_var} "${site}" PARENT_SCOPE)
endfunction()

# Sets `out_var` to this call of the function for `name` (the target as the call wrote it), to be
# described by _ringkernel_describe_site: "<n>|<name>|<file>", the n-th call for `name` from the
# list file CMake is reading (inside a function CMAKE_CURRENT_LIST_FILE is the calling list file).
function(_ringkernel_call_site name out_var)
  set(file "${CMAKE_CURRENT_LIST_FILE}")
  get_property(calls GLOBAL PROPERTY "RINGKERNEL_GEN_CALLS ${name}|${file}")
  if("${calls}" STREQUAL "")
    set(calls 0)
  endif()
  math(EXPR calls "${calls} + 1")
  set_property(GLOBAL PROPERTY "RINGKERNEL_GEN_CALLS ${name}|${file}" ${calls})
  set(${out_var} "${calls}|${name}|${file}" PARENT_SCOPE)
endfunction()

# Sets `out_var` to a call recorded by _ringkernel_call_site, described: "the 2nd call for 'app' in
# <file>", counting the calls for that name that ran from that file. Not its line: CMake gives a
# function no way to read its call's line (CMAKE_CURRENT_LIST_LINE is one of the function's own
# file), and the file's text cannot tell which calls ran (if() branches, loops, wrappers, a name in
# a variable).
function(_ringkernel_describe_site site out_var)
  if(NOT site MATCHES "^([0-9]+)\\|([^|]*)\\|(.*)$")
    set(${out_var} "${site}" PARENT_SCOPE)
    return()
  endif()
  set(ordinal "${CMAKE_MATCH_1}")
  set(described "call for '${CMAKE_MATCH_2}' in ${CMAKE_MATCH_3}")
  set(suffix "th")  # also 11th, 12th, 13th, 111th
  if(ordinal MATCHES "(^|[02-9])1$")
    set(suffix "st")
  elseif(ordinal MATCHES "(^|[02-9])2$")
    set(suffix "nd")
  elseif(ordinal MATCHES "(^|[02-9])3$")
    set(suffix "rd")
  endif()
  set(${out_var} "the ${ordinal}${suffix} ${described}" PARENT_SCOPE)
endfunction()
