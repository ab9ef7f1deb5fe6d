// Copyright RingKernel authors.
// How the CUDA backend words CUDA errors (runtime/src/cuda_call.h): the error's name and string, and
// for the errors CUDA documents as sticky ("the process must be terminated and relaunched") what
// that means. cudaGetErrorName/String are table look-ups in the CUDA runtime, so this runs without
// a GPU or a driver (label unit).
#include "cuda_call.h"

#include <gtest/gtest.h>

#include <string>

#include "expect_error.h"

namespace {

using ringkernel::errc;
using ringkernel::detail::cuda_call::check;
using ringkernel::detail::cuda_call::describe_cuda_error;
using ringkernel::detail::cuda_call::is_sticky_cuda_error;

constexpr const char* restart = "the process must be restarted";

TEST(CudaCall, StickyErrorsAreTheOnesCudaSaysNeedARestart) {
  // Every error driver_types.h (CUDA 13) documents with "must be terminated and relaunched".
  for (const int value : {226, 700, 702, 710, 714, 715, 716, 717, 718, 719, 721, 810, 911})
    EXPECT_TRUE(is_sticky_cuda_error(static_cast<cudaError_t>(value))) << value;
  EXPECT_TRUE(is_sticky_cuda_error(cudaErrorIllegalAddress));
  EXPECT_TRUE(is_sticky_cuda_error(cudaErrorLaunchFailure));
  EXPECT_TRUE(is_sticky_cuda_error(cudaErrorAssert));
  // Errors a program recovers from.
  for (const cudaError_t e : {cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation, cudaErrorNotReady,
                              cudaErrorInvalidDevice, cudaErrorPeerAccessAlreadyEnabled, cudaErrorDevicesUnavailable,
                              cudaErrorInvalidResourceHandle, cudaErrorLaunchOutOfResources})
    EXPECT_FALSE(is_sticky_cuda_error(e)) << cudaGetErrorName(e);
}

TEST(CudaCall, AStickyErrorSaysTheContextIsUnusable) {
  const std::string text = describe_cuda_error(cudaErrorIllegalAddress);
  EXPECT_EQ(text.rfind("cudaErrorIllegalAddress (", 0), 0u) << text;
  EXPECT_NE(text.find("left the CUDA context unusable"), std::string::npos) << text;
  EXPECT_NE(text.find(restart), std::string::npos) << text;
  // Named after whatever call reported it, with the explanation.
  EXPECT_RK_ERROR(check(cudaErrorLaunchFailure, "cudaMemcpyAsync", 3), errc::backend_failure,
                  "ringkernel: cudaMemcpyAsync (device 3): backend failure: cudaErrorLaunchFailure (");
  EXPECT_RK_ERROR(check(cudaErrorAssert, "cudaStreamSynchronize", 0), errc::backend_failure, restart);
}

TEST(CudaCall, OtherErrorsAreNameAndStringOnly) {
  EXPECT_EQ(describe_cuda_error(cudaErrorInvalidValue),
            std::string("cudaErrorInvalidValue (") + cudaGetErrorString(cudaErrorInvalidValue) + ")");
  EXPECT_RK_ERROR(check(cudaErrorMemoryAllocation, "cudaMalloc", 1), errc::out_of_memory,
                  "cudaErrorMemoryAllocation (out of memory)");
  try {
    check(cudaErrorInvalidValue, "cudaMemcpyAsync", 0);
    ADD_FAILURE() << "no error";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(std::string(e.what()).find(restart), std::string::npos) << e.what();
  }
  check(cudaSuccess, "cudaMalloc", 0);  // no throw
}

}  // namespace
