# The end of ringkernel_generate_messages()'s configure step (docs/cmake.md, "Build behaviour"), run
# once every call and link is known: it orders the utility targets that the calls hang their steps
# on, and keeps the records of the output directories (which files the
# generator writes where, for which build tree), from which it deletes the outputs no call claims any
# more. Also the check that two build trees do not share an output directory, which reads those
# records. Included by RingKernelGenerate.cmake.
include_guard(GLOBAL)

# Schedules _ringkernel_finalize for the end of the top-level directory, once: when this file is
# included (so that a configure in which no call is left still cleans up after the calls of the
# previous one) and by every call (a call made after it ran, from a call deferred to the end of the
# top-level directory, schedules it again). Global properties start empty in every configure.
function(_ringkernel_schedule_finalize)
  get_property(role GLOBAL PROPERTY CMAKE_ROLE)
  get_property(scheduled GLOBAL PROPERTY RINGKERNEL_GEN_FINALIZE_SCHEDULED)
  if(role STREQUAL "PROJECT" AND NOT scheduled)
    set_property(GLOBAL PROPERTY RINGKERNEL_GEN_FINALIZE_SCHEDULED TRUE)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _ringkernel_finalize)
  endif()
endfunction()

# At the end of the configure step (deferred to the end of the top-level directory, so it runs
# after every call, and not at all when the configure stops at a fatal error):
#  - adds the check step of each target with several generated headers and no registry
#    (_ringkernel_add_id_checks);
#  - orders the utility targets of the calls (_ringkernel_order_utilities);
#  - in each output directory, deletes the files the previous configure recorded there that no call
#    claims any more (a header dropped from HEADERS leaves no .rk.h behind that code could still
#    include) and records the current set in ringkernel-gen.outputs, with the build tree it belongs
#    to;
#  - deletes what the record of each output directory of the previous configure that no call uses
#    any more names (a whole call, or its target, removed; a configuration dropped), the record, and
#    the directory if that leaves it empty; a directory whose record another build tree wrote last
#    is left to that tree;
#  - keeps the output directories of this configure in ringkernel-gen.dirs in the build tree.
function(_ringkernel_finalize)
  set_property(GLOBAL PROPERTY RINGKERNEL_GEN_FINALIZE_SCHEDULED FALSE)
  # CMAKE_CROSS_CONFIGS as CMake reads it, at the end of the top-level directory (before anything
  # is deleted: the error leaves the previous configure's files as they are).
  get_property(outs GLOBAL PROPERTY RINGKERNEL_GEN_DIRS)
  foreach(out IN LISTS outs)
    _ringkernel_check_cross_configs("ringkernel_generate_messages()" "${out}")
  endforeach()
  _ringkernel_add_id_checks()
  _ringkernel_order_utilities()
  # What a record may name: generator outputs and the flags files; nothing else is ever deleted.
  set(deletable [[^([^/\]+\.rk\.(h|cuh|json|stamp|d)|ringkernel-gen\.args\.[^/\]+)$]])
  set(owner "# build tree: ${CMAKE_BINARY_DIR}")
  set(current)
  if(outs)
    _ringkernel_tree_id(id)  # in the cache this configure saves, before any record names this tree
  endif()
  foreach(out IN LISTS outs)
    get_property(files GLOBAL PROPERTY "RINGKERNEL_GEN_FILES ${out}")
    _ringkernel_args_files("${out}" args_files)
    list(APPEND files ${args_files})
    list(SORT files)
    list(JOIN files "\n" record)
    set(record "${owner}\n${record}\n")
    _ringkernel_output_dirs("${out}" dirs)
    list(APPEND current ${dirs})
    foreach(dir IN LISTS dirs)
      set(previous_record)
      set(previous)
      if(EXISTS "${dir}/ringkernel-gen.outputs")
        file(READ "${dir}/ringkernel-gen.outputs" previous_record)
        file(STRINGS "${dir}/ringkernel-gen.outputs" previous)
      endif()
      foreach(file IN LISTS previous)
        if(NOT file IN_LIST files AND file MATCHES "${deletable}")
          file(REMOVE "${dir}/${file}")
        endif()
      endforeach()
      if(NOT previous_record STREQUAL record)
        file(WRITE "${dir}/ringkernel-gen.outputs" "${record}")
      endif()
    endforeach()
  endforeach()

  set(list_file "${CMAKE_BINARY_DIR}/ringkernel-gen.dirs")
  set(previous_dirs)
  if(EXISTS "${list_file}")
    file(STRINGS "${list_file}" previous_dirs)
  endif()
  # A directory still in use under another spelling (a call's OUTPUT_DIR changed from a path to a
  # symlink to it) is no directory left: compare real paths.
  set(current_real)
  foreach(dir IN LISTS current)
    _ringkernel_real_path("${dir}" real)
    list(APPEND current_real "${real}")
  endforeach()
  foreach(dir IN LISTS previous_dirs)
    if(dir IN_LIST current OR NOT IS_ABSOLUTE "${dir}" OR NOT EXISTS "${dir}/ringkernel-gen.outputs")
      continue()
    endif()
    _ringkernel_real_path("${dir}" real)
    if(real IN_LIST current_real)
      continue()
    endif()
    file(STRINGS "${dir}/ringkernel-gen.outputs" recorded LIMIT_COUNT 1)
    if(NOT recorded MATCHES "^# build tree: (.+)$")
      continue()  # a record of an older version
    endif()
    _ringkernel_is_this_tree("${CMAKE_MATCH_1}" ours)
    if(NOT ours)
      continue()  # another build tree generated into it since
    endif()
    file(STRINGS "${dir}/ringkernel-gen.outputs" recorded)
    foreach(file IN LISTS recorded)
      if(file MATCHES "${deletable}")
        file(REMOVE "${dir}/${file}")
      endif()
    endforeach()
    file(REMOVE "${dir}/ringkernel-gen.outputs")
    file(GLOB left LIST_DIRECTORIES true "${dir}/*")  # matches hidden files too
    if(NOT left AND NOT IS_SYMLINK "${dir}")
      file(REMOVE_RECURSE "${dir}")
    endif()
  endforeach()

  list(REMOVE_DUPLICATES current)
  list(SORT current)
  if(NOT previous_dirs STREQUAL current)
    list(JOIN current "\n" content)
    file(WRITE "${list_file}" "${content}\n")
  endif()
