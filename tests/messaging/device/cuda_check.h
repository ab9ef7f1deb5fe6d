// Copyright RingKernel authors.
// CUDA_CHECK for the gpu tests: ends the test at once on a CUDA error, naming the call and the error
// (a helper function's ASSERT would return only from the helper, and the test would go on to wait
// for kernels that never started). CUDA_PRELOAD: see below.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#define CUDA_CHECK(call)                                                                                 \
  do {                                                                                                   \
    const cudaError_t cuda_check_error_ = (call);                                                        \
    ASSERT_EQ(cuda_check_error_, cudaSuccess) << #call << ": " << cudaGetErrorName(cuda_check_error_) \
                                              << ": " << cudaGetErrorString(cuda_check_error_);          \
  } while (0)

// Loads a kernel now. CUDA loads kernels lazily by default (CUDA_MODULE_LOADING=LAZY, the default
// on Linux since CUDA 12.2): at its first launch, and the load may have to wait for the kernels
// already running in the context to finish. A consumer kernel that spins until a producer kernel
// launched after it runs would then hold up the producer's load until the consumer gives up (the
// CUDA Programming Guide's Lazy Loading section names this case). Preload every kernel of such a
// pair before launching the first; cudaFuncGetAttributes loads the kernel.
#define CUDA_PRELOAD(kernel)                                             \
  do {                                                                   \
    cudaFuncAttributes cuda_preload_attributes_{};                       \
    CUDA_CHECK(cudaFuncGetAttributes(&cuda_preload_attributes_, kernel)); \
  } while (0)
