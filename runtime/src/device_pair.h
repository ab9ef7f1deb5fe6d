// Copyright RingKernel authors.
// The two devices of a peer operation, resolved together, and the memory check that names memory of
// another backend or host configuration as such (shared by PeerMemory's copies and mappings).
#pragma once

#include <cstddef>

#include "registry.h"

namespace ringkernel::detail {

struct DevicePair {
  DeviceRef src;
  DeviceRef dst;
};

/// Both devices, which must belong to one backend: Error(errc::unsupported) naming `call` otherwise.
DevicePair resolve_device_pair(int src, int dst, const char* call);

/// What the memory is given to: a copy's error for host memory adds that Stream::copy_async copies
/// between host and device memory; a mapping's does not.
enum class DeviceMemoryUse { copy, mapping };

/// DeviceBackend::check_device_range, but memory of another backend or of a replaced host
/// configuration (a buffer whose device() still says the id) is named as such
/// (Registry::foreign_memory), not "not memory of device N".
void check_device_memory(const DeviceRef& d, const void* p, std::size_t bytes, const char* call, const char* what,
                         DeviceMemoryUse use);

}  // namespace ringkernel::detail
