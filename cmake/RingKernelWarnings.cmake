# Warnings are errors for project code (never for consumers of the installed package).
add_library(ringkernel_warnings INTERFACE)
target_compile_options(ringkernel_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>
  $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
