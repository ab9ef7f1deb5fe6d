# Configure-time checks of ringkernel_generate_messages() for mistakes that would otherwise show up
# only at build time, far from the call, or crash CMake (docs/cmake.md): a misspelled keyword taken
# as a HEADERS or DEPENDS value, DEPENDS naming the target itself, and the build-tool combinations
# whose CMake defects the generation steps would hit. Also the extra steps that make Unix Makefiles
# regenerate a deleted output. Included by RingKernelGenerate.cmake.
include_guard(GLOBAL)

set_property(GLOBAL PROPERTY RINGKERNEL_DEPFILE_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/RingKernelGenerateDepfile.cmake")

# Fails the call for an item of HEADERS or DEPENDS (`keyword`, ARGN its values) that is a keyword
# misspelled (all capitals, at most two edits from one: REGISTERY, OUPUT_DIR) or written in another
# case (Registry): cmake_parse_arguments takes it, and what follows it, as values of the keyword
# before it. A target or an existing file of that name is taken as given. DEPENDS naming the target
# itself (or an ALIAS of it) fails too: its steps run before the target is built.
function(_ringkernel_check_values where target keyword)
  set(keywords HEADERS REGISTRY OUTPUT_DIR DEPENDS)
  foreach(item IN LISTS ARGN)
    if(keyword STREQUAL "DEPENDS" AND TARGET "${item}")
      get_target_property(aliased "${item}" ALIASED_TARGET)
      if(item STREQUAL target OR aliased STREQUAL target)
        message(FATAL_ERROR "${where}: DEPENDS names the target '${item}' itself: its generation "
          "steps run before it is built, so it cannot wait for itself (CMake would report a "
          "dependency cycle). Name the files (or other targets) the headers need; a misplaced "
          "keyword before it (REGISTRY ${item}?) is taken as a DEPENDS value too")
      endif()
      continue()
    endif()
    if(TARGET "${item}" OR NOT item MATCHES "^[A-Za-z_]+$")
      continue()
    endif()
    cmake_path(ABSOLUTE_PATH item BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" OUTPUT_VARIABLE file)
    if(EXISTS "${file}")
      continue()
    endif()
    string(TOUPPER "${item}" upper)
    set(meant "")
    if(upper IN_LIST keywords)
      set(meant "${upper}")
    elseif(item STREQUAL upper)
      foreach(candidate IN LISTS keywords)
        _ringkernel_edit_distance("${item}" "${candidate}" distance)
        if(distance LESS_EQUAL 2)
          set(meant "${candidate}")
          break()
        endif()
      endforeach()
    endif()
    if(NOT meant STREQUAL "")
      message(FATAL_ERROR "${where}: '${item}' in ${keyword} looks like the keyword ${meant} "
        "misspelled: it is taken as a ${keyword} value, and so is what follows it. Write ${meant} "
        "(keywords are upper case)")
    endif()
  endforeach()
endfunction()

# Sets `out_var` to the Levenshtein distance between `a` and `b` (short words).
function(_ringkernel_edit_distance a b out_var)
  string(LENGTH "${a}" la)
  string(LENGTH "${b}" lb)
  set(row)
  foreach(j RANGE 0 ${lb})
    list(APPEND row ${j})
  endforeach()
  if(la EQUAL 0)
    set(${out_var} ${lb} PARENT_SCOPE)
    return()
  endif()
  foreach(i RANGE 1 ${la})
    math(EXPR ai "${i} - 1")
    string(SUBSTRING "${a}" ${ai} 1 ca)
    set(next ${i})
    foreach(j RANGE 1 ${lb})
      math(EXPR bj "${j} - 1")
      string(SUBSTRING "${b}" ${bj} 1 cb)
      list(GET row ${bj} diagonal)
      list(GET row ${j} up)
      list(GET next ${bj} left)
      set(cost 1)
      if(ca STREQUAL cb)
        set(cost 0)
      endif()
      math(EXPR best "${diagonal} + ${cost}")
      math(EXPR via_up "${up} + 1")
      math(EXPR via_left "${left} + 1")
      foreach(value IN ITEMS ${via_up} ${via_left})
        if(value LESS best)
          set(best ${value})
        endif()
      endforeach()
      list(APPEND next ${best})
    endforeach()
    set(row ${next})
  endforeach()
  list(GET row ${lb} distance)
  set(${out_var} ${distance} PARENT_SCOPE)
endfunction()

# Fails the call where a CMake defect would break its build: Unix Makefiles (every CMake so far
# checked, 3.25) cannot build a custom command with a DEPFILE in a directory whose path below the
# build tree has a space ("No rule to make target 'sub\ a/CMakeFiles/<target>.dir/compiler_depend.ts'"
# on every build); Ninja Multi-Config with CMAKE_CROSS_CONFIGS (cross-config mode) crashes at the
# generate step for such a command whose outputs contain $<CONFIG> (`out`, the output directory).
function(_ringkernel_check_build_tool where out)
  if(CMAKE_GENERATOR MATCHES "Makefiles")
    file(RELATIVE_PATH below "${CMAKE_BINARY_DIR}" "${CMAKE_CURRENT_BINARY_DIR}")
    if(below MATCHES " ")
      message(FATAL_ERROR "${where}: this call is in '${CMAKE_CURRENT_SOURCE_DIR}', whose build "
        "directory '${below}' (below the build tree) has a space in its path; with the "
        "${CMAKE_GENERATOR} generator CMake (${CMAKE_VERSION}) writes a rule its make cannot use for "
        "the generation steps there (a custom command with a DEPFILE), and every build would fail "
        "with \"No rule to make target '...compiler_depend.ts'\". Make the call from a directory "
        "without a space (the target may be elsewhere: e.g. the parent, naming the headers by their "
        "path), rename the directory, or use the Ninja generator")
    endif()
  endif()
  _ringkernel_check_cross_configs("${where}" "${out}")
endfunction()

# The cross-config part of _ringkernel_check_build_tool, also run at the end of the configure for
# every output directory (CMAKE_CROSS_CONFIGS may be set after the call; CMake reads it then).
function(_ringkernel_check_cross_configs where out)
  if(CMAKE_GENERATOR STREQUAL "Ninja Multi-Config" AND NOT "${CMAKE_CROSS_CONFIGS}" STREQUAL ""
     AND out MATCHES [[\$<CONFIG>]])
    message(FATAL_ERROR "${where}: the output directory '${out}' has one directory per "
      "configuration ($<CONFIG>), and CMAKE_CROSS_CONFIGS is set ('${CMAKE_CROSS_CONFIGS}'): "
      "Ninja Multi-Config in cross-config mode makes CMake (${CMAKE_VERSION}) crash at the "
      "generate step for a custom command with a DEPFILE whose outputs contain $<CONFIG>, as the "
      "generation steps are. Give OUTPUT_DIR a directory without $<CONFIG> (all configurations "
      "then share one, and a build of another configuration regenerates), or leave "
      "CMAKE_CROSS_CONFIGS unset")
  endif()
endfunction()

# Sets `out_var` to the COMMAND arguments that, after a step that writes `outputs` and touches
# `stamp`, add the outputs to the step's `depfile` as prerequisites of the stamp, with GNU make
# generators only (empty otherwise). There a generated file deleted by hand (a BYPRODUCT, which
# make knows no rule for) makes make rerun the step: CMake gives each file a depfile names an empty
# rule, and make takes a missing file with an empty rule as changed. An output that exists and that
# the step did not rewrite (unchanged) is older than the stamp, so nothing reruns. Ninja restores
# a missing byproduct by itself.
function(_ringkernel_output_tracking depfile stamp out_var)
  set(${out_var} "" PARENT_SCOPE)
  if(CMAKE_GENERATOR MATCHES "^(Unix|MinGW|MSYS) Makefiles$")
    get_property(script GLOBAL PROPERTY RINGKERNEL_DEPFILE_SCRIPT)
    set(${out_var} COMMAND "${CMAKE_COMMAND}" "-DDEPFILE=${depfile}" "-DSTAMP=${stamp}" -P "${script}"
        ${ARGN} PARENT_SCOPE)
  endif()
endfunction()
