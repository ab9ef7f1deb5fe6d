# Copyright RingKernel authors.
# The warning sets users build with, which the public runtime headers and the generated code must
# pass under -Werror (tests strict_warnings.*; docs/cmake.md, "Warnings in your build"). Consumers
# include both through non-SYSTEM paths (add_subdirectory; generated headers always live in the
# build tree), so every warning these sets enable would fire in their builds.

# g++: the usual strict set, and the further warnings of g++'s manual that strict code bases add
# (second and third lines). Not in it: -Wswitch-default (as for clang, below) and -Wcast-align=strict,
# which reports every cast of a byte pointer to a wider type: SSE2's unaligned load takes a
# `const __m128i*`, and decode copies fields at byte offsets.
set(RINGKERNEL_STRICT_GCC_WARNINGS
  -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wold-style-cast -Wcast-qual -Wundef
  -Wnon-virtual-dtor -Woverloaded-virtual -Wzero-as-null-pointer-constant -Wdouble-promotion -Wuseless-cast
  -Wduplicated-cond -Wlogical-op -Wnull-dereference -Wextra-semi -Wredundant-decls -Wmissing-declarations
  -Wduplicated-branches -Wswitch-enum -Wfloat-equal -Wformat=2 -Wsign-promo -Wsuggest-override -Wcast-align
  -Wimplicit-fallthrough=5 -Wunused-const-variable=2 -Wvla -Walloca -Warith-conversion -Wmismatched-tags
  -Wredundant-tags -Wcomma-subscript -Wvolatile -Wdeprecated-copy-dtor -Wcatch-value=3 -Wctor-dtor-privacy
  -Wstrict-null-sentinel)

# clang++: everything, less the warnings that are no project's policy (each with its reason).
set(RINGKERNEL_STRICT_CLANG_WARNINGS
  -Weverything
  -Wno-c++98-compat -Wno-c++98-compat-pedantic  # compatibility with C++98: the headers need C++20
  -Wno-pre-c++20-compat-pedantic  # C++20 features "incompatible with C++17": the headers need C++20
  -Wno-c++20-compat  # code whose meaning changed in C++20, a concern of C++17 code bases only
  -Wno-padded  # reports every struct with padding; the layouts are fixed by design (and asserted)
  -Wno-unsafe-buffer-usage  # every pointer subscript and arithmetic: clang's Safe Buffers model, for code bases adopting it
  # Fires on every switch without `default`, even one that names every enumerator, where
  # -Wcovered-switch-default fires on a `default` (llvm/llvm-project#81354, #85233): no enum switch
  # passes both, so -Weverything users drop one. The headers keep -Wswitch-enum and
  # -Wcovered-switch-default clean: a new enumerator must be handled where the enum is switched on.
  -Wno-switch-default)

# nvcc's host compiler (g++): the g++ set, less four warnings that host code nvcc itself generates
# trips, whatever the headers do, so no user with kernels can enable them through -Xcompiler:
#   -Wpedantic                      cudafe++'s `# <line> "<file>"` line markers (a GCC extension)
#   -Wold-style-cast                the kernel launch and registration stubs (<file>.cudafe1.stub.c)
#   -Wuseless-cast                  the stubs' casts of class-type kernel parameters to their own type
#   -Wzero-as-null-pointer-constant the same stubs; and cudafe++ rewrites `nullptr` in default
#                                   arguments as `0` (MessageStamper's clock = nullptr)
set(RINGKERNEL_STRICT_NVCC_HOST_WARNINGS ${RINGKERNEL_STRICT_GCC_WARNINGS})
list(REMOVE_ITEM RINGKERNEL_STRICT_NVCC_HOST_WARNINGS
  -Wpedantic -Wold-style-cast -Wuseless-cast -Wzero-as-null-pointer-constant)
