# Output directories by their real path, and errors that say which call the earlier one is (tests
# cmake.output_dirs.<CASE>). Writes a small project per case into WORK (from output_dirs/ and the
# calls below), configures it and checks the result; configure only, with a stand-in RingKernel::gen
# (output_dirs/CMakeLists.txt): the generator never runs. Run as:
#   cmake -DCASE=... -DWORK=... -DRK_SOURCE_DIR=... -DCXX=... -P check_output_dirs.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var CASE WORK RK_SOURCE_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_output_dirs: -D${var}=... is required")
  endif()
endforeach()

set(src "${WORK}/src")
file(REMOVE_RECURSE "${WORK}")
file(COPY "${CMAKE_CURRENT_LIST_DIR}/output_dirs/CMakeLists.txt" DESTINATION "${src}")
file(WRITE "${src}/a.h" "struct [[ringkernel::message]] A { int x; };\n")
file(WRITE "${src}/b.h" "struct [[ringkernel::message]] B { int y; };\n")
file(WRITE "${src}/sub/a.h" "struct [[ringkernel::message]] A2 { int z; };\n")

function(fail what output)
  message(FATAL_ERROR "check_output_dirs [${CASE}]: ${what}\n---- configure output ----\n${output}")
endfunction()

# Writes the case's calls (`calls`, lines 4 and on of src/calls.cmake, included by the project)
# and `sub` (src/sub/CMakeLists.txt, lines 1 and on).
function(write_calls calls)
  file(WRITE "${src}/calls.cmake" "# The calls of case ${CASE}.\n\n\n${calls}")
  set(sub "")
  if(ARGC GREATER 1)
    set(sub "${ARGV1}")
  endif()
  file(WRITE "${src}/sub/CMakeLists.txt" "${sub}")
endfunction()

