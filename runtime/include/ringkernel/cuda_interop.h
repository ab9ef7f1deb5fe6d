// Copyright RingKernel authors.
// Typed access to the CUDA objects behind a ringkernel::Stream or Event of the cuda backend, for
// launching your kernels in order with the runtime's copies and events:
//
//   ringkernel::Stream s(gpu.id);
//   s.copy_async(device_in, host_in, bytes);
//   cudaSetDevice(gpu.ordinal);  // a launch goes to the current device: the stream's must be current
//   my_kernel<<<grid, block, 0, ringkernel::cuda_stream(s)>>>(...);  // after the copy
//   done.record(s);                                                   // after the kernel
//
// Needs the CUDA toolkit's headers (a .cu file, or a C++ target linking CUDA::cudart). A stream or
// event of the host backend has no CUDA object: Error(errc::unsupported) naming the device.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "ringkernel/error.h"
#include "ringkernel/event.h"
#include "ringkernel/stream.h"

namespace ringkernel {

/// The cudaStream_t of `stream` (owned by it: do not destroy it).
inline cudaStream_t cuda_stream(const Stream& stream) {
  if (void* handle = stream.native_handle()) return static_cast<cudaStream_t>(handle);
  throw Error(errc::unsupported, "ringkernel::cuda_stream", stream.device(),
              "the stream of device " + std::to_string(stream.device()) +
                  " is a host-backend stream (a worker thread), which has no cudaStream_t");
}

/// The cudaEvent_t of `event` (owned by it: do not destroy it).
inline cudaEvent_t cuda_event(const Event& event) {
  if (void* handle = event.native_handle()) return static_cast<cudaEvent_t>(handle);
  throw Error(errc::unsupported, "ringkernel::cuda_event", event.device(),
              "the event of device " + std::to_string(event.device()) +
                  " is a host-backend event, which has no cudaEvent_t");
}

}  // namespace ringkernel
