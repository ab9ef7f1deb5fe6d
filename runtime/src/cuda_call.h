// Copyright RingKernel authors.
// CUDA runtime calls as the CUDA backend makes them: an error becomes a ringkernel::Error naming
// the CUDA error, the call and the device; release paths drop errors and the last-error state;
// a scope with one device current. Only the CUDA backend's files include it (compiled with CUDA only).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "ringkernel/error.h"

namespace ringkernel::detail::cuda_call {

inline std::string describe_cuda_error(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

/// Throws for anything but cudaSuccess; clears the sticky-free last-error state first.
inline void check(cudaError_t e, const char* call, int device) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();
  throw Error(e == cudaErrorMemoryAllocation ? errc::out_of_memory : errc::backend_failure, call,
              device, describe_cuda_error(e));
}

/// For destructors and release paths: an error is dropped, and so is the last-error state it set,
/// which a caller's later cudaGetLastError() (after its own kernel launch) would otherwise report.
inline void ignore_error(cudaError_t e) noexcept {
  if (e != cudaSuccess) (void)cudaGetLastError();
}

/// Makes `device` current for the scope and restores the caller's current device after.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    check(cudaGetDevice(&previous_), "cudaGetDevice", device);
    if (previous_ != device) check(cudaSetDevice(device), "cudaSetDevice", device);
  }
  ~DeviceGuard() {
    int now = previous_;
    const cudaError_t e = cudaGetDevice(&now);
    ignore_error(e);
    if (e == cudaSuccess && now != previous_) ignore_error(cudaSetDevice(previous_));
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace ringkernel::detail::cuda_call