# Configures `src` into `bin`; sets ${out_var} to the output, flattened (CMake wraps messages at
# spaces); fails unless the exit status matches `expect` (success or failure).
function(configure bin expect out_var)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${src}" -B "${bin}" -G Ninja "-DCMAKE_CXX_COMPILER=${CXX}"
    -DCMAKE_BUILD_TYPE=Debug "-DRK_SOURCE_DIR=${RK_SOURCE_DIR}" ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(expect STREQUAL "success" AND NOT rc EQUAL 0)
    fail("the configure of ${bin} failed (exit ${rc})" "${out}")
  elseif(expect STREQUAL "failure" AND rc EQUAL 0)
    fail("the configure of ${bin} succeeded but was expected to fail" "${out}")
  endif()
  string(REGEX REPLACE "[ \n]+" " " out "${out}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# Fails unless `out` matches each regular expression in ARGN.
function(expect_message what out)
  foreach(re IN LISTS ARGN)
    if(NOT out MATCHES "${re}")
      fail("${what}: the output does not match '${re}'" "${out}")
    endif()
  endforeach()
endfunction()

# Makes the directory WORK/<name> and the symlink WORK/link to it.
function(linked_dir name)
  file(MAKE_DIRECTORY "${WORK}/${name}")
  file(CREATE_LINK "${WORK}/${name}" "${WORK}/link" SYMBOLIC)
endfunction()

set(bin "${WORK}/build")
set(calls "${src}/calls.cmake")
if(CASE STREQUAL "TWO_TARGETS_SYMLINK")
  # A second target naming the first one's directory through a symlink: the same files, the same
  # build rules under other names (CMake saw no collision; both targets' builds wrote the files).
  linked_dir(real)
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"${WORK}/real\")
ringkernel_generate_messages(app2 HEADERS b.h OUTPUT_DIR \"${WORK}/link\")
")
  configure("${bin}" failure out)
  expect_message("two targets, one directory through a symlink" "${out}"
    "ringkernel_generate_messages\\(app2\\): OUTPUT_DIR '${WORK}/link' is already the output directory of target 'app' \\(the 1st call for 'app' in ${calls}\\) \\(given there as '${WORK}/real'; both are '${WORK}/real'\\); two targets cannot share one"
    "calls.cmake:5 \\(ringkernel_generate_messages\\)")  # CMake's call stack: this call
elseif(CASE STREQUAL "TWO_TARGETS_CONFIG")
  # $<CONFIG> in one OUTPUT_DIR, the configuration's name in the other: one directory.
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"gen/$<CONFIG>\")
ringkernel_generate_messages(app2 HEADERS b.h OUTPUT_DIR gen/Debug)
")
  configure("${bin}" failure out)
  expect_message("two targets, one directory through $<CONFIG>" "${out}"
    "ringkernel_generate_messages\\(app2\\): OUTPUT_DIR '${bin}/gen/Debug' is already the output directory of target 'app' \\(the 1st call for 'app' in ${calls}\\) \\(given there as '${bin}/gen/\\$<CONFIG>'")
elseif(CASE STREQUAL "TWO_TARGETS_TRAILING_SLASH")
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR gen)
ringkernel_generate_messages(app2 HEADERS b.h OUTPUT_DIR gen/)
")
  configure("${bin}" failure out)
  expect_message("two targets, one directory with a trailing /" "${out}"
    "ringkernel_generate_messages\\(app2\\): OUTPUT_DIR '${bin}/gen' is already the output directory of target 'app' \\(the 1st call for 'app' in ${calls}\\);")
elseif(CASE STREQUAL "ONE_TARGET_TWO_SPELLINGS")
  # One target, one directory spelled two ways: the records are kept by spelling, and the second
  # call's would overwrite the first's (its next configure would delete the first call's outputs).
  linked_dir(real)
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"${WORK}/real\")
ringkernel_generate_messages(app HEADERS b.h OUTPUT_DIR \"${WORK}/link\")
")
  configure("${bin}" failure out)
  expect_message("one target, one directory spelled two ways" "${out}"
    "ringkernel_generate_messages\\(app\\): OUTPUT_DIR '${WORK}/link' is the output directory of an earlier call for this target \\(the 1st call for 'app' in ${calls}\\) \\(given there as '${WORK}/real'; both are '${WORK}/real'\\), spelled another way")
elseif(CASE STREQUAL "RESPELLED")
  # A call's OUTPUT_DIR spelled another way from one configure to the next (the real path, then a
  # symlink to it): the directory is still in use, so its files and record stay (the previous
  # spelling's cleanup used to delete them, the record with them).
  linked_dir(real)
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"\${GEN_DIR}\")\n")
  configure("${bin}" success out "-DGEN_DIR=${WORK}/real")
  configure("${bin}" success out "-DGEN_DIR=${WORK}/link")
  foreach(file ringkernel-gen.outputs ringkernel-gen.args.CXX)
    if(NOT EXISTS "${WORK}/real/${file}")
      fail("changing OUTPUT_DIR from ${WORK}/real to the symlink ${WORK}/link to it deleted ${file}" "${out}")
    endif()
  endforeach()
elseif(CASE STREQUAL "EARLIER_CALL")
  # The errors about an earlier call for the target say which call it is: the n-th call for the
  # target's name (as the call wrote it) that ran from a file (a call in an if() branch not taken
  # does not count; a call with the name in a variable does). CMake's call stack names the line of
  # the failing call.
  set(two_calls "ringkernel_generate_messages(app HEADERS a.h REGISTRY reg OUTPUT_DIR one)

  ringkernel_generate_messages(
    app HEADERS b.h OUTPUT_DIR two)
")
  write_calls("${two_calls}add_subdirectory(sub)\n" "ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR three)\n")
  configure("${bin}_stem" failure out)
  expect_message("a stem of an earlier call" "${out}"
    "ringkernel_generate_messages\\(app\\): header '${src}/sub/a.h' has the stem 'a' of '${src}/a.h', which an earlier call for this target \\(the 1st call for 'app' in ${calls}\\) generates too"
    "sub/CMakeLists.txt:1 \\(ringkernel_generate_messages\\)")  # CMake's call stack: this call
  write_calls("${two_calls}ringkernel_generate_messages(app HEADERS sub/a.h REGISTRY reg OUTPUT_DIR three)\n")
  configure("${bin}_registry" failure out)
  expect_message("a registry of an earlier call" "${out}"
    "REGISTRY 'reg': this target already has a registry, REGISTRY 'reg' \\(namespace ringkernel::registry::reg\\) of an earlier call \\(the 1st call for 'app' in ${calls}\\)"
    "calls.cmake:8 \\(ringkernel_generate_messages\\)")
  write_calls("${two_calls}ringkernel_generate_messages(app HEADERS b.h OUTPUT_DIR three)\n")
  configure("${bin}_second" failure out)
  expect_message("a header of the second call" "${out}"
    "header '${src}/b.h' is already generated for this target by an earlier call \\(the 2nd call for 'app' in ${calls}\\);")
  # A call in an if() branch not taken, then one with the name in a variable: the second call that
  # ran is the one that collides, and the first that ran is the earlier one (a scan of the text
  # would name the call in the if()).
  write_calls("if(FALSE)
  ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR zero)
endif()
set(t app)
ringkernel_generate_messages(\${t} HEADERS a.h OUTPUT_DIR one)
ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR two)
")
  configure("${bin}_untaken" failure out)
  expect_message("a header of an earlier call, after a call not taken" "${out}"
    "header '${src}/a.h' is already generated for this target by an earlier call \\(the 1st call for 'app' in ${calls}\\);"
    "calls.cmake:9 \\(ringkernel_generate_messages\\)")
  # The call in sub/ came first: the error of the second call names sub/CMakeLists.txt.
  write_calls("add_subdirectory(sub)\nringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR four)\n"
              "ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR three)\n")
  configure("${bin}_sub" failure out)
  expect_message("a stem of an earlier call in another directory" "${out}"
    "header '${src}/a.h' has the stem 'a' of '${src}/sub/a.h', which an earlier call for this target \\(the 1st call for 'app' in ${src}/sub/CMakeLists.txt\\) generates too")
elseif(CASE STREQUAL "NO_BUILD_TYPE")
  # With no CMAKE_BUILD_TYPE, $<CONFIG> is empty: 'gen/$<CONFIG>' is the directory 'gen' (its
  # record is kept there), and another target's 'gen' is the same directory (it used to end in
  # CMake's "Files to be generated by multiple different commands").
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"gen/$<CONFIG>\")\n")
  configure("${bin}" success out -DCMAKE_BUILD_TYPE=)
  if(NOT EXISTS "${bin}/gen/ringkernel-gen.outputs")
    fail("OUTPUT_DIR gen/$<CONFIG> with no build type left no record in ${bin}/gen" "${out}")
  endif()
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"gen/$<CONFIG>\")
ringkernel_generate_messages(app2 HEADERS b.h OUTPUT_DIR gen)
")
  configure("${bin}" failure out -DCMAKE_BUILD_TYPE=)
  expect_message("two targets, one directory through an empty $<CONFIG>" "${out}"
    "ringkernel_generate_messages\\(app2\\): OUTPUT_DIR '${bin}/gen' is already the output directory of target 'app' \\(the 1st call for 'app' in ${calls}\\) \\(given there as '${bin}/gen/\\$<CONFIG>'")
