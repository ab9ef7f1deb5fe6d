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
/// One claim for the whole warp: the leader lane claims a slot per active lane on `counter` (lag 0
/// for producers, 1 for consumers) and broadcasts the result; each lane learns its own position.
struct warp_claim_result {
  unsigned long long position;  // this lane's ring position (valid when claimed)
  bool claimed;
};

template <class Ring, class Counter>
__device__ warp_claim_result warp_claim(const Ring& ring, Counter counter, std::size_t lag) noexcept {
  const unsigned active = __activemask();
  const unsigned lane = lane_id();
  const int leader = __ffs(static_cast<int>(active)) - 1;
  const unsigned rank = static_cast<unsigned>(__popc(active & ((1u << lane) - 1u)));
  unsigned long long first = 0;
  unsigned claimed = 0;
  if (static_cast<int>(lane) == leader) {
    std::uint64_t start = 0;
    claimed = static_cast<unsigned>(ring.claim(counter, start, static_cast<std::size_t>(__popc(active)), lag));
    first = start;
  }
  first = __shfl_sync(active, first, leader);
  claimed = __shfl_sync(active, claimed, leader);
  return {first + rank, rank < claimed};
}

}  // namespace detail

/// Called by every active lane of a warp (divergent callers are fine: the active mask decides).
template <class T, atomic_scope Scope>
__device__ bool warp_push(const mpmc_ring<T, Scope>& ring, const T& value) noexcept {
  const detail::warp_claim_result claim = detail::warp_claim(ring, ring.head(), 0);
  if (!claim.claimed) return false;
  const unsigned long long pos = claim.position;
  auto& slot = ring.slot_at(pos);
  slot.value = value;
  mpmc_ring<T, Scope>::seq(slot).store(pos + 1, detail::order::release);
  return true;
}

/// Every active lane asks for one message; lanes ranked below the number available get one.
template <class T, atomic_scope Scope>
__device__ bool warp_pop(const mpmc_ring<T, Scope>& ring, T& out) noexcept {
  const detail::warp_claim_result claim = detail::warp_claim(ring, ring.tail(), 1);
  if (!claim.claimed) return false;
  const unsigned long long pos = claim.position;
  auto& slot = ring.slot_at(pos);
  out = slot.value;
  mpmc_ring<T, Scope>::seq(slot).store(pos + ring.capacity(), detail::order::release);
  return true;
}

}  // namespace ringkernel

#endif  // __CUDACC__
