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