elseif(CASE STREQUAL "COPIED_TREE")
  # A copy of a build tree is another tree. Its configure leaves the original's output directories
  # alone, though the copy's ringkernel-gen.dirs lists them (a tree id copied with the tree made it
  # delete them): with its CMakeCache.txt kept (CMake fails the configure of a copied cache, but only
  # after running it, cleanup included; the cache holds the original's id) and with it deleted (the
  # usual way round that). And an output directory outside the trees is still refused to the copy.
  set(tree1 "${WORK}/tree1")
  set(gen1 "${tree1}/ringkernel_gen/app")
  write_calls("ringkernel_generate_messages(app HEADERS a.h)\n")
  configure("${tree1}" success out)
  foreach(copy kept deleted)
    set(tree2 "${WORK}/tree2_${copy}")
    file(COPY "${tree1}/" DESTINATION "${tree2}")
    if(copy STREQUAL "kept")
      configure("${tree2}" failure out)
      expect_message("a copy with its cache" "${out}" "CMakeCache.txt directory ${tree2}/CMakeCache.txt is different")
    else()
      file(REMOVE_RECURSE "${tree2}/CMakeCache.txt" "${tree2}/CMakeFiles")
      configure("${tree2}" success out)
    endif()
    foreach(file ringkernel-gen.outputs ringkernel-gen.args.CXX)
      if(NOT EXISTS "${gen1}/${file}")
        fail("the configure of ${tree2}, a copy of ${tree1} (cache ${copy}), deleted ${gen1}/${file}" "${out}")
      endif()
    endforeach()
    file(STRINGS "${gen1}/ringkernel-gen.outputs" owner LIMIT_COUNT 1)
    if(NOT owner STREQUAL "# build tree: ${tree1}")
      fail("the configure of the copy ${tree2} (cache ${copy}) took the record of ${gen1}: '${owner}'" "${out}")
    endif()
  endforeach()
  set(tree2 "${WORK}/tree2")
  file(REMOVE_RECURSE "${tree1}" "${tree2}")
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"${WORK}/shared\")\n")
  configure("${tree1}" success out)
  file(COPY "${tree1}/" DESTINATION "${tree2}")
  file(REMOVE_RECURSE "${tree2}/CMakeCache.txt" "${tree2}/CMakeFiles")
  configure("${tree2}" failure out)
  expect_message("a copy of a build tree sharing its output directory" "${out}"
    "the output directory '${WORK}/shared' is also the output directory of the build tree '${tree1}';")
