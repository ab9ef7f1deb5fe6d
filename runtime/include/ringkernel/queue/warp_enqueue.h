// Copyright RingKernel authors.
// Device-side queue operations for CUDA kernels (warp_push & co. work under nvcc only: a host
// compiler stops at a call with a static_assert saying so; the algorithms behind them, detail::*_on,
// compile everywhere, for the host tests' simulated warps):
//   warp_push / warp_pop on an mpmc_ring: the active lanes of a warp share ONE claim. Each lane
//   loads its own slot's sequence word (acquire; the lanes' loads go out together), a ballot finds
//   how many lanes, in lane order, have a ready slot, and the lowest active lane claims that many
//   positions with one CAS on the index and broadcasts the outcome with __shfl_sync. Then each
//   lane writes or reads its own slot and publishes it with its own release store. A lane that got
//   no position in this claim gets false: the ring was full / empty at its position or at a
//   lower-ranked lane's (a claim covers the lanes below the first one whose slot was not ready, so
//   a later lane whose own slot was ready also gets false; call again); lanes keep their order by
//   lane id. The per-lane acquire is what orders each lane's payload access after the party that
//   freed or published its slot (a shuffle is not a memory operation, so one lane's acquire would
//   not order the others'), and it costs one load latency per claim instead of one per lane.
//   The group is whoever __activemask() reports at the call, and that is safe here: however the
//   lanes happen to arrive (all together, or in several groups under independent thread
//   scheduling), each lane's own message is claimed once, by the group it arrived in; only how
//   many lanes share a claim depends on it. Lanes may pass different rings (each lane's message to
//   the queue of its destination): the group then makes one claim per ring, each on that ring's
//   own index. These calls order no memory between lanes.
//   warp_push_batch / warp_pop_batch: the lanes of `mask` cooperate on ONE array of messages, so
//   the group must be exactly the lanes the caller means, never __activemask() (lanes that split
//   under independent thread scheduling would each move the whole array): the caller states the
//   mask, as for the __*_sync intrinsics, and the call begins and ends with __syncwarp(mask). Up
//   to warp_batch_per_lane messages per lane per claim: the lanes check their slots together
//   (relaxed loads issued back to back, then one acquire fence per lane), one CAS claims the ready
//   run, each lane copies its share and publishes it after one release fence. Fewer claims per
//   message is what lets many warps share one ring without losing most CASes to each other.
// Ticketed rings (device / block scope, mpmc_ring.h): the lowest lane takes credits and positions
// for the group with two fetch_adds instead of the CAS above (with every warp of a GPU on one ring,
// the CAS's one winner per round trip was the bottleneck), and the lanes wait for their slots, only
// for parties under way (what full / empty / fewer then mean: docs/messaging.md §3).
// How the lanes claim (single messages, runs for batches, ticketed rings): warp_claim.h.
// Single-thread device code uses the rings' own try_push / try_pop / batch calls directly.
// The algorithms are written against a Warp (warp_collectives.h): kernels call warp_push & co.,
// which use the CUDA warp; the tests run the same code on host threads playing the lanes
// (detail::warp_push_on & co. with a simulated warp).
// Scope: use mpmc_ring<T, atomic_scope::device> for a ring in device memory that only kernels of
// that GPU touch, all in the same memory synchronization domain (kernels launched into different
// domains, e.g. with cudaLaunchAttributeMemSyncDomain, need system: see atomic_scope in
// atomic_word.h); atomic_scope::system for pinned host memory or peer memory, and
// mpmc_ring<T, system, device> (claims at device scope, slot words and fences at system scope:
// mpmc_ring.h, top) for pinned host memory whose index only this GPU's threads claim on, as
// MpmcQueue::kernel_ring() hands out.
#pragma once

#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/warp_claim.h"
#include "ringkernel/queue/warp_collectives.h"

