// Copyright RingKernel authors.
// Device-side queue operations for CUDA kernels (compiled only by nvcc; empty otherwise):
//   warp_push / warp_pop on an mpmc_ring: the active lanes of a warp share ONE claim. Each lane
//   loads its own slot's sequence word (acquire; the lanes' loads go out together), a ballot finds
//   how many lanes, in lane order, have a ready slot, and the lowest active lane claims that many
//   positions with one CAS on the index and broadcasts the outcome with __shfl_sync. Then each
//   lane writes or reads its own slot and publishes it with its own release store. A lane whose
//   slot was not ready (queue full / empty at its position) gets false; lanes keep their order by
//   lane id. The per-lane acquire is what orders each lane's payload access after the party that
//   freed or published its slot (a shuffle is not a memory operation, so one lane's acquire would
//   not order the others'), and it costs one load latency per claim instead of one per lane.
// Single-thread device code uses the rings' own try_push / try_pop / batch calls directly.
// Scope: use mpmc_ring<T, atomic_scope::device> for a ring in device memory that only kernels of
// that GPU touch, atomic_scope::system for pinned host memory or peer memory.
#pragma once

#include "ringkernel/config.h"
#include "ringkernel/queue/mpmc_ring.h"

namespace ringkernel::detail {

/// The lanes one warp claim covers: the active lanes, in lane order, below the first active lane
/// whose slot is not ready (every active lane when all are ready). Host-callable, for the tests.
RINGKERNEL_HOST_DEVICE constexpr unsigned ready_prefix(unsigned active, unsigned ready) noexcept {
  const unsigned not_ready = active & ~ready;
  return active & ((not_ready & (0u - not_ready)) - 1u);  // bits below the lowest not-ready lane
}

}  // namespace ringkernel::detail

#if defined(__CUDACC__)

namespace ringkernel {

namespace detail {
__device__ inline unsigned lane_id() noexcept {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
/// One claim for the whole warp on `counter` (ready offset `lag`: 0 for producers, whose slot of
/// position p must hold p; 1 for consumers, whose slot must hold p + 1). Every active lane learns
/// its own position and whether it was claimed.
struct warp_claim_result {
  unsigned long long position;  // this lane's ring position (valid when claimed)
  bool claimed;
};

template <class Ring, class Counter>
__device__ warp_claim_result warp_claim(const Ring& ring, Counter counter, std::uint64_t lag) noexcept {
  const unsigned active = __activemask();
  const unsigned lane = lane_id();
  const int leader = __ffs(static_cast<int>(active)) - 1;
  const unsigned rank = static_cast<unsigned>(__popc(active & ((1u << lane) - 1u)));
  for (;;) {
    unsigned long long first = 0;
    if (static_cast<int>(lane) == leader) first = counter.load(order::relaxed);
    first = __shfl_sync(active, first, leader);
    const unsigned long long pos = first + rank;
    const std::int64_t d = position_diff(Ring::seq(ring.slot_at(pos)).load(order::acquire), pos + lag);
    const unsigned claim = ready_prefix(active, __ballot_sync(active, d == 0));
    if (claim == 0) {
      // The leader's own slot decides: behind (full / empty) ends the attempt; ahead means another
      // party took `first` since it was read: look again.
      if (__shfl_sync(active, static_cast<long long>(d), leader) < 0) return {pos, false};
      continue;
    }
    int won = 0;
    if (static_cast<int>(lane) == leader) {
      std::uint64_t expected = first;
      won = counter.compare_exchange_weak(expected, first + static_cast<unsigned>(__popc(claim)), order::relaxed);
    }
    if (__shfl_sync(active, won, leader) != 0) return {pos, ((claim >> lane) & 1u) != 0};
  }
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
