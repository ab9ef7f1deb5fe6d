// Copyright RingKernel authors.
// CUDA_CHECK for the gpu tests: ends the test at once on a CUDA error, naming the call and the error
// (a helper function's ASSERT would return only from the helper, and the test would go on to wait
// for kernels that never started).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#define CUDA_CHECK(call)                                                                                 \
  do {                                                                                                   \
    const cudaError_t cuda_check_error_ = (call);                                                        \
    ASSERT_EQ(cuda_check_error_, cudaSuccess) << #call << ": " << cudaGetErrorName(cuda_check_error_) \
                                              << ": " << cudaGetErrorString(cuda_check_error_);          \
  } while (0)