namespace ringkernel::detail {

/// warp_push on any Warp (see warp_push below).
template <class Warp, class T, atomic_scope Scope, atomic_scope IndexScope>
RINGKERNEL_WARP_FUNCTION bool warp_push_on(const Warp& warp, const mpmc_ring<T, Scope, IndexScope>& ring, const T& value) noexcept {
  const warp_claim_result claim = warp_claim(warp, ring, ring.head(), 0);
  if (claim.claimed) {
    const unsigned long long pos = claim.position;
    auto& slot = ring.slot_at(pos);
    slot.value = value;
    mpmc_ring<T, Scope, IndexScope>::seq(slot).store(pos + 1, order::release);
  }
  if constexpr (mpmc_ring<T, Scope, IndexScope>::ticketed) warp_add_credits(warp, claim.active, claim.claimed, ring.credits(1));
  return claim.claimed;
}

/// warp_pop on any Warp (see warp_pop below).
template <class Warp, class T, atomic_scope Scope, atomic_scope IndexScope>
RINGKERNEL_WARP_FUNCTION bool warp_pop_on(const Warp& warp, const mpmc_ring<T, Scope, IndexScope>& ring, T& out) noexcept {
  const warp_claim_result claim = warp_claim(warp, ring, ring.tail(), 1);
  if (claim.claimed) {
    const unsigned long long pos = claim.position;
    auto& slot = ring.slot_at(pos);
    out = slot.value;
    mpmc_ring<T, Scope, IndexScope>::seq(slot).store(pos + ring.capacity(), order::release);
  }
  if constexpr (mpmc_ring<T, Scope, IndexScope>::ticketed) warp_add_credits(warp, claim.active, claim.claimed, ring.credits(0));
  return claim.claimed;
}

/// warp_push_batch on any Warp (see warp_push_batch below).
template <class Warp, class T, atomic_scope Scope, atomic_scope IndexScope>
RINGKERNEL_WARP_FUNCTION unsigned warp_push_batch_on(const Warp& warp, unsigned mask, const mpmc_ring<T, Scope, IndexScope>& ring,
                                                     const T* values, unsigned n) noexcept {
  // Lanes of the mask that have exited (returned early, or past the end of a partial warp) are
  // left out: counted in, their share of each claim would be claimed for nobody to check, fill or
  // publish, and the ring would stall at the first such slot (or a slot still being read would be
  // overwritten).
  mask = warp.running(mask);
  warp.sync(mask);  // every lane of the mask is here, and the values they staged are visible to all
  const warp_group g = warp_group::of_lanes(warp, mask);
  const unsigned lanes = g.lanes, rank = g.rank;
  unsigned done = 0;
  while (done < n) {
    const warp_run run = warp_claim_run(warp, g, ring, ring.head(), 0, n - done);
    if (run.count == 0) break;
    for (unsigned i = rank; i < run.count; i += lanes) ring.slot_at(run.first + i).value = values[done + i];
    atomic_fence<Scope>(order::release);  // this lane's payloads before its publications
    for (unsigned i = rank; i < run.count; i += lanes) {
      mpmc_ring<T, Scope, IndexScope>::seq(ring.slot_at(run.first + i)).store(run.first + i + 1, order::relaxed);
    }
    if constexpr (mpmc_ring<T, Scope, IndexScope>::ticketed) {
      warp.sync(mask);  // every lane has published its share: the run is published
      if (g.is_leader()) ring.credits(1).fetch_add(run.count, order::relaxed);
    }
    done += run.count;
  }
  warp.sync(mask);  // every lane has read its share of `values`: the caller may overwrite them
  return done;
}

/// warp_pop_batch on any Warp (see warp_pop_batch below).
template <class Warp, class T, atomic_scope Scope, atomic_scope IndexScope>
RINGKERNEL_WARP_FUNCTION unsigned warp_pop_batch_on(const Warp& warp, unsigned mask, const mpmc_ring<T, Scope, IndexScope>& ring,
                                                    T* out, unsigned n) noexcept {
  mask = warp.running(mask);  // without the lanes of the mask that have exited (see warp_push_batch_on)
  warp.sync(mask);  // every lane of the mask is here (and done with `out`, if it read it before)
  const warp_group g = warp_group::of_lanes(warp, mask);
  const unsigned lanes = g.lanes, rank = g.rank;
  unsigned done = 0;
  while (done < n) {
    const warp_run run = warp_claim_run(warp, g, ring, ring.tail(), 1, n - done);
    if (run.count == 0) break;
    for (unsigned i = rank; i < run.count; i += lanes) out[done + i] = ring.slot_at(run.first + i).value;
    atomic_fence<Scope>(order::release);  // this lane's payload reads before the slots are freed
    for (unsigned i = rank; i < run.count; i += lanes) {
      mpmc_ring<T, Scope, IndexScope>::seq(ring.slot_at(run.first + i)).store(run.first + i + ring.capacity(), order::relaxed);
    }
    if constexpr (mpmc_ring<T, Scope, IndexScope>::ticketed) {
      warp.sync(mask);  // every lane has freed its share: the run is free
      if (g.is_leader()) ring.credits(0).fetch_add(run.count, order::relaxed);
    }
    done += run.count;
  }
  warp.sync(mask);  // every lane's share of `out` is visible to every lane of the mask
  return done;
}

}  // namespace ringkernel::detail

