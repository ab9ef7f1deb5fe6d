# What ringkernel_generate_messages() tells ringkernel-gen about a target's C++ compile (docs/cmake.md):
# the content of the file ringkernel-gen reads with --compile-args-file, one argument per line (the
# target's compile options a block of lines that ringkernel-gen selects from).
# Included by RingKernelGenerate.cmake.
include_guard(GLOBAL)

# Sets `out_var` to the file(GENERATE) content for `target`: -std=<c|gnu>++NN, the include
# directories, the compile definitions, CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES, then the -D/-U and
# include options (-I, -isystem, -iquote, -idirafter) of CMAKE_CXX_FLAGS and CMAKE_CXX_FLAGS_<CONFIG>
# (NDEBUG in Release), then the target's compile options, all of them, which ringkernel-gen selects
# from, in the order the compiler sees them (definitions, flags, options: later ones win; include
# directories searched in that order).
function(_ringkernel_parse_args target out_var)
  set(inc "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(def "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  # The C++ standard: the highest of C++20 (what the runtime needs), the target's CXX_STANDARD (98
  # is C++98 though the number is higher) and the cxx_std_NN features it compiles with. CMake raises
  # the compile's standard for those (its own, also generator expressions, and the
  # INTERFACE_COMPILE_FEATURES of what it links: COMPILE_FEATURES is evaluated transitively) but
  # does not always reflect that in CXX_STANDARD. One -std: a lower level never replaces a higher.
  set(std "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  set(features "$<TARGET_PROPERTY:${target},COMPILE_FEATURES>")
  set(level "$<IF:$<AND:$<VERSION_GREATER:${std},20>,$<VERSION_LESS:${std},98>>,${std},20>")
  foreach(feature_level IN ITEMS 23 26)  # the cxx_std_NN above 20 that CMake knows
    string(CONCAT above "$<AND:$<IN_LIST:cxx_std_${feature_level},${features}>,"
                        "$<VERSION_LESS:${level},${feature_level}>>")
    set(level "$<IF:${above},${feature_level},${level}>")
  endforeach()
  # The dialect: CMake compiles with -std=gnu++NN unless CXX_EXTENSIONS is off (unset: the
  # compiler's default, ON for g++ and clang++). It decides __STRICT_ANSI__ and what depends on it.
  set(extensions_default ON)
  if(DEFINED CMAKE_CXX_EXTENSIONS_DEFAULT)
    set(extensions_default "${CMAKE_CXX_EXTENSIONS_DEFAULT}")
  endif()
  set(ext "$<TARGET_PROPERTY:${target},CXX_EXTENSIONS>")
  if(extensions_default)
    set(dialect "$<IF:$<OR:$<STREQUAL:${ext},>,$<BOOL:${ext}>>,gnu,c>")
  else()
    set(dialect "$<IF:$<BOOL:${ext}>,gnu,c>")
  endif()
  # -D/-U and include options in the flags variables, as set when the function is called (CMake
  # compiles with the values they have at the end of the target's directory).
  _ringkernel_flag_arguments("${CMAKE_CXX_FLAGS}" flag_defs)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(configs "${CMAKE_BUILD_TYPE}")
  if(multi_config)
    set(configs ${CMAKE_CONFIGURATION_TYPES})
  endif()
  foreach(config IN LISTS configs)
    string(TOUPPER "${config}" upper)
    _ringkernel_flag_arguments("${CMAKE_CXX_FLAGS_${upper}}" config_defs)
    if(config_defs AND multi_config)
      string(APPEND flag_defs "$<$<CONFIG:${config}>:${config_defs}>")
    else()
      string(APPEND flag_defs "${config_defs}")
    endif()
  endforeach()
  # The compile options (target_compile_options, add_compile_options; transitively, and per
  # language as the definitions), every element a line between the marker lines of
  # generator/src/compile_options_block.h: ringkernel-gen makes the compiler's arguments of them as
  # CMake does (each element once, SHELL: split) and keeps the -D/-U, include, -include and -imacros
  # options, a value given as the next element paired as the compiler pairs it. (A generator
  # expression cannot pair `-isystem;dir`.) The target's name is written for its errors.
  string(REPLACE ">" "$<ANGLE-R>" name "${target}")
  string(REPLACE "," "$<COMMA>" name "${name}")
  string(CONCAT opts "--ringkernel-gen-compile-options-begin=${name}\n"
                     "$<JOIN:$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>,\n>\n"
                     "--ringkernel-gen-compile-options-end\n")
  # CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES: CMake passes them as -isystem after the target's own.
  set(std_inc "")
  foreach(dir IN LISTS CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES)
    string(REPLACE ">" "$<ANGLE-R>" dir "${dir}")
    string(REPLACE "," "$<COMMA>" dir "${dir}")
    string(APPEND std_inc "-isystem${dir}\n")
  endforeach()
  set(${out_var}
    "-std=${dialect}++${level}\n$<$<BOOL:${inc}>:-I$<JOIN:${inc},\n-I>\n>$<$<BOOL:${def}>:-D$<JOIN:${def},\n-D>\n>${std_inc}${flag_defs}${opts}"
    PARENT_SCOPE)
endfunction()

# The -D, -U, -I, -isystem, -iquote and -idirafter options of a flags string (`-DNAME`, `-D NAME`,
# `-Idir`, `-I dir`, ...), one per line with the value attached (the parse runs where the compiles
# run, so a relative directory means what it means to the compiler), with the characters a
# generator expression would read escaped.
function(_ringkernel_flag_arguments flags out_var)
  separate_arguments(tokens UNIX_COMMAND "${flags}")
  set(result)
  set(pending)
  set(options "^-([DUI]|isystem|iquote|idirafter)")
  foreach(token IN LISTS tokens)
    if(pending)
      set(option "${pending}${token}")
      set(pending)
    elseif(token MATCHES "${options}$")
      set(pending "${token}")
      continue()
    elseif(token MATCHES "${options}.")
      set(option "${token}")
    else()
      continue()
    endif()
    string(REPLACE ">" "$<ANGLE-R>" option "${option}")
    string(REPLACE "," "$<COMMA>" option "${option}")
    string(APPEND result "${option}\n")
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

# Names of the files that `out`'s file(GENERATE) writes (one per enabled language, and per
# configuration for a multi-config build into a directory without $<CONFIG>).
function(_ringkernel_args_files out out_var)
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(names)
  foreach(lang IN LISTS languages)
    if(lang STREQUAL "NONE")
      continue()
    endif()
    if(multi_config AND NOT out MATCHES [[\$<CONFIG>]])
      foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
        list(APPEND names "ringkernel-gen.args.${config}.${lang}")
      endforeach()
    else()
      list(APPEND names "ringkernel-gen.args.${lang}")
    endif()
  endforeach()
  set(${out_var} "${names}" PARENT_SCOPE)
endfunction()

# Sets `out_var` to the directory `target`'s compiles run in, which relative paths in its flags and
# compile options are relative to: the top of the build tree with Ninja, the target's binary
# directory with the Makefile generators (and others).
function(_ringkernel_compile_dir target out_var)
  if(CMAKE_GENERATOR MATCHES "^Ninja")
    set(${out_var} "${CMAKE_BINARY_DIR}" PARENT_SCOPE)
  else()
    get_target_property(dir ${target} BINARY_DIR)
    set(${out_var} "${dir}" PARENT_SCOPE)
  endif()
endfunction()