endfunction()

# Every call hangs its commands on a utility target (RINGKERNEL_GEN_UTILITIES: "<target>|<utility>"
# entries, RingKernelGenerateRegistry.cmake), which CMake orders after nothing. The target's own
# custom commands would wait for what it links and depends on, and the parse may include a header
# one of those generates (a version header, protobuf output): make the utility wait for them too.
# Done here because links may be added after the call. Except RingKernel's own runtime (built here
# by add_subdirectory or FetchContent, which every call links): it generates no header, and waiting
# for its compile would hold every generation, and so every compile of a message's user, back.
function(_ringkernel_order_utilities)
  get_property(utilities GLOBAL PROPERTY RINGKERNEL_GEN_UTILITIES)
  set_property(GLOBAL PROPERTY RINGKERNEL_GEN_UTILITIES "")
  set(runtime "")
  if(TARGET RingKernel::runtime)
    get_target_property(runtime RingKernel::runtime ALIASED_TARGET)
  endif()
  foreach(entry IN LISTS utilities)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 target)
    list(GET entry 1 utility)
    _ringkernel_build_dependencies(${target} deps)
    foreach(dep IN LISTS deps)
      if(dep STREQUAL runtime)
        continue()
      endif()
      _ringkernel_depends_on(${dep} ${target} cycle)
      if(NOT cycle)
        add_dependencies(${utility} ${dep})
      endif()
    endforeach()
  endforeach()
endfunction()

