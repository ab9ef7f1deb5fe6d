// Copyright RingKernel authors.
// The two devices of a peer operation, resolved together, and the memory check that names memory of
// another backend or host configuration as such (shared by PeerMemory's copies and mappings).
#pragma once

#include <cstddef>

#include "registry.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

struct DevicePair {
  DeviceRef src;
  DeviceRef dst;
};

/// Error(errc::invalid_state) naming `call`: configure_host_backend() replaced the host
/// configuration while `call` ran (it made or looked up objects in two configurations).
/// `outcome` says what the call did not do ("nothing was copied").
[[noreturn]] void throw_overtaken(const char* call, int device, const char* outcome);
inline constexpr const char* nothing_copied = "nothing was copied";  // the outcome of a copy
/// Whether `e` is throw_overtaken's (to say another outcome for the call that made it).
bool overtaken(const Error& e);

/// Both devices, looked up together (Registry::resolve_pair: one configuration, whatever another
/// thread's configure_host_backend() does meanwhile), which must belong to one backend:
/// Error(errc::unsupported) naming `call` otherwise.
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
