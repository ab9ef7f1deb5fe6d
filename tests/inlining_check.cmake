# ringkernel_add_inlining_check(NAME <test> SOURCE <file.cpp> INCLUDES <dir>... ENTRY <regex>
#                               ENTRY_COUNT <n> OUTLINED <regex> [ALLOWED <regex>]
#                               [UNOPTIMISED <regex>] [HINT <text>])
# Adds a CTest test (label unit) that compiles SOURCE at -O2 with the project's C++ compiler and, in
# a GCC build, with clang++ too, and fails when a function matching OUTLINED is left out of line
# (tests/check_inlined.cmake). The two compilers inline differently: each must be checked. With
# UNOPTIMISED, SOURCE compiled at -O0 must call a function matching it out of line (nothing forced).
# Not in sanitizer builds: the check compiles without the build's flags, with the compilers the
# default build checks already, so it would only repeat that build's test.
find_program(RINGKERNEL_INLINING_CLANGXX NAMES clang++-19 clang++)
function(ringkernel_add_inlining_check)
  if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;SOURCE;ENTRY;ENTRY_COUNT;OUTLINED;ALLOWED;UNOPTIMISED;HINT" "INCLUDES")
  set(compilers "${CMAKE_CXX_COMPILER}")
  if(RINGKERNEL_INLINING_CLANGXX AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    list(APPEND compilers "${RINGKERNEL_INLINING_CLANGXX}")
  endif()
  list(JOIN compilers "," compilers)  # one argument each on the test's command line
  list(JOIN arg_INCLUDES "," includes)
  string(MAKE_C_IDENTIFIER "${arg_NAME}" work)
  add_test(NAME ${arg_NAME}
    COMMAND ${CMAKE_COMMAND} "-DCOMPILERS=${compilers}" "-DNM=${CMAKE_NM}" "-DOBJDUMP=${CMAKE_OBJDUMP}" "-DSOURCE=${arg_SOURCE}"
            "-DINCLUDES=${includes}" "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/${work}" "-DENTRY=${arg_ENTRY}"
            "-DENTRY_COUNT=${arg_ENTRY_COUNT}" "-DOUTLINED=${arg_OUTLINED}" "-DALLOWED=${arg_ALLOWED}"
            "-DUNOPTIMISED=${arg_UNOPTIMISED}" "-DHINT=${arg_HINT}" -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/check_inlined.cmake")
  set_tests_properties(${arg_NAME} PROPERTIES LABELS unit TIMEOUT 300)
endfunction()
