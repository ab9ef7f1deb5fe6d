# cmake -DCPP=<generator/src/cpp_spelling.cpp> -DCMAKE_NAMES=<cmake/RingKernelGenerateNames.cmake> -P this
# The C++ keywords that ringkernel-gen's cppIdentifier() renames (kKeywords) and the copy of that list
# that RingKernelGenerateNames.cmake uses to foresee a registry's namespace must be the same words:
# a keyword missing from one side would have the second-REGISTRY error name a wrong namespace.
file(READ "${CPP}" cpp_text)
if(NOT cpp_text MATCHES "kKeywords = {([^}]*)}")
  message(FATAL_ERROR "check_registry_keywords: no kKeywords = {...} in ${CPP}")
endif()
string(REGEX MATCHALL "\"[a-z0-9_]+\"" cpp_words "${CMAKE_MATCH_1}")
list(TRANSFORM cpp_words REPLACE "\"" "")
file(READ "${CMAKE_NAMES}" cmake_text)
if(NOT cmake_text MATCHES "set\\(keywords ([^)]*)\\)")
  message(FATAL_ERROR "check_registry_keywords: no set(keywords ...) in ${CMAKE_NAMES}")
endif()
string(REGEX MATCHALL "[a-z0-9_]+" cmake_words "${CMAKE_MATCH_1}")
list(SORT cpp_words)
list(SORT cmake_words)
list(LENGTH cpp_words n)
if(NOT cpp_words STREQUAL cmake_words OR n LESS 90)
  set(only_cpp ${cpp_words})
  list(REMOVE_ITEM only_cpp ${cmake_words})
  set(only_cmake ${cmake_words})
  list(REMOVE_ITEM only_cmake ${cpp_words})
  message(FATAL_ERROR "check_registry_keywords: the keyword lists differ (${n} in ${CPP}); only in the C++ list: "
                      "'${only_cpp}'; only in the CMake list: '${only_cmake}'")
endif()
message(STATUS "check_registry_keywords: the same ${n} keywords")
