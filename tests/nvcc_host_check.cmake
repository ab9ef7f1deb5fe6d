# ringkernel_add_clang_host_check(<target> <source.cu>)
# Adds test <target>.clang_host (label unit, compile only, no GPU): nvcc compiles <source.cu> with
# clang++ as the host compiler (-ccbin), with <target>'s include directories and definitions and
# the project's warnings-as-errors. The project's own CUDA builds use g++ as host compiler, so this
# is where headers meet clang through nvcc: cudafe++ rewrites non-ASCII characters in string
# literals as octal escapes, which clang (18 and later) rejects in static_assert messages.
find_program(RINGKERNEL_CUDA_CLANG_HOST NAMES clang++-19 clang++)
function(ringkernel_add_clang_host_check target source)
  if(NOT RINGKERNEL_CUDA_CLANG_HOST OR CMAKE_CUDA_HOST_COMPILER MATCHES "clang")
    return()
  endif()
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  add_test(NAME ${target}.clang_host
    COMMAND "${CMAKE_CUDA_COMPILER}" -ccbin "${RINGKERNEL_CUDA_CLANG_HOST}" -std=c++20 -arch=sm_90
            -Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror -diag-suppress=2803 -Xptxas=-O0
            "-I${PROJECT_SOURCE_DIR}/runtime/include" "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
            "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
            -c "${source}" -o "${CMAKE_CURRENT_BINARY_DIR}/${target}.clang_host.o"
    COMMAND_EXPAND_LISTS)
  set_tests_properties(${target}.clang_host PROPERTIES LABELS unit TIMEOUT 600)
endfunction()
