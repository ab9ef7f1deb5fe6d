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
    const unsigned n = ringkernel::detail::warp_pop_batch_on(warp, owned.ring(), out.data(), 40);
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
    const unsigned a = ringkernel::detail::warp_pop_batch_on(warp, owned.ring(), buffer.data(), 8);  // empty
    const unsigned b = ringkernel::detail::warp_pop_batch_on(warp, owned.ring(), buffer.data(), 0);
    const unsigned c = ringkernel::detail::warp_push_batch_on(warp, owned.ring(), buffer.data(), 0);
    if (warp.lane() == 0) results = {a, b, c, 0};
  });
  EXPECT_EQ(results, (std::vector<unsigned>{0, 0, 0, 0}));
  EXPECT_EQ(owned.ring().size(), 0u);
}

}  // namespace
