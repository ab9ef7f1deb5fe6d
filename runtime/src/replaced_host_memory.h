// Copyright RingKernel authors.
// Whether memory given to an object of a replaced host configuration is device memory of the
// current one (the error text then says which side is the earlier one: DeviceBuffer's transfers and
// Stream::copy_async).
#pragma once

#include "backend.h"
#include "registry.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

/// Whether `p` is device memory of the current host configuration while `backend` is a host backend
/// it replaced (an object made before configure_host_backend()).
inline bool of_current_host_configuration(const void* p, const DeviceBackend& backend) {
  if (backend.kind() != Backend::host) return false;
  try {
    for (const auto& b : Registry::instance().backends())
      if (b.get() != &backend && b->kind() == Backend::host && b->owner_of(p) >= 0) return true;
  } catch (const Error&) {  // a pending configuration error: there is no current host configuration
  }
  return false;
}

}  // namespace ringkernel::detail
