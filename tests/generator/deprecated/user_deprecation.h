// What a user writes around their own uses of a [[deprecated]] type so that -Werror builds pass:
// g++ and clang++ report them as -Wdeprecated-declarations, nvcc's front end as 1444 (1215 without a
// message). The deprecated-message tests use it wherever their own code names such a type.
#pragma once

#if defined(__NVCC__)
#define USER_NV_DEPRECATION_OFF _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1215,1444")
#define USER_NV_DEPRECATION_ON _Pragma("nv_diagnostic pop")
#else
#define USER_NV_DEPRECATION_OFF
#define USER_NV_DEPRECATION_ON
#endif
#define USER_DEPRECATION_OFF \
  USER_NV_DEPRECATION_OFF _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
#define USER_DEPRECATION_ON _Pragma("GCC diagnostic pop") USER_NV_DEPRECATION_ON
