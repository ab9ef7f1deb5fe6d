// Copyright RingKernel authors.
// Device-side queue operations for CUDA kernels (warp_push & co. exist under nvcc only; the
// algorithms behind them, detail::*_on, compile everywhere, for the host tests' simulated warps):
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
#include "ringkernel/queue/warp_collectives.h"

namespace ringkernel::detail {

/// The lanes one warp claim covers: the active lanes, in lane order, below the first active lane
/// whose slot is not ready (every active lane when all are ready). Host-callable, for the tests.
RINGKERNEL_HOST_DEVICE constexpr unsigned ready_prefix(unsigned active, unsigned ready) noexcept {
  const unsigned not_ready = active & ~ready;
  return active & ((not_ready & (0u - not_ready)) - 1u);  // bits below the lowest not-ready lane
}

/// Up to warp_batch_per_lane positions per participating lane that a warp checks and claims at once.
inline constexpr unsigned warp_batch_per_lane = 8;

/// One lane's share of a batch claim's check. The lane of rank `rank` (of `lanes`) looked at the
/// offsets rank, rank + lanes, ... below `span` of a run starting at position `first`; seen[k] is
/// the sequence word it read for offset rank + k * lanes. Returns the first of those offsets whose
/// slot is not ready (word != first + offset + lag), or `span` when all are. The run a warp
/// claims is the minimum over its lanes. Host-callable, for the tests.
RINGKERNEL_HOST_DEVICE constexpr unsigned lane_first_not_ready(const std::uint64_t* seen, unsigned rank, unsigned lanes,
                                                                unsigned span, std::uint64_t first,
                                                                std::uint64_t lag) noexcept {
  unsigned not_ready = span;
  for (unsigned k = warp_batch_per_lane; k-- > 0;) {
    const unsigned offset = rank + k * lanes;
    if (offset < span && position_diff(seen[k], first + offset + lag) != 0) not_ready = offset;
  }
  return not_ready;
}

}  // namespace ringkernel::detail

namespace ringkernel::detail {

/// One claim for the whole warp on `counter` (ready offset `lag`: 0 for producers, whose slot of
/// position p must hold p; 1 for consumers, whose slot must hold p + 1). Every active lane learns
/// its own position and whether it was claimed.
struct warp_claim_result {
  unsigned long long position;  // this lane's ring position (valid when claimed)
  bool claimed;
  unsigned active = 0;  // the lanes that took part (warp_claim's collectives were over these)
};

/// The lanes of `active` still `pending` that claim on the same counter word as the lowest pending
/// lane: the same ring and the same side (head for pushes, tail for pops; lanes of one warp may
/// reach one claim from a push and a pop of the same ring, should they run converged). Every lane
/// of `active` calls it.
template <class Warp>
RINGKERNEL_WARP_FUNCTION unsigned same_counter_lanes(const Warp& warp, unsigned active, unsigned pending,
                                                     const void* counter_word) noexcept {
  const auto mine = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(counter_word));
  const unsigned long long first = warp.shfl(active, mine, lowest_lane(pending));
  return warp.ballot(active, ((pending >> warp.lane()) & 1u) != 0 && mine == first);
}

/// The claim of the lanes of `group` (those of `active` that claim on `counter`), made by all lanes of
/// `active` together: every collective is over `active`; lanes outside `group` vote "not ready",
/// touch no memory, and their result means nothing.
template <class Warp, class Ring, class Counter>
RINGKERNEL_WARP_FUNCTION warp_claim_result warp_claim_group(const Warp& warp, unsigned active, unsigned group,
                                                            const Ring& ring, Counter counter,
                                                            std::uint64_t lag) noexcept {
  const warp_group g = warp_group::of_lanes(warp, group);  // rank and leader within the group
  const unsigned lane = g.lane;
  const bool member = ((group >> lane) & 1u) != 0;
  const int leader = g.leader;
  if constexpr (Ring::ticketed) {
    // The leader takes credits and positions for the group (two fetch_adds, never lost); the lanes
    // ranked below what it got wait for their own slots in warp_claim, after every group's
    // collectives (mpmc_ring.h, top).
    unsigned long long first = 0, got = 0;
    if (g.is_leader()) {
      std::uint64_t pos = 0;
      got = Ring::claim_ticketed(counter, ring.credits(lag), pos, g.lanes);
      first = pos;
    }
    first = warp.shfl(active, first, leader);
    got = warp.shfl(active, got, leader);
    const unsigned long long pos = first + g.rank;
    return {pos, member && g.rank < got};
  }
  // The leader's view of the index: loaded once, then what a lost CAS found there (one round trip
  // fewer per lost attempt), reloaded only when a slot shows the index has moved on.
  unsigned long long first = 0;
  if (g.is_leader()) first = counter.load(order::relaxed);
  for (;;) {
    first = warp.shfl(active, first, leader);
    const unsigned long long pos = first + g.rank;
    std::int64_t d = 1;  // lanes of another ring or side: never ready in this claim
    if (member) d = position_diff(Ring::seq(ring.slot_at(pos)).load(order::acquire), pos + lag);
    const unsigned claim = ready_prefix(group, warp.ballot(active, member && d == 0));
    if (claim == 0) {
      // The leader's own slot decides: behind (full / empty) ends the attempt; ahead means another
      // party took `first` since it was read: look again.
      if (warp.shfl(active, static_cast<long long>(d), leader) < 0) return {pos, false};
      if (g.is_leader()) first = counter.load(order::relaxed);
      continue;
    }
    int won = 0;
    if (g.is_leader()) {
      std::uint64_t expected = first;
      won = counter.compare_exchange_weak(expected, first + lane_popcount(claim), order::relaxed);
      first = expected;  // unchanged on success; on failure the value found
    }
    if (warp.shfl(active, won, leader) != 0) return {pos, ((claim >> lane) & 1u) != 0};
  }
}

