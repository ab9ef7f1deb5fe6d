// Copyright RingKernel authors.
// Test helper: the test seam of runtime/src/queue_memory_seam.h (host-backend device memory as GPU
// memory for the queues) for one scope. Needs runtime/src on the include path.
#pragma once

#include "queue_memory_seam.h"

namespace ringkernel::test {

/// The seam on (or off) while it lives, off however the scope ends. Make it while no queue or
/// QueueStorage is being constructed (see queue_memory_seam.h).
struct DeviceMemoryAsGpuMemory {
  explicit DeviceMemoryAsGpuMemory(bool on = true) { detail::treat_host_device_memory_as_gpu_memory_for_testing(on); }
  ~DeviceMemoryAsGpuMemory() { detail::treat_host_device_memory_as_gpu_memory_for_testing(false); }
  DeviceMemoryAsGpuMemory(const DeviceMemoryAsGpuMemory&) = delete;
  DeviceMemoryAsGpuMemory& operator=(const DeviceMemoryAsGpuMemory&) = delete;
};

}  // namespace ringkernel::test