elseif(CASE STREQUAL "OTHER_TREE_SYMLINK")
  # Two build trees, one output directory: the second tree names it through a symlink. Its configure
  # fails as with the same spelling (the trees would rewrite each other's flags file and headers);
  # it used to compare the spellings and miss it.
  linked_dir(shared)
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"\${GEN_DIR}\")\n")
  configure("${WORK}/tree1" success out "-DGEN_DIR=${WORK}/shared")
  configure("${WORK}/tree2" failure out "-DGEN_DIR=${WORK}/link")
  expect_message("a second build tree through a symlink" "${out}"
    "ringkernel_generate_messages\\(app\\): the output directory '${WORK}/link' is also the output directory of the build tree '${WORK}/tree1' \\(as '${WORK}/shared'; both are '${WORK}/shared'\\); two build trees cannot share one")
  # And the other way round: the first tree through the symlink, the second by the real path.
  file(REMOVE_RECURSE "${WORK}/tree1" "${WORK}/tree2" "${WORK}/shared")
  file(MAKE_DIRECTORY "${WORK}/shared")
  configure("${WORK}/tree1" success out "-DGEN_DIR=${WORK}/link")
  configure("${WORK}/tree2" failure out "-DGEN_DIR=${WORK}/shared")
  expect_message("a second build tree by the real path of the first's symlink" "${out}"
    "the output directory '${WORK}/shared' is also the output directory of the build tree '${WORK}/tree1' \\(as '${WORK}/link'; both are '${WORK}/shared'\\)")
