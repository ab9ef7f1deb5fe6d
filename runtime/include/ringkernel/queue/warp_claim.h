// Copyright RingKernel authors.
// The warp-aggregated claims behind the device queue operations of warp_enqueue.h: how the lanes
// of a warp take ring positions together (compiled everywhere, for the host tests' simulated warps).
//   Single messages (warp_claim): each lane loads its own slot's sequence word (acquire; the lanes'
//   loads go out together), a ballot finds how many lanes, in lane order, have a ready slot
//   (ready_prefix), and the lowest lane claims that many positions with one CAS on the index and
//   broadcasts the outcome with a shuffle. Lanes that pass different rings or sides make one claim
//   per counter word (same_counter_lanes), lowest lane's first.
//   Batches (warp_claim_run): up to warp_batch_per_lane positions per lane per claim; the lanes
//   check their slots together (relaxed loads issued back to back, then one acquire fence per
//   lane: each lane's fence orders exactly the slots it will touch) and one CAS claims the ready run.
//   Ticketed rings (device / block scope, mpmc_ring.h): the lowest lane takes credits and positions
//   for the group with two fetch_adds instead of the CAS, and the lanes wait for their slots, only
//   for parties under way; consumers and producers return credits with warp_add_credits.
// The algorithms are written against a Warp (warp_collectives.h).
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

}  // namespace ringkernel::detail
