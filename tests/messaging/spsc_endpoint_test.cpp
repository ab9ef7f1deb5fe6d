// Copyright RingKernel authors.
// spsc_ring endpoints (producer() / consumer()): a side held with its index and cache in the
// endpoint moves every message once and in order, also across the 2^64 wrap, detects full and
// empty exactly, and hands its role to the ring's own calls (or a new endpoint) at any point. And
// the ring's own batch calls: they do not trust a cache that promises less than asked for.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <thread>

#include "ringkernel/error.h"
#include "ringkernel/queue/queue_storage.h"
#include "ringkernel/queue/spsc_ring.h"

namespace {

using Ring = ringkernel::spsc_ring<std::uint64_t>;

struct HostRing {
  explicit HostRing(std::uint64_t capacity, std::uint64_t start = 0)
      : storage(ringkernel::QueueMemory::host, ringkernel::no_device, Ring::bytes_for(capacity)),
        ring(ringkernel::initialize_ring<Ring>(storage, capacity, start)) {}
  ringkernel::QueueStorage storage;
  Ring ring;
};

TEST(SpscEndpoint, ThreadsMoveEveryMessageInOrderAcrossTheWrap) {
  constexpr std::uint64_t count = 200000;
  const std::uint64_t start = std::numeric_limits<std::uint64_t>::max() - count / 2;
  HostRing h(64, start);
  std::thread producer([ring = h.ring] {
    auto tx = ring.producer();
    for (std::uint64_t i = 0; i < count; ++i) {
      while (!tx.try_push(i)) {
      }
    }
  });
  auto rx = h.ring.consumer();
  EXPECT_EQ(rx.position(), start);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t v = 0;
    while (!rx.try_pop(v)) {
    }
    ASSERT_EQ(v, i);
  }
  producer.join();
  EXPECT_EQ(rx.position(), start + count);
  EXPECT_EQ(h.ring.size(), 0u);
  std::uint64_t v = 0;
  EXPECT_FALSE(rx.try_pop(v));
}

TEST(SpscEndpoint, FullAndEmptyAreExactAndRolesMoveBetweenEndpointsAndTheRing) {
  HostRing h(8);
  auto tx = h.ring.producer();
  for (std::uint64_t i = 0; i < 8; ++i) ASSERT_TRUE(tx.try_push(i));
  EXPECT_FALSE(tx.try_push(99)) << "a ring of 8 holds 8";
  EXPECT_FALSE(h.ring.try_push(99));
  EXPECT_EQ(h.ring.size(), 8u);

  auto rx = h.ring.consumer();
  std::uint64_t v = 0;
  ASSERT_TRUE(rx.try_pop(v));
  EXPECT_EQ(v, 0u);
  ASSERT_TRUE(h.ring.try_pop(v)) << "the ring's own call takes over the consumer role";
  EXPECT_EQ(v, 1u);
  // The endpoint that gave the role away must not be used again; a new one starts where the ring is.
  auto rx2 = h.ring.consumer();
  EXPECT_EQ(rx2.position(), 2u);
  ASSERT_TRUE(rx2.try_pop(v));
  EXPECT_EQ(v, 2u);

  // The old producer endpoint's cache says full; it looks again and finds the three freed slots.
  ASSERT_TRUE(tx.try_push(8));
  ASSERT_TRUE(h.ring.try_push(9)) << "the ring's own call takes over the producer role";
  auto tx2 = h.ring.producer();
  EXPECT_EQ(tx2.position(), 10u);
  ASSERT_TRUE(tx2.try_push(10));
  EXPECT_FALSE(tx2.try_push(11));
  for (std::uint64_t want = 3; want <= 10; ++want) {
    ASSERT_TRUE(rx2.try_pop(v));
    EXPECT_EQ(v, want);
  }
  EXPECT_FALSE(rx2.try_pop(v));
  EXPECT_FALSE(h.ring.try_pop(v));
}

// The ring's own calls keep a cache of the other side's index in the ring's memory, which endpoints
// do not update: after an endpoint ran a lap or more, that cache is far behind and must not be
// trusted as room (producer) or as messages (consumer).
TEST(SpscEndpoint, TheRingsOwnCallsDoNotTrustACacheLeftBehindByEndpoints) {
  HostRing h(8);
  std::uint64_t v = 0;
  ASSERT_TRUE(h.ring.try_push(0));
  ASSERT_TRUE(h.ring.try_pop(v));  // both caches now hold position 1
  {
    auto tx = h.ring.producer();
    auto rx = h.ring.consumer();
    for (std::uint64_t i = 1; i <= 100; ++i) {  // 12 laps through endpoints
      ASSERT_TRUE(tx.try_push(i));
      ASSERT_TRUE(rx.try_pop(v));
    }
    for (std::uint64_t i = 101; i <= 105; ++i) ASSERT_TRUE(tx.try_push(i));  // 5 queued
  }
  const std::uint64_t batch[8] = {106, 107, 108, 109, 110, 111, 112, 113};
  EXPECT_EQ(h.ring.try_push_batch(batch, 8), 3u) << "3 free slots, not what a stale cache implies";
  EXPECT_FALSE(h.ring.try_push(999));
  std::uint64_t out[16] = {};
  ASSERT_EQ(h.ring.try_pop_batch(out, 16), 8u);
  for (std::uint64_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], 101 + i);
  EXPECT_FALSE(h.ring.try_pop(v)) << "empty, whatever the stale cache said";
  ASSERT_TRUE(h.ring.try_push(114));
  ASSERT_TRUE(h.ring.try_pop(v));
  EXPECT_EQ(v, 114u);
}

// A batch takes the longest prefix that fits now: the ring's own batch calls look at the other
// side's index again whenever their cache promises less than asked for, not only when it says full
// (push) or empty (pop).
TEST(SpscRing, BatchesSeeRoomAndMessagesSinceTheirLastLook) {
  for (const std::uint64_t start : {std::uint64_t{0}, std::numeric_limits<std::uint64_t>::max() - 3}) {
    SCOPED_TRACE(start);
    HostRing h(8, start);
    const std::uint64_t in[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    std::uint64_t out[8] = {};
    // Producer: its cache of tail says 6 used; 6 were taken since.
    ASSERT_EQ(h.ring.try_push_batch(in, 6), 6u);
    ASSERT_EQ(h.ring.try_pop_batch(out, 6), 6u);
    EXPECT_EQ(h.ring.try_push_batch(in, 8), 8u) << "all 8 slots are free";
    ASSERT_EQ(h.ring.try_pop_batch(out, 8), 8u);
    for (std::uint64_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
    // Consumer: its cache of head says 1 ready; 4 more were pushed since.
    ASSERT_EQ(h.ring.try_push_batch(in, 2), 2u);
    ASSERT_EQ(h.ring.try_pop_batch(out, 1), 1u);
    ASSERT_EQ(h.ring.try_push_batch(in + 2, 4), 4u);
    ASSERT_EQ(h.ring.try_pop_batch(out, 8), 5u) << "all 5 queued messages";
    for (std::uint64_t i = 0; i < 5; ++i) EXPECT_EQ(out[i], 1 + i);
    EXPECT_EQ(h.ring.try_pop_batch(out, 8), 0u);
  }
}

}  // namespace
