// Copyright RingKernel authors.
// CUDA driver API calls as the CUDA backend makes them: looked up through the runtime
// (cudaGetDriverEntryPointByVersion), since libcuda is not linked (a machine without a driver must
// still load RingKernel). A call that the driver lacks, or that cannot be looked up, is null.
// Only the CUDA backend's files include it (compiled with CUDA only).
#pragma once

#include <cudaTypedefs.h>  // PFN_<call>_v<version>: types only
#include <cuda_runtime_api.h>

namespace ringkernel::detail::cuda_driver {

/// The driver's `symbol` in the ABI version `version` (cudaTypedefs.h names its pointer type
/// PFN_<symbol>_v<version>), or null where the lookup fails (no driver, a driver without it); the
/// lookup's error is cleared from the runtime's last-error state.
template <class Pointer>
Pointer entry_point(const char* symbol, unsigned int version) noexcept {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(symbol, &f, version, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess || f == nullptr) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return reinterpret_cast<Pointer>(f);
}

/// cuCtxGetCurrent and cuCtxSetCurrent, both or neither: the calling thread's current context (null
/// where none is bound, cuda.h) and binding one (null unbinds it, cuda.h). Looked up once, on the
/// first call.
struct ContextCalls {
  PFN_cuCtxGetCurrent_v4000 get_current = nullptr;
  PFN_cuCtxSetCurrent_v4000 set_current = nullptr;
};

inline const ContextCalls& context_calls() noexcept {
  static const ContextCalls calls = [] {
    ContextCalls c{entry_point<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent", 4000),
                   entry_point<PFN_cuCtxSetCurrent_v4000>("cuCtxSetCurrent", 4000)};
    if (c.get_current == nullptr || c.set_current == nullptr) c = ContextCalls{};
    return c;
  }();
  return calls;
}

/// The calling thread's current context: null where none is bound, or where the driver's context
/// calls cannot be looked up.
inline CUcontext current_context() noexcept {
  const auto& driver = context_calls();
  CUcontext c = nullptr;
  if (driver.get_current == nullptr || driver.get_current(&c) != CUDA_SUCCESS) return nullptr;
  return c;
}

}  // namespace ringkernel::detail::cuda_driver
