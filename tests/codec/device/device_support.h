// Copyright RingKernel authors.
// What the codec's device tests share: the reason a test cannot run here, a checked CUDA call, an
// owning device buffer and the fixture that skips visibly without a device.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace codec_test {

/// Why the test cannot run here, or empty when a device is usable.
inline std::string no_device_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) return std::string("no CUDA device: ") + cudaGetErrorString(e);
  if (count == 0) return "no CUDA device: cudaGetDeviceCount returned 0";
  return {};
}

// The error the call returned (not cudaGetLastError(), which the call may already have reset).
#define CODEC_CUDA_OK(call)                                                                      \
  do {                                                                                           \
    const cudaError_t codec_cuda_error_ = (call);                                                \
    ASSERT_EQ(codec_cuda_error_, cudaSuccess) << #call << ": " << cudaGetErrorName(codec_cuda_error_) \
                                              << ": " << cudaGetErrorString(codec_cuda_error_);  \
  } while (0)

template <class T>
struct device_buffer {
  T* ptr = nullptr;
  explicit device_buffer(std::size_t n) {  // a failed allocation fails the test (gtest reports the exception)
    if (const cudaError_t e = cudaMalloc(&ptr, n * sizeof(T)); e != cudaSuccess) {
      throw std::runtime_error("cudaMalloc(" + std::to_string(n * sizeof(T)) + " bytes): " + cudaGetErrorString(e));
    }
  }
  ~device_buffer() { cudaFree(ptr); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
};

class CodecDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string reason = no_device_reason();
    if (!reason.empty()) GTEST_SKIP() << reason;
  }
};

}  // namespace codec_test