# Sets `out_var` to whether `target` is among the build dependencies of `from`, transitively: static
# libraries may link each other in a cycle, which CMake allows, but a utility of one of them ordered
# after the other would close a cycle through a utility, which CMake rejects.
function(_ringkernel_depends_on from target out_var)
  set(queue "${from}")
  set(seen)
  while(queue)
    list(POP_FRONT queue item)
    if(item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${item}")
    _ringkernel_build_dependencies(${item} deps)
    if(target IN_LIST deps)
      set(${out_var} TRUE PARENT_SCOPE)
      return()
    endif()
    list(APPEND queue ${deps})
  endwhile()
  set(${out_var} FALSE PARENT_SCOPE)
endfunction()

# Sets `out_var` to the targets of this project that `target` links (LINK_LIBRARIES) or depends on
# (add_dependencies), ALIASes resolved, through INTERFACE libraries (not built themselves, so CMake
# orders nothing after them) to what they link. A generator expression among the links, or in a
# source ($<TARGET_OBJECTS:lib>), stands for every target it names ($<BUILD_INTERFACE:lib>: lib;
# $<$<CONFIG:Debug>:dbg>: dbg in every configuration, which orders more than needed, never less).
# Left out: IMPORTED targets (nothing to wait for), the utilities of the calls (a cycle), and
# `target` itself.
function(_ringkernel_build_dependencies target out_var)
  get_property(queue TARGET ${target} PROPERTY LINK_LIBRARIES)
  get_property(manual TARGET ${target} PROPERTY MANUALLY_ADDED_DEPENDENCIES)
  get_property(sources TARGET ${target} PROPERTY SOURCES)
  list(APPEND queue ${manual})
  foreach(source IN LISTS sources)
    if(source MATCHES "\\$<")
      list(APPEND queue "${source}")
    endif()
  endforeach()
  set(seen "${target}")
  set(deps)
  while(queue)
    list(POP_FRONT queue item)
    if(item MATCHES "\\$<")  # the names in it that are targets
      string(REGEX MATCHALL "[A-Za-z0-9_.+-]+(::[A-Za-z0-9_.+-]+)*" names "${item}")
      foreach(name IN LISTS names)
        if(TARGET "${name}")
          list(APPEND queue "${name}")
        endif()
      endforeach()
      continue()
    endif()
    if(NOT TARGET "${item}")  # also ::@ markers of links made in another directory, -l flags
      continue()
    endif()
    get_target_property(aliased "${item}" ALIASED_TARGET)
    if(aliased)
      set(item "${aliased}")
    endif()
    get_target_property(imported "${item}" IMPORTED)
    if(item IN_LIST seen OR imported OR item MATCHES "^ringkernel_gen_")
      continue()
    endif()
    list(APPEND seen "${item}")
    get_target_property(type "${item}" TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      get_property(links TARGET "${item}" PROPERTY INTERFACE_LINK_LIBRARIES)
      list(APPEND queue ${links})
    else()
      list(APPEND deps "${item}")
    endif()
  endwhile()
  set(${out_var} "${deps}" PARENT_SCOPE)
endfunction()

# Fails the call when another build tree still generates into `dir` (an OUTPUT_DIR outside the build
# tree, e.g. in the source tree, shared by a Debug and a Release tree): each tree's configure
# rewrites the flags file the other's generation reads, and each build overwrites the headers the
# other compiles against, which then fail their layout asserts. The record names the tree that
# configured it last; that tree still generates there if it exists and its ringkernel-gen.dirs
# still lists the directory (a tree deleted, or that dropped the call, no longer does). Directories
# are compared with symlinks resolved (`dir` may be a link to the other tree's directory, or the
# other way round), trees by _ringkernel_is_this_tree.
function(_ringkernel_check_other_tree where dir)
  if(NOT EXISTS "${dir}/ringkernel-gen.outputs")
    return()
  endif()
  file(STRINGS "${dir}/ringkernel-gen.outputs" recorded LIMIT_COUNT 1)
  if(NOT recorded MATCHES "^# build tree: (.+)$")
    return()
  endif()
  set(other "${CMAKE_MATCH_1}")
  _ringkernel_is_this_tree("${other}" ours)
  if(ours OR NOT EXISTS "${other}/ringkernel-gen.dirs")
    return()
  endif()
  file(STRINGS "${other}/ringkernel-gen.dirs" other_dirs)
  _ringkernel_real_path("${dir}" real)
  set(shared "")
  foreach(other_dir IN LISTS other_dirs)
    _ringkernel_real_path("${other_dir}" other_real)
    if(other_real STREQUAL real)
      set(shared "${other_dir}")
      break()
    endif()
  endforeach()
  if(NOT "${shared}" STREQUAL "")
    set(spelled "")
    if(NOT shared STREQUAL dir)
      set(spelled " (as '${shared}'; both are '${real}')")
    endif()
    message(FATAL_ERROR "${where}: the output directory '${dir}' is also the output directory of the "
      "build tree '${other}'${spelled}; two build trees cannot share one (each one's configure "
      "rewrites the flags the other's generation reads, and each build overwrites the headers the "
      "other compiles against). Give OUTPUT_DIR a path inside this build tree '${CMAKE_BINARY_DIR}' (a relative path, "
      "or one under CMAKE_BINARY_DIR; or leave OUTPUT_DIR out), or delete the build tree '${other}' "
      "(or drop this call from it and reconfigure it) first")
  endif()
endfunction()

# Sets `out_var` to whether the build tree at `path` (as a record names it) is this one: the same
# directory with symlinks resolved, or else (another path that no symlink explains, such as a bind
# mount or an NFS path, which file(REAL_PATH) cannot see) a tree whose CMakeCache.txt holds this
# tree's id and in which a file this configure writes into this tree shows up. The id alone proves
# nothing: it is in the cache, so a copy of the tree whose cache was deleted (to configure it) gets
# a new one, but a copy that kept its cache has it too (CMake fails the configure of a copied cache,
# but only after running it, cleanup included), and a copy that took its original's directories
# for its own would delete them.
function(_ringkernel_is_this_tree path out_var)
  file(REAL_PATH "${path}" path_real)
  file(REAL_PATH "${CMAKE_BINARY_DIR}" this_real)
  set(${out_var} FALSE PARENT_SCOPE)
  if(path_real STREQUAL this_real)
    set(${out_var} TRUE PARENT_SCOPE)
    return()
  elseif(NOT EXISTS "${path}/CMakeCache.txt")
    return()
  endif()
  _ringkernel_tree_id(id)
  set(other_RINGKERNEL_GEN_TREE_ID "")  # not the caller's, when the other cache has none
  load_cache("${path}" READ_WITH_PREFIX other_ RINGKERNEL_GEN_TREE_ID)
  if(NOT "${other_RINGKERNEL_GEN_TREE_ID}" STREQUAL id)
    return()
  endif()
  set(probe "CMakeFiles/ringkernel-gen.probe")
  string(RANDOM LENGTH 32 token)
  file(WRITE "${CMAKE_BINARY_DIR}/${probe}" "${token}")
  set(seen "")
  if(EXISTS "${path}/${probe}")
    file(READ "${path}/${probe}" seen)
  endif()
  file(REMOVE "${CMAKE_BINARY_DIR}/${probe}")
  if(seen STREQUAL token)
    set(${out_var} TRUE PARENT_SCOPE)
  endif()
endfunction()

# Sets `out_var` to this build tree's id (a hash of its path, the time and a random string), kept in
# its cache (RINGKERNEL_GEN_TREE_ID) from the first configure that needs it.
function(_ringkernel_tree_id out_var)
  if(NOT DEFINED CACHE{RINGKERNEL_GEN_TREE_ID})
    string(TIMESTAMP now "%Y-%m-%dT%H:%M:%S.%f" UTC)
    string(RANDOM LENGTH 32 random)
    string(SHA256 id "${CMAKE_BINARY_DIR}\n${now}\n${random}")
    set(RINGKERNEL_GEN_TREE_ID "${id}" CACHE INTERNAL "ringkernel_generate_messages(): this build tree's id")
  endif()
  set(${out_var} "$CACHE{RINGKERNEL_GEN_TREE_ID}" PARENT_SCOPE)
endfunction()

# Sets `out_var` to the absolute `path` with symlinks resolved, also when it does not exist (yet):
# its deepest existing ancestor resolved (file(REAL_PATH)) and the rest appended.
function(_ringkernel_real_path path out_var)
  set(head "${path}")
  set(rest "")
  while(NOT EXISTS "${head}")
    cmake_path(GET head PARENT_PATH parent)
    cmake_path(GET head FILENAME name)
    if(parent STREQUAL head OR "${name}" STREQUAL "")
      break()
    endif()
    set(rest "/${name}${rest}")
    set(head "${parent}")
  endwhile()
  file(REAL_PATH "${head}" real)
  set(${out_var} "${real}${rest}" PARENT_SCOPE)
endfunction()
