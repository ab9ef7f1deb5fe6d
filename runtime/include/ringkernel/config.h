// Copyright RingKernel authors.
// Portability macros shared by host and device code. Every public runtime header includes this first.
#pragma once

#if defined(__CUDACC__)
#define RINGKERNEL_HOST_DEVICE __host__ __device__
#define RINGKERNEL_DEVICE __device__
#else
#define RINGKERNEL_HOST_DEVICE
#define RINGKERNEL_DEVICE
#endif

#if defined(__CUDA_ARCH__)
#define RINGKERNEL_IS_DEVICE_CODE 1
#else
#define RINGKERNEL_IS_DEVICE_CODE 0
#endif

#define RINGKERNEL_VERSION_MAJOR 0
#define RINGKERNEL_VERSION_MINOR 1
#define RINGKERNEL_VERSION_PATCH 0

// Around the runtime headers whose templates name a user's message or field type (T, F): a
// [[deprecated]] message, field type or enum warns where the user's own code names it, not inside
// RingKernel's templates instantiated for it (encode, decode, KernelMessage<T>, the envelope codec),
// as the generated files' RINGKERNEL_GEN_DEPRECATED_PUSH does (templates/generated_macros.mustache).
// nvcc's front end reports such a use at the template as 1444 (1215 without a message); clang++ a
// deprecated enum at the __underlying_type that detail/field_type.h applies to it. The state at the
// template is what counts: a push/pop around the user's call does not reach it.
#if defined(__NVCC__)
#define RINGKERNEL_DETAIL_NV_DEPRECATED_PUSH _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1215,1444")
#define RINGKERNEL_DETAIL_NV_DEPRECATED_POP _Pragma("nv_diagnostic pop")
#else
#define RINGKERNEL_DETAIL_NV_DEPRECATED_PUSH
#define RINGKERNEL_DETAIL_NV_DEPRECATED_POP
#endif
#if defined(__GNUC__) || defined(__clang__)
#define RINGKERNEL_DEPRECATED_USES_PUSH \
  RINGKERNEL_DETAIL_NV_DEPRECATED_PUSH _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
#define RINGKERNEL_DEPRECATED_USES_POP _Pragma("GCC diagnostic pop") RINGKERNEL_DETAIL_NV_DEPRECATED_POP
#else
#define RINGKERNEL_DEPRECATED_USES_PUSH RINGKERNEL_DETAIL_NV_DEPRECATED_PUSH
#define RINGKERNEL_DEPRECATED_USES_POP RINGKERNEL_DETAIL_NV_DEPRECATED_POP
#endif
