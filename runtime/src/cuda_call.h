// Copyright RingKernel authors.
// CUDA runtime calls as the CUDA backend makes them: an error becomes a ringkernel::Error naming
// the CUDA error, the call and the device; release paths drop errors and the last-error state;
// a scope with one device current. Only the CUDA backend's files include it (compiled with CUDA only).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "ringkernel/error.h"

namespace ringkernel::detail::cuda_call {

/// The errors that driver_types.h (CUDA 13) documents as leaving the process "in an inconsistent
/// state": "any further CUDA work will return the same error. To continue using CUDA, the process
/// must be terminated and relaunched" (cudaErrorAssert: "The device cannot be used again"). A
/// kernel fault (an illegal address, a trap, an assert) is the usual cause; cudaGetLastError does
/// not clear them, so every later call fails with the same error, whatever the call. The values of
/// the errors that older CUDA 12 headers lack are spelt as numbers (they are ABI: stable).
constexpr bool is_sticky_cuda_error(cudaError_t e) noexcept {
  switch (static_cast<int>(e)) {
    case 226:  // cudaErrorContained (an exception contained by the GPU's error containment)
    case static_cast<int>(cudaErrorIllegalAddress):
    case static_cast<int>(cudaErrorLaunchTimeout):
    case static_cast<int>(cudaErrorAssert):
    case static_cast<int>(cudaErrorHardwareStackError):
    case static_cast<int>(cudaErrorIllegalInstruction):
    case static_cast<int>(cudaErrorMisalignedAddress):
    case static_cast<int>(cudaErrorInvalidAddressSpace):
    case static_cast<int>(cudaErrorInvalidPc):
    case static_cast<int>(cudaErrorLaunchFailure):
    case 721:  // cudaErrorTensorMemoryLeak
    case static_cast<int>(cudaErrorMpsClientTerminated):
    case 911:  // cudaErrorExternalDevice
      return true;
    default:
      return false;
  }
}

/// "<name> (<string>)", and for a sticky error (is_sticky_cuda_error) what it means: the error
/// may come from earlier work (a kernel of this program, another thread's) rather than the call
/// that reports it. Pure apart from cudaGetErrorName/String, table look-ups that need no GPU.
inline std::string describe_cuda_error(cudaError_t e) {
  std::string text = std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
  if (is_sticky_cuda_error(e))
    text += "; a sticky error: an earlier fault (usually a kernel's: an illegal address, a trap or an "
            "assert) left the CUDA context unusable, every later CUDA call fails with it, and the "
            "process must be restarted to use CUDA again";
  return text;
}

/// Throws for anything but cudaSuccess; clears the last-error state first (which does not clear a
/// sticky error: is_sticky_cuda_error).
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
