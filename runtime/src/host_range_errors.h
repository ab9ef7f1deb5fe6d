// Copyright RingKernel authors.
// The errors of a range taken for host memory, as both backends' allocation tables report them
// (HostAllocations::check_host_range, CudaAllocations::check_host_range).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "pointer_text.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

inline std::string host_range_text(const char* what, const void* p, std::size_t bytes) {
  return std::string(what) + " range [" + hex(p) + ", " + hex(p) + " + " + std::to_string(bytes) + ")";
}

/// Throws Error(out_of_range) if [p, p + bytes), bytes > 0, wraps around the end of the address
/// space (no memory does; a range ending exactly there does not wrap).
inline void check_host_range_does_not_wrap(const void* p, std::size_t bytes, const char* call, const char* what) {
  if (bytes - 1 > std::numeric_limits<std::uintptr_t>::max() - reinterpret_cast<std::uintptr_t>(p))
    throw Error(errc::out_of_range, call, no_device,
                host_range_text(what, p, bytes) + " wraps around the end of the address space");
}

/// Throws Error(out_of_range): [p, p + bytes), taken for host memory, runs into the allocation of
/// `size` bytes at `start` of device `device`.
[[noreturn]] inline void throw_host_range_runs_into(const void* p, std::size_t bytes, const char* call,
                                                    const char* what, std::uintptr_t start, std::size_t size,
                                                    int device) {
  throw Error(errc::out_of_range, call, device,
              host_range_text(what, p, bytes) + " runs into the allocation of " + std::to_string(size) +
                  " bytes at " + hex(reinterpret_cast<const void*>(start)) + " of device " + std::to_string(device));
}

}  // namespace ringkernel::detail
