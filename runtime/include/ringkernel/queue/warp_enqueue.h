// Copyright RingKernel authors.
// Device-side queue operations for CUDA kernels (compiled only by nvcc; empty otherwise):
//   warp_push / warp_pop on an mpmc_ring: the active lanes of a warp share ONE claim (one CAS on
//   the index, by the lowest active lane, broadcast with __shfl_sync), then each lane writes or
//   reads its own slot and publishes it with its own release store. A lane whose position did not
//   fit (queue full / empty) gets false; lanes keep their order by lane id.
// Single-thread device code uses the rings' own try_push / try_pop / batch calls directly.
// Scope: use mpmc_ring<T, atomic_scope::device> for a ring in device memory that only kernels of
// that GPU touch, atomic_scope::system for pinned host memory or peer memory.
#pragma once

#include "ringkernel/config.h"
#include "ringkernel/queue/mpmc_ring.h"

#if defined(__CUDACC__)

namespace ringkernel {

namespace detail {
__device__ inline unsigned lane_id() noexcept {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
}  // namespace detail

/// Called by every active lane of a warp (divergent callers are fine: the active mask decides).
template <class T, atomic_scope Scope>
__device__ bool warp_push(const mpmc_ring<T, Scope>& ring, const T& value) noexcept {
  const unsigned active = __activemask();
  const unsigned lane = detail::lane_id();
  const int leader = __ffs(static_cast<int>(active)) - 1;
  const unsigned rank = static_cast<unsigned>(__popc(active & ((1u << lane) - 1u)));
  unsigned long long pos = 0;
  unsigned claimed = 0;
  if (static_cast<int>(lane) == leader) {
    std::uint64_t first = 0;
    claimed = static_cast<unsigned>(ring.claim(ring.head(), first, static_cast<std::size_t>(__popc(active)), 0));
    pos = first;
  }
  pos = __shfl_sync(active, pos, leader);
  claimed = __shfl_sync(active, claimed, leader);
  if (rank >= claimed) return false;
  auto& slot = ring.slot_at(pos + rank);
  slot.value = value;
  mpmc_ring<T, Scope>::seq(slot).store(pos + rank + 1, detail::order::release);
  return true;
}

/// Every active lane asks for one message; lanes ranked below the number available get one.
template <class T, atomic_scope Scope>
__device__ bool warp_pop(const mpmc_ring<T, Scope>& ring, T& out) noexcept {
  const unsigned active = __activemask();
  const unsigned lane = detail::lane_id();
  const int leader = __ffs(static_cast<int>(active)) - 1;
  const unsigned rank = static_cast<unsigned>(__popc(active & ((1u << lane) - 1u)));
  unsigned long long pos = 0;
  unsigned claimed = 0;
  if (static_cast<int>(lane) == leader) {
    std::uint64_t first = 0;
    claimed = static_cast<unsigned>(ring.claim(ring.tail(), first, static_cast<std::size_t>(__popc(active)), 1));
    pos = first;
  }
  pos = __shfl_sync(active, pos, leader);
  claimed = __shfl_sync(active, claimed, leader);
  if (rank >= claimed) return false;
  auto& slot = ring.slot_at(pos + rank);
  out = slot.value;
  mpmc_ring<T, Scope>::seq(slot).store(pos + rank + ring.capacity(), detail::order::release);
  return true;
}

}  // namespace ringkernel

#endif  // __CUDACC__
