# Warnings in project code: -Wall -Wextra, errors where RINGKERNEL_WARNINGS_AS_ERRORS is on (the
# default when RingKernel is the top-level project: its own builds and CI; off in a consumer's
# add_subdirectory/FetchContent build). Never for consumers of the installed package.
add_library(ringkernel_warnings INTERFACE)
if(RINGKERNEL_WARNINGS_AS_ERRORS)
  target_compile_options(ringkernel_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
else()
  target_compile_options(ringkernel_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
endif()

# g++ 12 (Debian 12's compiler) reports -Wrestrict on libstdc++'s own std::string code once -O3
# inlines it ("accessing 9223372036854775809 or more bytes ... may overlap", GCC bug 105329), e.g.
# for `"text" + std::to_string(n)`. Release builds (-O3) of the generator and the runtime failed
# on it; the warning is off for that compiler only. Consumers compile the public headers with
# their own flags: the cmake tests build one consumer at -O3 with -Wall -Wextra -Werror, and its
# runtime_use.cpp instantiates the public templates (no warning there, checked with g++ 12).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(ringkernel_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
endif()
