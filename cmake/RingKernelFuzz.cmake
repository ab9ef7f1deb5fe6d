# libFuzzer targets of the test suite (internal, not installed):
#
#   ringkernel_fuzzing_supported(<out-var>)
#       TRUE in clang builds that are not ThreadSanitizer/MemorySanitizer builds (the fuzzers bring
#       AddressSanitizer); else FALSE, with a status line saying why.
#   ringkernel_add_fuzz_smoke_test(<target> NAME <test> CORPUS <dir> RUNS <n> SECONDS <s> MAX_LEN <bytes>)
#       Compiles <target> (an existing executable holding LLVMFuzzerTestOneInput) with
#       -fsanitize=fuzzer,address,undefined and adds CTest <test> (label fuzz): at most RUNS inputs or
#       SECONDS seconds, starting from the checked-in seed corpus CORPUS (only read; new inputs go to
#       a scratch directory in the build tree).
function(ringkernel_fuzzing_supported out)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(STATUS "RingKernel: fuzz targets in ${CMAKE_CURRENT_SOURCE_DIR} need clang (have ${CMAKE_CXX_COMPILER_ID}); skipped")
    set(${out} FALSE PARENT_SCOPE)
  elseif(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*(thread|memory)")
    message(STATUS "RingKernel: fuzz targets in ${CMAKE_CURRENT_SOURCE_DIR} skipped in a thread/memory-sanitizer build")
    set(${out} FALSE PARENT_SCOPE)
  else()
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
  add_test(NAME ${arg_NAME}
           COMMAND ${target} -runs=${arg_RUNS} -max_total_time=${arg_SECONDS} -max_len=${arg_MAX_LEN}
                   -print_final_stats=1 "${work}" "${arg_CORPUS}")
  set_tests_properties(${arg_NAME} PROPERTIES LABELS fuzz TIMEOUT 300)
endfunction()
