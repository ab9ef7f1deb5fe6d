# ringkernel_generate_messages(<target> HEADERS <h>... [REGISTRY <name>] [OUTPUT_DIR <dir>]
#                              [DEPENDS <file|target>...])
#
# Runs ringkernel-gen on each annotated header at build time and wires the outputs into <target>.
# Documented in docs/cmake.md. Design points (what users of protoc/flatc integrations complain about):
#  - one custom command per header, explicit outputs, DEPFILE written by the tool (every header the
#    parse read), DEPENDS on the header, the generator executable, the templates and the caller's
#    DEPENDS (a file the header includes that the build generates: the depfile knows it only later);
#  - the tool rewrites only changed files and touches a stamp, so no-op builds run nothing with
#    Ninja and Makefiles alike, and unchanged outputs do not recompile their consumers;
#  - the parse sees the target's include directories, compile definitions (as for its C++ sources,
#    $<COMPILE_LANGUAGE:CXX> entries included), the -D/-U and include options of
#    CMAKE_CXX_FLAGS[_<CONFIG>] and of its compile options (also -include/-imacros, two-argument
#    and SHELL: forms), CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES, and C++ standard and dialect
#    (RingKernelGenerateArgs.cmake), and runs where its compiles run;
#  - with GNU make a deleted output reruns its step (its depfile names the outputs); configure-time
#    errors for misspelled keywords and for CMake defects of some build tools
#    (RingKernelGenerateChecks.cmake);
#  - on error the build fails with the tool's file:line:col diagnostic and the header's previous
#    outputs are removed (no stale files survive a failed generation);
#  - multi-config generators get one output directory per configuration ($<CONFIG>);
#  - a target has one registry (REGISTRY), over the manifests of the headers of all its calls, earlier
#    and later ones, from any directory; the steps of each call hang on a utility target the target
#    depends on (RingKernelGenerateRegistry.cmake);
#  - outputs of a header (or registry) no longer listed are deleted when CMake configures: each
#    output directory records the files the generator writes there, and only those are deleted;
#  - so are those of a whole call (or target) removed: the build tree keeps the list of its output
#    directories, and one that left the list is cleaned up (not after a fatal configure error;
#    RingKernelGenerateFinalize.cmake).
#  - an output directory belongs to one target and one build tree, compared by real path (symlinks,
#    $<CONFIG>, a trailing '/'; a build tree under another path by its id, proven); errors about an
#    earlier call say which call it is (_ringkernel_describe_site).
include_guard(GLOBAL)
# The tool's depfiles name absolute paths, which Ninja reads only under CMP0116 NEW; unset (a project
# with cmake_minimum_required below 3.20, as find_package's scope inherits) it is OLD, Ninja drops the
# depfile and every build reruns every generation step. A function keeps the policies in force where
# it is defined, and include() / find_package() scope this setting to this file.
cmake_policy(SET CMP0116 NEW)
include("${CMAKE_CURRENT_LIST_DIR}/RingKernelGenerateArgs.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/RingKernelGenerateChecks.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/RingKernelGenerateNames.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/RingKernelGenerateFinalize.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/RingKernelGenerateLink.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/RingKernelGenerateRegistry.cmake")

# Where the templates are: the source tree sets this before including this file; an installed package
# finds them next to itself (<prefix>/lib/cmake/RingKernel -> <prefix>/share/ringkernel/templates).
get_property(_ringkernel_template_dir GLOBAL PROPERTY RINGKERNEL_TEMPLATE_DIR)
if(NOT _ringkernel_template_dir)
  cmake_path(SET _ringkernel_template_dir NORMALIZE "${CMAKE_CURRENT_LIST_DIR}/../../../share/ringkernel/templates")
  set_property(GLOBAL PROPERTY RINGKERNEL_TEMPLATE_DIR "${_ringkernel_template_dir}")
endif()
unset(_ringkernel_template_dir)

