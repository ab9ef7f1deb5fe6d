// Copyright RingKernel authors.
// Host memory aligned like cudaMalloc's (256 bytes), for the host backend's buffers and for queue
// storage in host memory.
#pragma once

#include <cstddef>
#include <limits>
#include <new>

namespace ringkernel::detail {

inline constexpr std::align_val_t host_memory_alignment{256};

/// Aligned host memory, or null. Sizes near SIZE_MAX are refused here: the aligned operator new
/// rounds the size up to the alignment, which wraps to a few bytes and succeeds.
inline void* allocate_aligned_host(std::size_t bytes) noexcept {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max())) return nullptr;
  return ::operator new(bytes, host_memory_alignment, std::nothrow);
}

/// Frees what allocate_aligned_host returned (null is fine).
inline void free_aligned_host(void* p) noexcept { ::operator delete(p, host_memory_alignment); }

}  // namespace ringkernel::detail
