// Copyright RingKernel authors.
// The device queue algorithms of warp_enqueue.h (warp_push, warp_pop, warp_push_batch,
// warp_pop_batch), run on the host: each warp is a set of host threads playing its lanes
// (simulated_warp.h), over a real mpmc_ring. These are the code paths a kernel runs, minus the
// CUDA intrinsics; what only a GPU can show (its memory model, speed) is for the gpu tests.
// This file: single warp operations with exact expected outcomes; warp_queue_stress_test.cpp:
// many warps and host threads at once.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "ringkernel/queue/warp_enqueue.h"
#include "simulated_warp.h"
#include "warp_queue_fixture.h"

namespace {

using namespace warp_queue_test;
using ringkernel::test::run_warp;
using ringkernel::test::simulated_warp;

/// Per lane of one warp_push: whether it pushed.
std::vector<bool> push_once(const Ring& ring, unsigned mask, std::uint32_t producer_base) {
  std::vector<char> pushed(32, 0);
  run_warp(mask, [&](const simulated_warp& warp) {
    pushed[warp.lane()] = ringkernel::detail::warp_push_on(warp, ring, make_msg(producer_base + warp.lane(), 0));
  });
  std::vector<bool> out;
  for (unsigned l = 0; l < 32; ++l) {
    if (((mask >> l) & 1u) != 0) out.push_back(pushed[l] != 0);
  }
  return out;
}

/// Producer ids of the messages one warp_pop took, in lane order (-1: the lane got none).
std::vector<long> pop_once(const Ring& ring, unsigned mask) {
  std::vector<long> got(32, -2);
  run_warp(mask, [&](const simulated_warp& warp) {
    Msg m{};
    const bool ok = ringkernel::detail::warp_pop_on(warp, ring, m);
    got[warp.lane()] = ok ? (intact(m) ? static_cast<long>(m.producer) : -3) : -1;
  });
  std::vector<long> out;
  for (unsigned l = 0; l < 32; ++l) {
    if (((mask >> l) & 1u) != 0) out.push_back(got[l]);
  }
  return out;
}

TEST(WarpQueue, PushFillsSlotsInLaneOrderAndPopHandsThemOutInLaneOrder) {
  OwnedRing owned(8);
  const unsigned mask = 0b1011'0110u;  // lanes 1, 2, 4, 5, 7: gaps, as divergent code leaves them
  EXPECT_EQ(push_once(owned.ring(), mask, 100), std::vector<bool>(5, true));
  EXPECT_EQ(owned.ring().size(), 5u);
  EXPECT_EQ(pop_once(owned.ring(), 0x0000'0007u), (std::vector<long>{101, 102, 104}));
  EXPECT_EQ(pop_once(owned.ring(), 0x8000'0001u), (std::vector<long>{105, 107}));
  EXPECT_EQ(pop_once(owned.ring(), 0xffff'ffffu), std::vector<long>(32, -1));  // empty: every lane fails
}

TEST(WarpQueue, OnAFullRingOnlyTheLowestRanksPush) {
  OwnedRing owned(4);
  ASSERT_TRUE(owned.ring().try_push(make_msg(7, 0)));  // a host producer took the first slot
  EXPECT_EQ(push_once(owned.ring(), 0xf0u, 0), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(push_once(owned.ring(), 0x1u, 50), (std::vector<bool>{false}));
  EXPECT_EQ(pop_once(owned.ring(), 0x0bu), (std::vector<long>{7, 4, 5}));
  EXPECT_EQ(pop_once(owned.ring(), 0xffu), (std::vector<long>{6, -1, -1, -1, -1, -1, -1, -1}));
  Msg m{};
  EXPECT_FALSE(owned.ring().try_pop(m));
}

TEST(WarpQueue, FullWarpOfThirtyTwoLanesAcrossTheIndexWrap) {
  OwnedRing owned(64, std::numeric_limits<std::uint64_t>::max() - 40);
  for (int round = 0; round < 4; ++round) {  // positions cross 2^64 in the second round
    ASSERT_EQ(push_once(owned.ring(), 0xffff'ffffu, 32u * static_cast<unsigned>(round)), std::vector<bool>(32, true));
    std::vector<long> want;
    for (long l = 0; l < 32; ++l) want.push_back(32 * round + l);
    ASSERT_EQ(pop_once(owned.ring(), 0xffff'ffffu), want) << "round " << round;
  }
}

// Not skipped under ThreadSanitizer: the ring is filled before the warp starts, so no slot access
// needs a fence, and what orders the other lanes' writes of `out` before the leader reads them is
// warp_pop_batch's final sync alone (without it, ThreadSanitizer reports the race: checked).
TEST(WarpQueue, PopBatchHandsEveryLanesShareToTheWholeWarp) {
  OwnedRing owned(64);
  for (std::uint32_t q = 0; q < 40; ++q) ASSERT_TRUE(owned.ring().try_push(make_msg(1, q)));
  std::vector<Msg> out(40);
  Stream stream;
  run_warp(0x0000'00ffu, [&](const simulated_warp& warp) {
    const unsigned n = ringkernel::detail::warp_pop_batch_on(warp, 0x0000'00ffu, owned.ring(), out.data(), 40);
    if (warp.lane() == 0) stream.assign(out.begin(), out.begin() + n);
  });
  ASSERT_EQ(stream.size(), 40u);
  for (std::uint32_t q = 0; q < 40; ++q) {
    EXPECT_TRUE(intact(stream[q]));
    EXPECT_EQ(stream[q].seq, q);
  }
}

TEST(WarpQueue, BatchOfNothingAndBatchOnAnEmptyRingReturnZero) {
  OwnedRing owned(8);
  std::vector<Msg> buffer(8);
  std::vector<unsigned> results(4, 99);
  run_warp(0x0000'000fu, [&](const simulated_warp& warp) {
    const unsigned a = ringkernel::detail::warp_pop_batch_on(warp, 0xfu, owned.ring(), buffer.data(), 8);  // empty
    const unsigned b = ringkernel::detail::warp_pop_batch_on(warp, 0xfu, owned.ring(), buffer.data(), 0);
    const unsigned c = ringkernel::detail::warp_push_batch_on(warp, 0xfu, owned.ring(), buffer.data(), 0);
    if (warp.lane() == 0) results = {a, b, c, 0};
  });
  EXPECT_EQ(results, (std::vector<unsigned>{0, 0, 0, 0}));
  EXPECT_EQ(owned.ring().size(), 0u);
}

/// What is left in `ring`, popped by a host thread, in ring order: producer * 1000 + seq (-1: torn).
std::vector<long> drain(Ring& ring) {
  std::vector<long> seqs;
  Msg m{};
  while (ring.try_pop(m)) seqs.push_back(intact(m) ? static_cast<long>(m.producer) * 1000 + m.seq : -1);
  return seqs;
}
std::vector<long> seqs_of(std::uint32_t producer, std::uint32_t from, std::uint32_t to) {
  std::vector<long> seqs;
  for (std::uint32_t q = from; q < to; ++q) seqs.push_back(static_cast<long>(producer) * 1000 + q);
  return seqs;
}
std::vector<Msg> messages_of(std::uint32_t producer, std::uint32_t n) {
  std::vector<Msg> values;
  for (std::uint32_t q = 0; q < n; ++q) values.push_back(make_msg(producer, q));
  return values;
}

// Independent thread scheduling: the lanes of one warp reach the call in two groups, lanes 16-31
// only after lanes 0-15 have blocked or returned. With the group taken from active() (before the
// batch calls took a mask), lanes 0-15 pushed the whole array on their own, then lanes 16-31 did
// it again: 80 messages. With the mask, lanes 0-15 wait for the others in the entry sync.
TEST(WarpQueue, PushBatchOfAWarpArrivingInTwoGroupsPushesEveryMessageOnce) {
  OwnedRing owned(128);
  const std::vector<Msg> values = messages_of(1, 40);
  std::vector<unsigned> pushed(32, 99);
  run_warp(0xffff'ffffu, [&](const simulated_warp& warp) {
    if (warp.lane() >= 16) warp.lag_behind(0xffff'0000u);
    pushed[warp.lane()] = ringkernel::detail::warp_push_batch_on(warp, 0xffff'ffffu, owned.ring(), values.data(), 40);
  });
  EXPECT_EQ(pushed, std::vector<unsigned>(32, 40));
  EXPECT_EQ(drain(owned.ring()), seqs_of(1, 0, 40));
}

// The same for warp_pop_batch, on a warp with gaps (lanes 0-3, 8-11, 16-19, 24-27) of which the
// upper two groups arrive late: one batch of 40 is taken, not one per group.
TEST(WarpQueue, PopBatchOfAGappedWarpArrivingInTwoGroupsTakesOneBatch) {
  OwnedRing owned(128);
  for (std::uint32_t q = 0; q < 100; ++q) ASSERT_TRUE(owned.ring().try_push(make_msg(2, q)));
  const unsigned mask = 0x0f0f'0f0fu;
  std::vector<Msg> out(40);
  std::vector<unsigned> popped(32, 99);
  Stream stream;
  run_warp(mask, [&](const simulated_warp& warp) {
    if (warp.lane() >= 16) warp.lag_behind(0x0f0f'0000u);
    const unsigned n = ringkernel::detail::warp_pop_batch_on(warp, mask, owned.ring(), out.data(), 40);
    popped[warp.lane()] = n;
    if (warp.lane() == 27) stream.assign(out.begin(), out.begin() + n);  // any lane: the exit sync
  });
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(popped[l], ((mask >> l) & 1u) != 0 ? 40u : 99u) << "lane " << l;
  ASSERT_EQ(stream.size(), 40u);
  for (std::uint32_t q = 0; q < 40; ++q) EXPECT_TRUE(intact(stream[q]) && stream[q].seq == q) << q;
  EXPECT_EQ(drain(owned.ring()), seqs_of(2, 40, 100));
}

// Two halves of a warp, each its own batch with its own mask (lanes 16-31 run after lanes 0-15):
// each array once, neither half waits for the other.
TEST(WarpQueue, HalvesOfAWarpPushTheirOwnBatchesWithTheirOwnMasks) {
  OwnedRing owned(64);
  const std::vector<Msg> low = messages_of(3, 20), high = messages_of(4, 20);
  std::vector<unsigned> pushed(32, 99);
  run_warp(0xffff'ffffu, [&](const simulated_warp& warp) {
    const bool upper = warp.lane() >= 16;
    if (upper) warp.lag_behind(0xffff'0000u);
    const unsigned mask = upper ? 0xffff'0000u : 0x0000'ffffu;
    pushed[warp.lane()] =
        ringkernel::detail::warp_push_batch_on(warp, mask, owned.ring(), upper ? high.data() : low.data(), 20);
  });
  EXPECT_EQ(pushed, std::vector<unsigned>(32, 20));
  std::vector<long> want = seqs_of(3, 0, 20);
  for (long s : seqs_of(4, 0, 20)) want.push_back(s);
  EXPECT_EQ(drain(owned.ring()), want);
}

// Lanes that have returned are not in the mask: the lanes that remain batch with theirs.
TEST(WarpQueue, TheLanesThatRemainBatchWithTheirMask) {
  OwnedRing owned(64);
  const std::vector<Msg> values = messages_of(5, 50);
  std::vector<unsigned> pushed(32, 99);
  run_warp(0xffff'ffffu, [&](const simulated_warp& warp) {
    if (warp.lane() % 2 != 0) return;  // odd lanes leave, as lanes leave a loop
    pushed[warp.lane()] = ringkernel::detail::warp_push_batch_on(warp, 0x5555'5555u, owned.ring(), values.data(), 50);
  });
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(pushed[l], l % 2 == 0 ? 50u : 99u) << "lane " << l;
  EXPECT_EQ(drain(owned.ring()), seqs_of(5, 0, 50));
}

// Each lane stages a block of the values, which other lanes copy into the ring (lane of rank r
// takes offsets r, r + 8, ...), and overwrites its block for the next batch as soon as the call
// returns. The entry sync orders the staging before the copies, the exit sync the copies before
// the overwrite: under ThreadSanitizer, removing either is reported as a data race (checked).
TEST(WarpQueue, PushBatchOrdersStagedValuesBeforeItAndItsReadsBeforeTheNextStaging) {
  OwnedRing owned(128);
  std::vector<Msg> staged(40);
  std::vector<unsigned> pushed(16, 99);
  run_warp(0x0000'00ffu, [&](const simulated_warp& warp) {
    const std::uint32_t lane = warp.lane();
    for (std::uint32_t b = 0; b < 2; ++b) {
      for (std::uint32_t i = 5 * lane; i < 5 * lane + 5; ++i) staged[i] = make_msg(6, 40 * b + i);
      pushed[8 * b + lane] =
          ringkernel::detail::warp_push_batch_on(warp, 0x0000'00ffu, owned.ring(), staged.data(), 40);
    }
  });
  EXPECT_EQ(pushed, std::vector<unsigned>(16, 40));
  EXPECT_EQ(drain(owned.ring()), seqs_of(6, 0, 80));
}

// A kernel routing each lane's message to the queue of its destination: the lanes of one warp_push
// pass different rings. Each ring gets its own claim on its own index (before, the lowest lane's
// ring was claimed for every lane, and the other lanes wrote slots of their rings at positions
// their indices never handed out: ring A stalled at its first unpublished slot, ring B showed empty
// with messages in it).
TEST(WarpQueue, LanesPassingDifferentRingsEachClaimOnTheirOwnRing) {
  OwnedRing a(64), b(64), c(4);
  std::vector<char> pushed(32, 0);
  run_warp(0xffff'ffffu, [&](const simulated_warp& warp) {
    const unsigned lane = warp.lane();
    const Ring& ring = lane % 3 == 0 ? a.ring() : lane % 3 == 1 ? b.ring() : c.ring();  // c: room for 4 of 10
    pushed[lane] = ringkernel::detail::warp_push_on(warp, ring, make_msg(lane, 0));
  });
  std::vector<long> want_a, want_b, want_c;
  for (unsigned l = 0; l < 32; ++l) {
    (l % 3 == 0 ? want_a : l % 3 == 1 ? want_b : want_c).push_back(static_cast<long>(l) * 1000);
    EXPECT_EQ(pushed[l] != 0, l % 3 != 2 || l < 12) << "lane " << l;  // c's first four lanes only
  }
  want_c.resize(4);
  EXPECT_EQ(a.ring().size(), want_a.size());
  EXPECT_EQ(b.ring().size(), want_b.size());
  EXPECT_EQ(c.ring().size(), 4u);
  // Popped by one warp whose lanes ask the three rings in turn: each ring's messages in order.
  for (std::uint32_t q = 0; q < 3; ++q) ASSERT_TRUE(a.ring().try_push(make_msg(100, q)));
  std::vector<long> got(32, -2);
  run_warp(0xffff'ffffu, [&](const simulated_warp& warp) {
    const unsigned lane = warp.lane();
    const Ring& ring = lane % 2 == 0 ? a.ring() : b.ring();
    Msg m{};
    const bool ok = ringkernel::detail::warp_pop_on(warp, ring, m);
    got[lane] = ok ? (intact(m) ? static_cast<long>(m.producer) * 1000 + m.seq : -3) : -1;
  });
  std::vector<long> from_a, from_b;
  for (unsigned l = 0; l < 32; ++l) (l % 2 == 0 ? from_a : from_b).push_back(got[l]);
  std::vector<long> expect_a = want_a, expect_b = want_b;
  for (std::uint32_t q = 0; q < 3; ++q) expect_a.push_back(100'000 + q);  // 11 + 3 < 16 lanes: the rest get none
  expect_a.resize(16, -1);
  expect_b.resize(16, -1);
  EXPECT_EQ(from_a, expect_a);
  EXPECT_EQ(from_b, expect_b);
  EXPECT_EQ(drain(c.ring()), want_c);
}

// Lanes of one warp that push to a ring and lanes that pop from the same ring, in one call (a
// kernel whose lanes take turns as producer and consumer; the device functions are not forced
// inline, so divergent lanes may run the one warp_claim together). Each side claims on its own
// index. (Grouped by ring alone, the push lanes' leader claimed on the head for every lane: only
// lane 0 pushed, every other push failed as if the ring were full and every pop as if it were empty.)
TEST(WarpQueue, LanesPushingAndLanesPoppingOneRingInOneCallEachClaimOnTheirOwnIndex) {
  OwnedRing owned(64);
  for (std::uint32_t q = 0; q < 16; ++q) ASSERT_TRUE(owned.ring().try_push(make_msg(500, q)));
  std::vector<long> result(32, -2);
  run_warp(0xffff'ffffu, [&](const simulated_warp& warp) {
    const unsigned lane = warp.lane();
    if (lane % 2 == 0) {
      result[lane] = ringkernel::detail::warp_push_on(warp, owned.ring(), make_msg(lane, 0)) ? 1 : 0;
    } else {
      Msg m{};
      const bool ok = ringkernel::detail::warp_pop_on(warp, owned.ring(), m);
      result[lane] = ok ? (intact(m) ? static_cast<long>(m.producer) * 1000 + m.seq : -3) : -1;
    }
  });
  for (unsigned l = 0; l < 32; l += 2) EXPECT_EQ(result[l], 1) << "push of lane " << l;
  for (unsigned l = 1; l < 32; l += 2) EXPECT_EQ(result[l], 500'000 + l / 2) << "pop of lane " << l;
  std::vector<long> pushed;
  for (unsigned l = 0; l < 32; l += 2) pushed.push_back(static_cast<long>(l) * 1000);
  EXPECT_EQ(drain(owned.ring()), pushed);
}

// Lanes of the mask that have exited: lanes that returned before the call, and in a partial warp
// (a block whose size is not a multiple of 32) lanes that never ran. The batch calls leave them
// out (__ballot_sync over the mask). Before, they were counted in: on a GPU each claim took
// positions for their ranks that no lane checked, filled or published (the ring stalled there for
// good, and a slot still being read could be overwritten); here the entry sync aborted.
TEST(WarpQueue, BatchCallsLeaveOutTheLanesOfTheirMaskThatHaveExited) {
  OwnedRing owned(128);
  const std::vector<Msg> values = messages_of(7, 50);
  std::vector<unsigned> pushed(32, 99);
  run_warp(0xffff'ffffu, [&](const simulated_warp& warp) {
    if (warp.lane() < 8 || warp.lane() % 2 != 0) return;  // lanes 0-7 and the odd ones leave
    if (warp.lane() >= 24) warp.lag_behind(0x5500'0000u);  // and some of the rest come late
    pushed[warp.lane()] = ringkernel::detail::warp_push_batch_on(warp, 0xffff'ffffu, owned.ring(), values.data(), 50);
  });
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(pushed[l], l >= 8 && l % 2 == 0 ? 50u : 99u) << "lane " << l;
  std::vector<Msg> out(50);
  std::vector<unsigned> popped(32, 99);
  Stream stream;
  run_warp(0x0000'0fffu, [&](const simulated_warp& warp) {  // lanes 12-31 never run
    popped[warp.lane()] = ringkernel::detail::warp_pop_batch_on(warp, 0xffff'ffffu, owned.ring(), out.data(), 50);
    if (warp.lane() == 11) stream.assign(out.begin(), out.begin() + popped[11]);
  });
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(popped[l], l < 12 ? 50u : 99u) << "lane " << l;
  ASSERT_EQ(stream.size(), 50u);
  for (std::uint32_t q = 0; q < 50; ++q) EXPECT_TRUE(intact(stream[q]) && stream[q].seq == q) << q;
  EXPECT_EQ(owned.ring().size(), 0u);
}

}  // namespace
