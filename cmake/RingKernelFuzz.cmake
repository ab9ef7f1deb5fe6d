# libFuzzer targets of the test suite (internal, not installed):
#
#   ringkernel_fuzzing_supported(<out-var>)
#       TRUE in clang builds that are not ThreadSanitizer/MemorySanitizer builds (the fuzzers bring
#       AddressSanitizer) and RINGKERNEL_BUILD_FUZZ is ON; else FALSE, with a status line saying
#       why. A clang that cannot link -fsanitize=fuzzer,address,undefined (libclang-rt-19-dev /
#       libfuzzer-19-dev missing) stops the configure with a message saying so and naming the
#       option that turns the fuzz targets off, rather than dropping them unnoticed.
#   ringkernel_add_fuzz_smoke_test(<target> NAME <test> CORPUS <dir> RUNS <n> SECONDS <s> MAX_LEN <bytes>)
#       Compiles <target> (an existing executable holding LLVMFuzzerTestOneInput) with
#       -fsanitize=fuzzer,address,undefined and adds CTest <test> (label fuzz): at most RUNS inputs or
#       SECONDS seconds, starting from the checked-in seed corpus CORPUS (only read) and from the
#       inputs earlier runs added to the working corpus <build dir>/corpus_<test> (new inputs go
#       there, never into the source tree). An input that crashes, breaks a check (abort) or runs
#       longer than 10 s fails the test and is written to <build dir>/<test>-crash-<sha1> (or
#       -timeout-, -leak-, -oom-), the path in the output; rerun it with `<target> <that file>`.
function(ringkernel_fuzzing_supported out)
  option(RINGKERNEL_BUILD_FUZZ "Build the libFuzzer targets and their smoke tests (clang builds without TSan/MSan)" ON)
  if(NOT RINGKERNEL_BUILD_FUZZ)
    message(STATUS "RingKernel: fuzz targets in ${CMAKE_CURRENT_SOURCE_DIR} skipped (RINGKERNEL_BUILD_FUZZ is OFF)")
    set(${out} FALSE PARENT_SCOPE)
  elseif(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(STATUS "RingKernel: fuzz targets in ${CMAKE_CURRENT_SOURCE_DIR} need clang (have ${CMAKE_CXX_COMPILER_ID}); skipped")
    set(${out} FALSE PARENT_SCOPE)
  elseif(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*(thread|memory)")
    message(STATUS "RingKernel: fuzz targets in ${CMAKE_CURRENT_SOURCE_DIR} skipped in a thread/memory-sanitizer build")
    set(${out} FALSE PARENT_SCOPE)
  else()
    include(CheckCXXSourceCompiles)
    include(CMakePushCheckState)
    cmake_push_check_state(RESET)
    set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")  # what the targets link with
    set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer,address,undefined")
    set(CMAKE_REQUIRED_QUIET TRUE)
    check_cxx_source_compiles([[
      #include <cstddef>
      #include <cstdint>
      extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }]]
      RINGKERNEL_CXX_LINKS_FUZZER_ASAN_UBSAN)
    cmake_pop_check_state()
    if(NOT RINGKERNEL_CXX_LINKS_FUZZER_ASAN_UBSAN)
      unset(RINGKERNEL_CXX_LINKS_FUZZER_ASAN_UBSAN CACHE)  # checked again after the install
      message(FATAL_ERROR "RingKernel: ${CMAKE_CXX_COMPILER} cannot link -fsanitize=fuzzer,address,undefined, "
                          "which the fuzz targets (label fuzz) need: install clang's runtime libraries "
                          "(Debian: libclang-rt-19-dev and libfuzzer-19-dev, as scripts/setup.sh does), or "
                          "configure with -DRINGKERNEL_BUILD_FUZZ=OFF to build the other tests without them")
    endif()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

function(ringkernel_add_fuzz_smoke_test target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAME;CORPUS;RUNS;SECONDS;MAX_LEN" "")
  foreach(required NAME CORPUS RUNS SECONDS MAX_LEN)
    if(NOT DEFINED arg_${required})
      message(FATAL_ERROR "ringkernel_add_fuzz_smoke_test(${target}): ${required} is required")
    endif()
  endforeach()
  target_compile_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all)
  target_link_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined)
  set(work "${CMAKE_CURRENT_BINARY_DIR}/corpus_${arg_NAME}")
  file(MAKE_DIRECTORY "${work}")
  # -timeout: an input that hangs is reported (and written out) long before CTest's TIMEOUT.
  add_test(NAME ${arg_NAME}
           COMMAND ${target} -runs=${arg_RUNS} -max_total_time=${arg_SECONDS} -max_len=${arg_MAX_LEN}
                   -timeout=10 -print_final_stats=1 "-artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/${arg_NAME}-"
                   "${work}" "${arg_CORPUS}")
  set_tests_properties(${arg_NAME} PROPERTIES LABELS fuzz TIMEOUT 300)
endfunction()
