# What makes test code compile faster. Compiling tests is most of the test script's time on a
# 2-core machine: the optimiser is most of a test's compile, and <gtest/gtest.h> most of the rest.
#
# How hard the optimiser works on test code. The rule: the code under test keeps
# the build type's flags. Where a library compiles it (ringkernel_runtime, ringkernel_gen_lib), the
# test drivers may go to -O0; header-only code under test (the codec, the queues) is compiled by the
# test itself, so its main suites keep the build type's flags; the codec's repeat runs (other
# traits, other flags, other code paths) and its suites about values on paths whose optimised code
# other checks inspect (many fields, map keys: tests/codec/CMakeLists.txt) go down to -O1.
#
#   ringkernel_test_optimization(<target> O0|O1)
#     O0: <target>'s C++ at -O0 (in any build type).
#     O1: <target>'s C++ at -O1 where the build type optimises (Release, RelWithDebInfo,
#         MinSizeRel); never above what it gives: a Debug or sanitizer build stays at -O0.
#   Only for GCC and Clang (the last -O on the command line wins); CUDA sources: below.
function(ringkernel_test_optimization target level)
  set(compiler $<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU,Clang>>)
  if(level STREQUAL "O0")
    target_compile_options(${target} PRIVATE $<${compiler}:-O0>)
    set_property(TARGET ${target} PROPERTY RINGKERNEL_TEST_O0 ON)  # ringkernel_test_precompile_gtest
  elseif(level STREQUAL "O1")
    target_compile_options(${target} PRIVATE
      $<$<AND:${compiler},$<CONFIG:Release,RelWithDebInfo,MinSizeRel>>:-O1>)
  else()
    message(FATAL_ERROR "ringkernel_test_optimization(${target} ${level}): the level is O0 or O1")
  endif()
endfunction()

# The tests' CUDA sources compile their host code at -O0. nvcc's -O is the host compiler's level
# only: cicc and ptxas optimise device code the same at any -O (their command lines are identical),
# and the host code of a GPU test is its gtest driver, its launches and its checks. At -O2, g++ took
# most of a device test's compile (test_codec_device.cu: 31 of 54 s). Set for the tests/ directory
# tree, not per target, because nvcc warns about a second -O on one command line.
foreach(config IN ITEMS RELEASE RELWITHDEBINFO MINSIZEREL)
  string(REGEX REPLACE "(^| )-O[0-9s]?( |$)" "\\1-O0\\2" CMAKE_CUDA_FLAGS_${config} "${CMAKE_CUDA_FLAGS_${config}}")
endforeach()

# ringkernel_test_precompile_gtest(<dir>): every GoogleTest target of <dir> and its subdirectories
# with 3 or more C++ sources compiles <gtest/gtest.h> once, as a precompiled header (it took 2 of
# the 3-6 s of a test source's compile at -O0, with g++ and clang++ alike). In clang builds all of
# them; in GCC builds those at -O0 only (ringkernel_test_optimization), whose sources include no
# annotated message header: g++ 12 ignores -Wno-attributes=ringkernel:: in a source compiled with a
# precompiled header ("'ringkernel::message' scoped attribute directive ignored", an error under
# -Werror), which fails every source of the codec and messaging tests. A source of an -O0 target that
# annotates a struct itself compiles without the header (below); one that includes an annotated
# header fails with that error and needs the same (SKIP_PRECOMPILE_HEADERS). Called at the end of
# tests/CMakeLists.txt, when every target exists.
function(ringkernel_test_precompile_gtest dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(links ${target} LINK_LIBRARIES)
    get_target_property(sources ${target} SOURCES)
    get_target_property(o0 ${target} RINGKERNEL_TEST_O0)
    list(FILTER sources INCLUDE REGEX "\\.cpp$")
    list(LENGTH sources cxx_sources)
    if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY)$" AND links MATCHES "GTest::gtest" AND cxx_sources GREATER 2
       AND (CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR o0))
      target_precompile_headers(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:<gtest/gtest.h$<ANGLE-R>>")
      if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        # A source that annotates a struct itself compiles without the precompiled header (above).
        foreach(source IN LISTS sources)
          get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${dir}")
          set(annotations "")
          if(EXISTS "${path}")  # not a source the build generates
            file(STRINGS "${path}" annotations REGEX "\\[\\[ringkernel::")
          endif()
          if(annotations)
            set_source_files_properties("${path}" DIRECTORY "${dir}" PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
          endif()
        endforeach()
      endif()
    endif()
  endforeach()
  get_property(subdirectories DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    ringkernel_test_precompile_gtest("${subdirectory}")
  endforeach()
endfunction()