#if defined(__CUDACC__)

namespace ringkernel {

/// Called by any lanes of a warp, converged or not, each with its own message and ring: the lanes
/// that execute the call together (__activemask()) and pass the same ring share one claim (lanes
/// with different rings: one claim per ring). Returns whether this lane's message was pushed
/// (false: this lane got no position in this claim: the ring was full at its position or at a
/// lower-ranked lane's, ticketed rings: too few free credits, some perhaps held or not yet given
/// back by others, docs/messaging.md §3; call again; lanes are served in lane order). No mask is
/// needed: whichever other lanes took part, each lane's message is pushed once or not at all.
template <class T, atomic_scope Scope, atomic_scope IndexScope>
__device__ bool warp_push(const mpmc_ring<T, Scope, IndexScope>& ring, const T& value) noexcept {
  return detail::warp_push_on(detail::cuda_warp{}, ring, value);
}

/// Every lane that executes the call asks for one message from its ring (grouped as for
/// warp_push); lanes ranked below the number available in their ring get one, in lane order
/// (false: none in this claim; call again). System rings: empty at its position or a lower-ranked
/// lane's, even a slot claimed but not yet published with messages behind it. Ticketed rings: fewer
/// published credits than its rank; a lane waits for its position's producer (docs/messaging.md §3).
template <class T, atomic_scope Scope, atomic_scope IndexScope>
__device__ bool warp_pop(const mpmc_ring<T, Scope, IndexScope>& ring, T& out) noexcept {
  return detail::warp_pop_on(detail::cuda_warp{}, ring, out);
}

// The batch calls are collective over `mask` (typically 0xffffffffu), like the __*_sync
// intrinsics, whose order of arguments they follow (the mask first):
//  - every lane of `mask` calls, with the same arguments (mask, ring, array, n); the calling lane
//    is in `mask`; lanes outside it do not call (they may call with a mask of their own, a
//    disjoint one). Lanes of the mask that have exited (returned early, or past the end of a
//    block whose size is not a multiple of 32) are left out: the others do the batch alone. Lanes
//    of the mask need not arrive converged: the call begins with __ballot_sync(mask, true) and
//    __syncwarp, which wait for all of them. Decide whether to call with a warp-uniform value
//    (e.g. __any_sync / __shfl_sync over the mask), or some lanes would wait in vain;
//  - that entry __syncwarp also orders every lane's earlier accesses to the array before the
//    call's own: the values a warp stages in shared or global memory just before warp_push_batch
//    are visible to whichever lane copies them, and reads of a previous warp_pop_batch's `out`
//    are done before this call overwrites it;
//  - the call ends with __syncwarp(mask): on return every lane of the mask has finished with the
//    array (warp_push_batch: the caller may overwrite `values`; warp_pop_batch: all of `out`,
//    whichever lane wrote it, is visible to every lane of the mask), and all return the same count.

/// Pushes values[0, n) in order (memory every lane of the mask can read). Returns how many were
/// pushed, the same on every lane: n, or fewer when the ring filled up (ticketed: §3 of the docs).
template <class T, atomic_scope Scope, atomic_scope IndexScope>
__device__ unsigned warp_push_batch(unsigned mask, const mpmc_ring<T, Scope, IndexScope>& ring, const T* values,
                                    unsigned n) noexcept {
  return detail::warp_push_batch_on(detail::cuda_warp{}, mask, ring, values, n);
}

/// Pops up to n messages in order into out[0, ...) (memory every lane of the mask can write: global
/// or shared; each lane writes its share). Returns how many, the same on every lane (0: the ring
/// was empty; ticketed: docs/messaging.md §3).
template <class T, atomic_scope Scope, atomic_scope IndexScope>
__device__ unsigned warp_pop_batch(unsigned mask, const mpmc_ring<T, Scope, IndexScope>& ring, T* out, unsigned n) noexcept {
  return detail::warp_pop_batch_on(detail::cuda_warp{}, mask, ring, out, n);
}

}  // namespace ringkernel

