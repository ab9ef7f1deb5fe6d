// Copyright RingKernel authors.
// Whether two ranges of one length overlap (the same-device checks of DeviceBuffer::upload/download
// and PeerMemory's copies).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ringkernel::detail {

/// Overlap of [a, a + n) and [b, b + n); never for n == 0.
inline bool ranges_overlap(const void* a, const void* b, std::size_t n) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return n != 0 && x < y + n && y < x + n;
}

}  // namespace ringkernel::detail