/// The claims of the active lanes: one per ring and side among them (lanes may pass different
/// rings, e.g. a kernel that routes each lane's message to the queue of its destination), lowest
/// lane's first; with one ring (the usual case) one claim, at the cost of one shuffle and one ballot.
template <class Warp, class Ring, class Counter>
RINGKERNEL_WARP_FUNCTION warp_claim_result warp_claim(const Warp& warp, const Ring& ring, Counter counter,
                                                      std::uint64_t lag) noexcept {
  const unsigned active = warp.active();  // read once: every round below is over these lanes
  const unsigned lane = warp.lane();
  warp_claim_result mine{0, false};
  for (unsigned pending = active; pending != 0;) {
    const unsigned group = same_counter_lanes(warp, active, pending, counter.address());
    const warp_claim_result r = warp_claim_group(warp, active, group, ring, counter, lag);
    if (((group >> lane) & 1u) != 0) mine = r;
    pending &= ~group;
  }
  // Ticketed: the party each claimed lane waits for is already under way (never a lane of this
  // warp waiting in a collective above: all of them are done).
  if constexpr (Ring::ticketed) {
    if (mine.claimed) ring.await_slot(mine.position, mine.position + lag);
  }
  mine.active = active;
  return mine;
}

/// Ticketed rings: adds one credit per lane of `active` whose `mine` is set to that lane's
/// `credit` word, one fetch_add per distinct word (lanes may pass different rings). Every lane of
/// `active` calls it.
template <class Warp, atomic_scope Scope>
RINGKERNEL_WARP_FUNCTION void warp_add_credits(const Warp& warp, unsigned active, bool mine,
                                               atomic_word<Scope> credit) noexcept {
  for (unsigned pending = warp.ballot(active, mine); pending != 0;) {
    const unsigned group = same_counter_lanes(warp, active, pending, credit.address());
    if (static_cast<int>(warp.lane()) == lowest_lane(group)) credit.fetch_add(lane_popcount(group), order::relaxed);
    pending &= ~group;
  }
}

/// A run of positions claimed by one warp for a batch: [first, first + count).
struct warp_run {
  unsigned long long first;
  unsigned count;  // 0: the ring was full (producers) / empty (consumers) at `first`
};

/// Claims the longest ready run of up to `want` positions on `counter` (lag as for warp_claim);
/// lane of rank r owns offsets r, r + lanes, ... of the run, and only those were checked by it,
/// so its acquire fence orders exactly the slots it will touch.
template <class Warp, class Ring, class Counter>
RINGKERNEL_WARP_FUNCTION warp_run warp_claim_run(const Warp& warp, const warp_group& g, const Ring& ring,
                                                 Counter counter, std::uint64_t lag, unsigned want) noexcept {
  const unsigned active = g.active, lanes = g.lanes, rank = g.rank;
  const int leader = g.leader;
  const unsigned span = want < lanes * warp_batch_per_lane ? want : lanes * warp_batch_per_lane;
  if constexpr (Ring::ticketed) {
    // One claim for up to 8 positions per lane (two fetch_adds whoever contends, mpmc_ring.h,
    // top); each lane waits for its own slots with relaxed loads, then one acquire fence orders
    // exactly the slots it will touch.
    unsigned long long first = 0, got = 0;
    if (g.is_leader()) {
      std::uint64_t pos = 0;
      got = Ring::claim_ticketed(counter, ring.credits(lag), pos, span);
      first = pos;
    }
    first = warp.shfl(active, first, leader);
    got = warp.shfl(active, got, leader);
    for (unsigned i = rank; i < got; i += lanes) ring.await_slot(first + i, first + i + lag, order::relaxed);
    atomic_fence<Ring::scope>(order::acquire);
    return {first, static_cast<unsigned>(got)};
  }
  unsigned long long first = 0;  // the leader's view of the index, as in warp_claim
  if (g.is_leader()) first = counter.load(order::relaxed);
  for (;;) {
    first = warp.shfl(active, first, leader);
    std::uint64_t seen[warp_batch_per_lane] = {};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned k = 0; k < warp_batch_per_lane; ++k) {  // independent loads: all in flight at once
      const unsigned offset = rank + k * lanes;
      if (offset < span) seen[k] = Ring::seq(ring.slot_at(first + offset)).load(order::relaxed);
    }
    const unsigned ready = warp.reduce_min(active, lane_first_not_ready(seen, rank, lanes, span, first, lag));
    // Rank 0 (the leader) always checked offset 0: how far its slot is from ready.
    const std::int64_t lead = rank < span ? position_diff(seen[0], first + rank + lag) : 0;
    if (ready == 0) {
      if (warp.shfl(active, static_cast<long long>(lead), leader) < 0) return {first, 0};  // full / empty
      if (g.is_leader()) first = counter.load(order::relaxed);  // another party took `first`: look again
      continue;
    }
    int won = 0;
    if (g.is_leader()) {
      std::uint64_t expected = first;
      won = counter.compare_exchange_weak(expected, first + ready, order::relaxed);
      first = expected;  // unchanged on success; on failure the value found
    }
    if (warp.shfl(active, won, leader) != 0) {
      atomic_fence<Ring::scope>(order::acquire);  // after this lane's relaxed loads of its slots
      return {first, ready};
    }
  }
}

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

#endif  // __CUDACC__