function(ringkernel_generate_messages target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "REGISTRY;OUTPUT_DIR" "HEADERS;DEPENDS")
  set(where "ringkernel_generate_messages(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown argument(s): ${arg_UNPARSED_ARGUMENTS}\n"
      "Usage: ringkernel_generate_messages(<target> HEADERS <h>... [REGISTRY <name>] [OUTPUT_DIR <dir>] "
      "[DEPENDS <file|target>...])")
  endif()
  # REGISTRY or OUTPUT_DIR without a value (given last, or with "" such as an unset "${VAR}") would
  # otherwise be dropped silently: cmake_parse_arguments leaves both cases undefined, so look at ARGV.
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 1 ${last})  # a call with only <target> runs i = 1, 0: skip 0, the target
    if(i EQUAL 0)
      continue()
    endif()
    if(ARGV${i} STREQUAL "REGISTRY" OR ARGV${i} STREQUAL "OUTPUT_DIR")
      math(EXPR next "${i} + 1")
      if(next GREATER last OR "${ARGV${next}}" STREQUAL "")
        message(FATAL_ERROR "${where}: ${ARGV${i}} needs a value\n"
          "Usage: ringkernel_generate_messages(<target> HEADERS <h>... [REGISTRY <name>] [OUTPUT_DIR <dir>] "
          "[DEPENDS <file|target>...])")
      endif()
      # Given twice, cmake_parse_arguments would keep the last value silently.
      if(DEFINED seen_${ARGV${i}})
        message(FATAL_ERROR "${where}: ${ARGV${i}} is given twice ('${seen_${ARGV${i}}}' and "
          "'${ARGV${next}}'); one call takes one ${ARGV${i}} (call the function again for another)")
      endif()
      set(seen_${ARGV${i}} "${ARGV${next}}")
    endif()
  endforeach()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${where}: '${target}' is not a target; create it (add_library/add_executable) first")
  endif()
  _ringkernel_check_values("${where}" ${target} HEADERS ${arg_HEADERS})
  _ringkernel_check_values("${where}" ${target} DEPENDS ${arg_DEPENDS})
  # Where this call is, for errors of later calls that collide with it (CMake prints the current
  # call's own file:line in its call stack).
  _ringkernel_call_site("${target}" site)
  # An ALIAS (ns::lib) stands for its target: generate for that one (ringkernel_gen/lib, its rules).
  get_target_property(aliased ${target} ALIASED_TARGET)
  if(aliased)
    set(target "${aliased}")
  endif()
  get_target_property(imported ${target} IMPORTED)
  if(imported)
    message(FATAL_ERROR "${where}: '${target}' is an IMPORTED target, built outside this project, so "
      "there is no build step of it to generate for; call the function for a target this project "
      "builds (the one that includes the generated headers)")
  endif()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
    set(kind "an INTERFACE library")
    if(type STREQUAL "UTILITY")
      set(kind "a custom target")
    endif()
    message(FATAL_ERROR "${where}: '${target}' is ${kind} (${type}), which has no build step; use an "
      "executable, a STATIC, SHARED or OBJECT library")
  endif()
  if(NOT arg_HEADERS)
    message(FATAL_ERROR "${where}: HEADERS is empty; name at least one header with [[ringkernel::message]] structs")
  endif()
  foreach(header IN LISTS arg_HEADERS)
    if(header MATCHES [[\$<]])
      message(FATAL_ERROR "${where}: HEADERS takes no generator expressions ('${header}'): each header "
        "gets its build step when CMake configures, so name it by a plain path (relative to the current "
        "source directory, or absolute)")
    endif()
  endforeach()
  if(DEFINED arg_REGISTRY AND NOT arg_REGISTRY MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${where}: REGISTRY '${arg_REGISTRY}' must be a C identifier (it names a namespace)")
  endif()
  if(NOT TARGET RingKernel::gen)
    _ringkernel_check_gen_visible("${where}")
    get_property(package_dir GLOBAL PROPERTY RINGKERNEL_PACKAGE_DIR)
    if(package_dir)
      message(FATAL_ERROR "${where}: the RingKernel package at ${package_dir} has no ringkernel-gen: it was "
        "installed from a build that did not compile it (RINGKERNEL_BUILD_GENERATOR=OFF or "
        "RINGKERNEL_GEN_EXECUTABLE). Install RingKernel from a build that compiles ringkernel-gen, or define "
        "the imported executable RingKernel::gen (add_executable(RingKernel::gen IMPORTED), IMPORTED_LOCATION "
        "a ringkernel-gen of the same version) before this call")
    endif()
    message(FATAL_ERROR "${where}: RingKernel::gen is not available (build RingKernel with "
      "RINGKERNEL_BUILD_GENERATOR=ON or set RINGKERNEL_GEN_EXECUTABLE)")
  endif()

  # A multi-config generator builds every configuration from one build tree, each with its own
  # flags: one output directory per configuration, else configurations overwrite each other's
  # outputs (a Debug/Release switch regenerates and recompiles; parallel builds race).
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT arg_OUTPUT_DIR)
    set(arg_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/ringkernel_gen/${target}")
    if(multi_config)
      string(APPEND arg_OUTPUT_DIR "/$<CONFIG>")
    endif()
  endif()
  string(REPLACE "$<CONFIG>" "" plain "${arg_OUTPUT_DIR}")
  if(plain MATCHES [[\$<]])
    message(FATAL_ERROR "${where}: OUTPUT_DIR '${arg_OUTPUT_DIR}' may use $<CONFIG> but no other "
      "generator expression")
  endif()
  cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE
             OUTPUT_VARIABLE out)
  string(REGEX REPLACE "(.)/+$" "\\1" out "${out}")  # NORMALIZE keeps a trailing '/': 'gen/' is 'gen'
  # One directory belongs to one target: two would write the same files and build rules. The
  # directory, not its spelling: each configuration's (an OUTPUT_DIR with $<CONFIG> and another
  # naming that configuration's directory are one), with symlinks resolved (file(REAL_PATH)).
  _ringkernel_output_dirs("${out}" out_dirs)
  set(real_dirs)
  foreach(dir IN LISTS out_dirs)
    _ringkernel_real_path("${dir}" real)
    list(APPEND real_dirs "${real}")
    get_property(owner GLOBAL PROPERTY "RINGKERNEL_GEN_OWNER ${real}")
    if("${owner}" STREQUAL "")
      continue()
    endif()
    get_property(owner_out GLOBAL PROPERTY "RINGKERNEL_GEN_OWNER_OUT ${real}")
    get_property(owner_site GLOBAL PROPERTY "RINGKERNEL_GEN_OWNER_SITE ${real}")
    _ringkernel_describe_site("${owner_site}" owner_site)
    set(spelled "")
    if(NOT owner_out STREQUAL out)
      set(spelled " (given there as '${owner_out}'; both are '${real}')")
    endif()
    if(NOT owner STREQUAL target)
      message(FATAL_ERROR "${where}: OUTPUT_DIR '${out}' is already the output directory of target "
        "'${owner}' (${owner_site})${spelled}; two targets "
        "cannot share one (their generated files and build rules would collide). Give one of them "
        "another OUTPUT_DIR, or leave OUTPUT_DIR out (the default is ringkernel_gen/<target> in the "
        "current binary directory).")
    elseif(NOT owner_out STREQUAL out)
      message(FATAL_ERROR "${where}: OUTPUT_DIR '${out}' is the output directory of an earlier call "
        "for this target (${owner_site})${spelled}, spelled another way; the function keeps the "
        "records of an output directory (the files it generates there, its flags file) by its "
        "spelling, so write it the same way in both calls")
    endif()
  endforeach()
  _ringkernel_check_build_tool("${where}" "${out}")
  foreach(real IN LISTS real_dirs)
    set_property(GLOBAL PROPERTY "RINGKERNEL_GEN_OWNER ${real}" "${target}")
    set_property(GLOBAL PROPERTY "RINGKERNEL_GEN_OWNER_OUT ${real}" "${out}")
    set_property(GLOBAL PROPERTY "RINGKERNEL_GEN_OWNER_SITE ${real}" "${site}")
  endforeach()
  foreach(dir IN LISTS out_dirs)
    _ringkernel_check_other_tree("${where}" "${dir}")
    file(MAKE_DIRECTORY "${dir}")
  endforeach()

  # What the target's C++ compiler sees (transitively through its links): its include directories,
  # definitions (also the -D/-U in CMAKE_CXX_FLAGS[_<CONFIG>]) and C++ standard and dialect go into
  # a file, one argument per line, because only file(GENERATE) evaluates $<COMPILE_LANGUAGE:...> /
  # $<COMPILE_LANG_AND_ID:...> in them (a custom command's arguments silently drop such entries). With $<COMPILE_LANGUAGE> in OUTPUT, CMake
  # writes one file per enabled language (and per configuration, through $<CONFIG>), each evaluated
  # for that language; the headers are parsed as C++, so the tool reads the CXX one. A file is
  # rewritten only when its content changes, and the commands depend on it: a changed definition
  # or standard regenerates, an unchanged one does not. One line per argument needs no quoting
  # (spaces, quotes stay as given).
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CXX" IN_LIST languages)
    message(FATAL_ERROR "${where}: the CXX language is not enabled; the headers are parsed as C++ "
      "with the target's C++ include directories and definitions (project(... LANGUAGES CXX))")
  endif()
  _ringkernel_parse_args(${target} args_content)
  set(args_file "${out}/ringkernel-gen.args.$<COMPILE_LANGUAGE>")
  if(multi_config AND NOT out MATCHES [[\$<CONFIG>]])  # one directory for all configurations
    set(args_file "${out}/ringkernel-gen.args.$<CONFIG>.$<COMPILE_LANGUAGE>")
  endif()
  get_property(generated GLOBAL PROPERTY "RINGKERNEL_GEN_ARGS ${out}")
  if(NOT generated)  # a second call of the target with this directory: the same file
    set_property(GLOBAL PROPERTY "RINGKERNEL_GEN_ARGS ${out}" TRUE)
    # No TARGET option: the properties name their target, and with TARGET CMake 3.25 crashes
    # (segfault while generating) for these outputs.
    file(GENERATE OUTPUT "${args_file}" CONTENT "${args_content}")
  endif()
  string(REPLACE "$<COMPILE_LANGUAGE>" "CXX" args_file "${args_file}")

  get_property(template_dir GLOBAL PROPERTY RINGKERNEL_TEMPLATE_DIR)
  # A source tree's templates may gain files, so its glob is checked again by every build; an
  # installed set is fixed (a re-glob would run, and print, on every build of every consumer).
  get_property(templates_in_source_tree GLOBAL PROPERTY RINGKERNEL_TEMPLATES_IN_SOURCE_TREE)
  if(templates_in_source_tree)
    file(GLOB templates CONFIGURE_DEPENDS "${template_dir}/*.mustache")
  else()
    file(GLOB templates "${template_dir}/*.mustache")
  endif()
  if(NOT templates)
    message(FATAL_ERROR "${where}: no templates found in '${template_dir}' (broken RingKernel installation?)")
  endif()

  _ringkernel_check_headers("${where}" ${target} "${arg_REGISTRY}" "${site}" headers ${arg_HEADERS})
  # The parse runs where the target's compiles run (Ninja: the top of the build tree; Makefiles: the
  # target's binary directory), so relative include paths in flags and options mean the same.
  _ringkernel_compile_dir(${target} compile_dir)
  set(stamps)
  set(manifests)
  set(generated_headers)
  foreach(header IN LISTS headers)
    cmake_path(GET header STEM LAST_ONLY stem)
    cmake_path(GET header FILENAME name)
    _ringkernel_claim_outputs("${where}" "${out}" "${header}" "${site}" "${stem}.rk.h" "${stem}.rk.cuh"
                              "${stem}.rk.json" "${stem}.rk.stamp" "${stem}.rk.d")

    set(base "${out}/${stem}")
    set(outputs "${base}.rk.h" "${base}.rk.cuh" "${base}.rk.json")
    _ringkernel_output_tracking("${base}.rk.d" "${base}.rk.stamp" track ${outputs})
    add_custom_command(
      OUTPUT "${base}.rk.stamp"
      BYPRODUCTS ${outputs}
      COMMAND RingKernel::gen
              --output-dir "${out}"
              --template-dir "${template_dir}"
              --depfile "${base}.rk.d"
              --stamp "${base}.rk.stamp"
              --remove-stale-outputs
              --compile-args-file "${args_file}"
              "${header}"
      ${track}
      DEPENDS "${header}" "${args_file}" RingKernel::gen ${templates} ${arg_DEPENDS}
      DEPFILE "${base}.rk.d"
      WORKING_DIRECTORY "${compile_dir}"
      COMMENT "ringkernel-gen ${name} -> ${stem}.rk.{h,cuh,json}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    list(APPEND stamps "${base}.rk.stamp")
    list(APPEND manifests "${base}.rk.json")
    list(APPEND generated_headers "${base}.rk.h" "${base}.rk.cuh")
  endforeach()

  # The steps hang on utility targets that the target depends on, so its objects (and, through
  # target-level ordering, its dependents' objects) compile after generation; the generated headers
  # themselves are tracked by compiler depfiles. The registry (one per target) covers every call's
  # headers (RingKernelGenerateRegistry.cmake).
  _ringkernel_add_call_steps(${target} "${stamps}" "${manifests}")
  if(arg_REGISTRY)
    _ringkernel_claim_outputs("${where}" "${out}" "REGISTRY ${arg_REGISTRY}" "${site}"
                              "${arg_REGISTRY}.registry.rk.h" "${arg_REGISTRY}.registry.rk.stamp"
                              "${arg_REGISTRY}.registry.rk.d")
    _ringkernel_add_registry(${target} "${arg_REGISTRY}" "${out}" "${template_dir}" "${templates}")
    list(APPEND generated_headers "${out}/${arg_REGISTRY}.registry.rk.h")
  endif()
  get_target_property(target_dir ${target} SOURCE_DIR)
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${out}>")
  _ringkernel_link_runtime(${target} "${target_dir}")

  # What the calls of the target generate, for install rules (docs/cmake.md, "Installing generated
  # headers"); paths may contain $<CONFIG>, which install(FILES) evaluates.
  set_property(TARGET ${target} APPEND PROPERTY RINGKERNEL_MESSAGE_HEADERS ${headers})
  set_property(TARGET ${target} APPEND PROPERTY RINGKERNEL_GENERATED_HEADERS ${generated_headers})
  get_property(dirs TARGET ${target} PROPERTY RINGKERNEL_OUTPUT_DIRS)
  if(NOT out IN_LIST dirs)
    set_property(TARGET ${target} APPEND PROPERTY RINGKERNEL_OUTPUT_DIRS "${out}")
  endif()
endfunction()

# The directories `out` stands for: one per configuration when it contains $<CONFIG>, which a
# single-config generator evaluates to CMAKE_BUILD_TYPE, also when that is empty ('gen/$<CONFIG>' is
# then 'gen').
function(_ringkernel_output_dirs out out_var)
  set(dirs "${out}")
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(out MATCHES [[\$<CONFIG>]] AND multi_config)
    set(dirs)
    foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
      string(REPLACE "$<CONFIG>" "${config}" dir "${out}")
      list(APPEND dirs "${dir}")
    endforeach()
  elseif(out MATCHES [[\$<CONFIG>]])
    string(REPLACE "$<CONFIG>" "${CMAKE_BUILD_TYPE}" dirs "${out}")
    cmake_path(NORMAL_PATH dirs)  # an empty CMAKE_BUILD_TYPE leaves '//' or a trailing '/'
    string(REGEX REPLACE "(.)/+$" "\\1" dirs "${dirs}")
  endif()
  set(${out_var} "${dirs}" PARENT_SCOPE)
endfunction()

# Fails the call when the package has RingKernel::gen but the calling directory does not see it:
# imported targets are visible only in the directory of their find_package(RingKernel) and below,
# while the function is global (a call in a sibling of that directory). RingKernelConfig.cmake
# records both properties; otherwise the caller's "no ringkernel-gen" error would be wrong.
function(_ringkernel_check_gen_visible where)
  get_property(has_gen GLOBAL PROPERTY RINGKERNEL_PACKAGE_HAS_GEN)
  if(NOT has_gen)
    return()
  endif()
  get_property(found_in GLOBAL PROPERTY RINGKERNEL_PACKAGE_FOUND_IN)
  list(REMOVE_DUPLICATES found_in)
  list(JOIN found_in "' and '" found_in)
  message(FATAL_ERROR "${where}: RingKernel::gen is not visible in '${CMAKE_CURRENT_SOURCE_DIR}': "
    "find_package(RingKernel) was called in '${found_in}', and the imported targets it defines are "
    "visible only there and in its subdirectories. Call find_package(RingKernel) in the top-level "
    "CMakeLists.txt (or in this directory, or one above it)")
endfunction()

# Records that `what` (a header, or REGISTRY <name>) of the call at `site` writes `files` (names)
# into `out`: a second claim of one file (two calls of a target generating one stem or one registry
# there) is an error here instead of CMake's "already has a custom rule". The record drives the
# pruning below.
function(_ringkernel_claim_outputs where out what site)
  get_property(claimed GLOBAL PROPERTY "RINGKERNEL_GEN_FILES ${out}")
  foreach(file IN LISTS ARGN)
    if(file IN_LIST claimed)
      get_property(first GLOBAL PROPERTY "RINGKERNEL_GEN_FROM ${out}/${file}")
      get_property(first_site GLOBAL PROPERTY "RINGKERNEL_GEN_FROM_SITE ${out}/${file}")
      _ringkernel_describe_site("${first_site}" first_site)
      message(FATAL_ERROR "${where}: ${what} would write '${file}' in '${out}', which ${first} "
        "(of ${first_site}) already writes; use another OUTPUT_DIR for one of them "
        "(another target's call), or rename the header")
    endif()
    set_property(GLOBAL PROPERTY "RINGKERNEL_GEN_FROM ${out}/${file}" "${what}")
    set_property(GLOBAL PROPERTY "RINGKERNEL_GEN_FROM_SITE ${out}/${file}" "${site}")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY "RINGKERNEL_GEN_FILES ${out}" ${ARGN})
  get_property(dirs GLOBAL PROPERTY RINGKERNEL_GEN_DIRS)
  if(NOT out IN_LIST dirs)
    set_property(GLOBAL APPEND PROPERTY RINGKERNEL_GEN_DIRS "${out}")
  endif()
  _ringkernel_schedule_finalize()
endfunction()

_ringkernel_schedule_finalize()
