// Copyright RingKernel authors.
// CUDA runtime calls as the CUDA backend makes them: an error becomes a ringkernel::Error naming
// the CUDA error, the call and the device; release paths drop errors and the last-error state;
// a scope with one device current, and one with a stream's or event's own context. Only the CUDA
// backend's files include it (compiled with CUDA only).
#pragma once

#include <cuda_runtime_api.h>

#include <new>  // std::nothrow_t
#include <string>

#include "cuda_driver_entry.h"
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

/// An error after which no CUDA call of this process can succeed: a sticky one, or one that says
/// the driver cannot be used at all (driver_types.h: the driver and runtime "could not be
/// initialized", an insufficient driver, no device, a stub library, the driver unloading, a display
/// and CUDA driver mismatch). Any other error is the call's own, of the devices it names.
constexpr bool is_unusable_cuda_error(cudaError_t e) noexcept {
  switch (e) {
    case cudaErrorInitializationError:
    case cudaErrorCudartUnloading:
    case cudaErrorStubLibrary:
    case cudaErrorInsufficientDriver:
    case cudaErrorNoDevice:
    case cudaErrorSystemDriverMismatch:
      return true;
    default:
      return is_sticky_cuda_error(e);
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

/// Makes `device` current for the scope and leaves the calling thread as it found it after: its
/// previous device current again or, in a thread that had no context bound (one that made no CUDA
/// call yet), none bound. Not cudaSetDevice(<previous>) there: cudaSetDevice "will also immediately
/// initialize the runtime state on the primary context" (cuda_runtime_api.h, CUDA 13; a change of
/// CUDA 12.0, pytorch/pytorch#91219), so a process that uses only another GPU would pay for a
/// context on that device (memory, time), and it "will return an error if the device is in
/// cudaComputeModeExclusiveProcess and is occupied by another process". Unbinding is
/// cuCtxSetCurrent(nullptr) (cuda_driver_entry.h); where the driver's context calls cannot be looked
/// up, the previous device is made current again as before. A thread with no context bound gets
/// `device`'s bound for the scope also where `device` is the one it has current (0 unless it chose
/// another): a call inside would otherwise bind that context itself and leave it bound, and a driver
/// call inside (which binds nothing) would fail. There the thread's device is not asked for
/// (cudaGetDevice): the guard unbinds after, whichever it was.
class DeviceGuard {
 public:
  /// Throws (check) where `device` cannot be made current.
  explicit DeviceGuard(int device) {
    const char* call = nullptr;
    const cudaError_t e = enter(device, call);  // sets `call` (not in check's arguments: their order is unspecified)
    check(e, call, device);
  }
  /// For release paths: never throws; current() says whether `device` is current.
  DeviceGuard(int device, std::nothrow_t) noexcept {
    const char* call = nullptr;
    const cudaError_t e = enter(device, call);
    ignore_error(e);
    current_ = e == cudaSuccess;
  }
  ~DeviceGuard() {
    if (!switched_) return;
    if (unbound_) {  // the thread had no context: it gets none back
      (void)cuda_driver::context_calls().set_current(nullptr);
      return;
    }
    int now = previous_;
    const cudaError_t e = cudaGetDevice(&now);
    ignore_error(e);
    if (e == cudaSuccess && now != previous_) ignore_error(cudaSetDevice(previous_));
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

  bool current() const noexcept { return current_; }

 private:
  // The thread's context is read first, before any runtime call that might bind one.
  cudaError_t enter(int device, const char*& call) noexcept {
    const auto& driver = cuda_driver::context_calls();
    CUcontext bound = nullptr;
    unbound_ = driver.get_current != nullptr && driver.get_current(&bound) == CUDA_SUCCESS && bound == nullptr;
    cudaError_t e = cudaSuccess;
    if (!unbound_) {
      call = "cudaGetDevice";
      e = cudaGetDevice(&previous_);
    }
    if (e == cudaSuccess && (unbound_ || previous_ != device)) {
      call = "cudaSetDevice";
      e = cudaSetDevice(device);
      switched_ = e == cudaSuccess;
    }
    current_ = e == cudaSuccess;
    return e;
  }

  int previous_ = 0;
  bool unbound_ = false;   // no context was bound when the guard began (known only with the driver's calls)
  bool switched_ = false;  // this guard made a context current: the destructor undoes it
  bool current_ = false;
};

/// Runs a call on a stream or an event in the object's own context, `own` (the one current when the
/// object was made; null: unknown, and nothing is done), and leaves the calling thread's context as
/// it was after. The CUDA runtime's calls "operate on the CUDA Driver API CUcontext which is current
/// to the calling host thread", and in a thread with none current, a call "which requires an active
/// context" has "the primary context for a device ... selected, made current to the calling thread,
/// and initialized" (cuda_runtime_api.h, CUDA 13, "Interactions with the CUDA Driver API"). Which
/// device's is not said: the thread's current device's (0 unless it chose another) is the runtime's
/// rule elsewhere, a context a process using only other GPUs never needed, and it stays bound.
/// Which calls require one is not documented either; the driver
/// calls behind these (cuStreamSynchronize, cuEventRecord, cuStreamDestroy, cuEventDestroy,
/// cuMemcpyAsync, ...) document CUDA_ERROR_INVALID_CONTEXT, so every call of the backend on its
/// streams and events is taken to need one. Where another context is current (another device's),
/// the Programming Guide ("Stream and Event Behavior") promises only that cudaEventSynchronize and
/// cudaEventQuery succeed with another device current: every call switches. Cost: one
/// cuCtxGetCurrent per call (the thread's state, no device work) where `own` is current already;
/// two cuCtxSetCurrent more where it is not. No runtime call is made, so the runtime's own idea of
/// the thread's current device is left alone.
class ContextScope {
 public:
  explicit ContextScope(CUcontext own) noexcept {
    const auto& driver = cuda_driver::context_calls();
    if (own == nullptr || driver.get_current == nullptr || driver.get_current(&previous_) != CUDA_SUCCESS ||
        previous_ == own)
      return;
    switched_ = driver.set_current(own) == CUDA_SUCCESS;
  }
  ~ContextScope() {
    if (switched_) (void)cuda_driver::context_calls().set_current(previous_);
  }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  CUcontext previous_ = nullptr;  // null: the thread had none, and gets none back
  bool switched_ = false;
};

}  // namespace ringkernel::detail::cuda_call