elseif(CASE MATCHES "^SAME_TREE_(OTHER_PATH|BIND_MOUNT)$")
  if(CASE STREQUAL "SAME_TREE_BIND_MOUNT")
    # A real bind mount (below) needs a mount namespace and the right to bind-mount in it (root,
    # CAP_SYS_ADMIN; a container's security profile may still deny the mount): tried on two scratch
    # directories first.
    file(MAKE_DIRECTORY "${WORK}/probe_from" "${WORK}/probe_to")
    execute_process(COMMAND unshare --mount sh -c [[mount --bind "$0" "$1"]] "${WORK}/probe_from" "${WORK}/probe_to"
      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(NOT rc EQUAL 0)
      message(STATUS "check_output_dirs: SKIPPED: cannot bind-mount in a mount namespace (unshare --mount + mount --bind: ${rc}; needs root)")
      return()
    endif()
  endif()
  # One build tree under two paths that no symlink explains (a bind mount, an NFS path): what
  # the other path shows is the same files. A tree made to look so (another directory, which the
  # record names, whose entries link to the tree's: file(REAL_PATH) tells the two apart) is the same
  # tree: its configure goes on and takes the record back. Comparing paths, it took itself for
  # another tree.
  # (SAME_TREE_BIND_MOUNT, run as root: also through a real bind mount.)
  set(tree "${WORK}/tree")
  set(alias "${WORK}/tree_elsewhere")
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"${WORK}/shared\")\n")
  configure("${tree}" success out)
  file(MAKE_DIRECTORY "${alias}")  # what the other path would show: the tree's files
  foreach(entry CMakeCache.txt CMakeFiles ringkernel-gen.dirs)
    file(CREATE_LINK "${tree}/${entry}" "${alias}/${entry}" SYMBOLIC)
  endforeach()
  file(READ "${WORK}/shared/ringkernel-gen.outputs" record)
  string(REPLACE "# build tree: ${tree}\n" "# build tree: ${alias}\n" moved "${record}")
  if(moved STREQUAL record)
    fail("the record of ${WORK}/shared does not name ${tree}" "${record}")
  endif()
  file(WRITE "${WORK}/shared/ringkernel-gen.outputs" "${moved}")
  configure("${tree}" success out)
  file(STRINGS "${WORK}/shared/ringkernel-gen.outputs" owner LIMIT_COUNT 1)
  if(NOT owner STREQUAL "# build tree: ${tree}")
    fail("the configure did not take the record of ${WORK}/shared back" "${owner}")
  endif()
  # Another tree (its own id) still may not share the directory.
  configure("${WORK}/other" failure out)
  expect_message("another build tree" "${out}"
    "the output directory '${WORK}/shared' is also the output directory of the build tree '${tree}';")
  # The call dropped while the record names the other path: the tree cleans the directory up (it
  # used to leave it, taking it for another tree's).
  file(WRITE "${WORK}/shared/ringkernel-gen.outputs" "${moved}")
  write_calls("")
  configure("${tree}" success out)
  if(EXISTS "${WORK}/shared")
    fail("dropping the call left ${WORK}/shared, whose record names this tree by another path" "${out}")
  endif()
  write_calls("ringkernel_generate_messages(app HEADERS a.h OUTPUT_DIR \"${WORK}/shared\")\n")
  configure("${tree}" success out)
  if(CASE STREQUAL "SAME_TREE_BIND_MOUNT")
    # The tree bind-mounted at ${mnt} (a mount namespace of its own, gone when the command ends):
    # configured there, then at its own path again while the mount is still there (CMake itself
    # accepts both: CMakeCache.txt is the same file).
    set(mnt "${WORK}/mnt")
    file(MAKE_DIRECTORY "${mnt}")
    execute_process(COMMAND unshare --mount sh -c [[mount --bind "$0" "$1" && "$2" -S "$3" -B "$1" && "$2" -S "$3" -B "$0"]]
              "${tree}" "${mnt}" "${CMAKE_COMMAND}" "${src}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
      fail("the configure of ${tree} bind-mounted at ${mnt}, or at its own path after it, failed (exit ${rc})" "${out}")
    endif()
    file(STRINGS "${WORK}/shared/ringkernel-gen.outputs" owner LIMIT_COUNT 1)
    if(NOT owner STREQUAL "# build tree: ${tree}")
      fail("the configures through the bind mount and back left the record of ${WORK}/shared at '${owner}'" "${out}")
    endif()
  endif()
else()
  fail("unknown CASE" "")
endif()