#else  // a host compiler: the calls exist only to say, at the call, why they cannot be used here

namespace ringkernel {
namespace detail {
template <class...>
inline constexpr bool device_call_in_host_code = false;

// What warp_push & co. are in host code: objects, not functions, so that argument-dependent lookup
// and overload resolution never prefer them to a user's own function of the same name (a host-side
// simulation called unqualified on a ring); a call through ringkernel:: stops the build saying why.
struct host_warp_push {
  template <class... Args>
  bool operator()(Args&&...) const noexcept {
    static_assert(device_call_in_host_code<Args...>,
                  "ringkernel::warp_push is device code: call it in a kernel, in a file nvcc compiles as CUDA "
                  "(.cu); host threads use a ring's try_push or a queue's send / try_send");
    return false;
  }
};
struct host_warp_pop {
  template <class... Args>
  bool operator()(Args&&...) const noexcept {
    static_assert(device_call_in_host_code<Args...>,
                  "ringkernel::warp_pop is device code: call it in a kernel, in a file nvcc compiles as CUDA "
                  "(.cu); host threads use a ring's try_pop or a queue's receive / try_receive");
    return false;
  }
};
struct host_warp_push_batch {
  template <class... Args>
  unsigned operator()(Args&&...) const noexcept {
    static_assert(device_call_in_host_code<Args...>,
                  "ringkernel::warp_push_batch is device code: call it in a kernel, in a file nvcc compiles as CUDA "
                  "(.cu); host threads use a ring's try_push_batch or a queue's send_batch / try_send_batch");
    return 0u;
  }
};
struct host_warp_pop_batch {
  template <class... Args>
  unsigned operator()(Args&&...) const noexcept {
    static_assert(device_call_in_host_code<Args...>,
                  "ringkernel::warp_pop_batch is device code: call it in a kernel, in a file nvcc compiles as CUDA "
                  "(.cu); host threads use a ring's try_pop_batch or a queue's receive_batch");
    return 0u;
  }
};
}  // namespace detail

// constexpr at namespace scope: internal linkage, so no name is shared with a CUDA file's functions
// ([[maybe_unused]]: g++ -Wunused-const-variable=2 reports them in every file that does not use them).
[[maybe_unused]] constexpr detail::host_warp_push warp_push{};
[[maybe_unused]] constexpr detail::host_warp_pop warp_pop{};
[[maybe_unused]] constexpr detail::host_warp_push_batch warp_push_batch{};
[[maybe_unused]] constexpr detail::host_warp_pop_batch warp_pop_batch{};

}  // namespace ringkernel

#endif  // __CUDACC__
