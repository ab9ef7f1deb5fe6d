# Keeps every compiler quiet about [[ringkernel::message]] in the consumers of RingKernel::runtime, so
# annotated headers build warning-free under -Werror. Solved once, as usage requirements of the
# runtime target (they travel with find_package/add_subdirectory/FetchContent alike):
#   g++ >= 12 : -Wno-attributes=ringkernel::   (only our namespace)
#   g++ < 12  : -Wno-attributes                (older GCC cannot name a namespace)
#   clang++   : -Wno-unknown-attributes        (clang has no per-namespace switch)
#   nvcc      : -diag-suppress=2803            ("attribute namespace "ringkernel" is unrecognized")
#   nvcc -rdc : also -Xcompiler=-Wno-attributes (relocatable device code hands the host compiler the
#               attribute itself; g++ and clang++ both know the option, and CMake cannot tell
#               which one nvcc runs)
function(ringkernel_quiet_attributes target)
  set(gnu_new "$<AND:$<COMPILE_LANG_AND_ID:CXX,GNU>,$<VERSION_GREATER_EQUAL:$<CXX_COMPILER_VERSION>,12>>")
  set(gnu_old "$<AND:$<COMPILE_LANG_AND_ID:CXX,GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,12>>")
  target_compile_options(${target} INTERFACE
    "$<${gnu_new}:-Wno-attributes=ringkernel::>"
    "$<${gnu_old}:-Wno-attributes>"
    "$<$<COMPILE_LANG_AND_ID:CXX,Clang,AppleClang,IntelLLVM>:-Wno-unknown-attributes>"
    "$<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:-diag-suppress=2803>"
    "$<$<AND:$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>,$<BOOL:$<TARGET_PROPERTY:CUDA_SEPARABLE_COMPILATION>>>:-Xcompiler=-Wno-attributes>")
endfunction()
