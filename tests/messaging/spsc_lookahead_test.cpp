// Copyright RingKernel authors.
// spsc_ring rings large enough for the host producer's look-ahead (more than 4 * its prefetch
// distance slots; spsc_ring::prefetch_free_slot): the look-ahead refreshes the producer's cache of
// tail, which the full check then trusts, so full must stay exact and no message may be overwritten
// - through the ring's own calls and through endpoints, across the 2^64 wrap, with a consumer on
// the same thread taking any number at a time and with a slower consumer on another thread.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <thread>

#include "ringkernel/error.h"
#include "ringkernel/queue/queue_storage.h"
#include "ringkernel/queue/spsc_ring.h"

namespace {

using Ring = ringkernel::spsc_ring<std::uint64_t>;
constexpr std::uint64_t capacity = 1024;  // 8-byte messages look 32 ahead: rings above 128 slots do

struct HostRing {
  explicit HostRing(std::uint64_t start)
      : storage(ringkernel::QueueMemory::host, ringkernel::no_device, Ring::bytes_for(capacity)),
        ring(ringkernel::initialize_ring<Ring>(storage, capacity, start)) {}
  ringkernel::QueueStorage storage;
  Ring ring;
};

// Fills until refused, then takes `take(round)` messages; every fill must stop at exactly the room
// the ring has, and every message come out once and in order.
template <class Push, class Pop>
void fill_and_take(Push push, Pop pop, const Ring& ring, std::uint64_t start) {
  std::uint64_t next_in = 0, next_out = 0;
  for (std::uint64_t round = 0; round < 600; ++round) {
    while (push(next_in)) ++next_in;
    ASSERT_EQ(next_in - next_out, capacity) << "round " << round << ": the fill stopped short of or past full";
    ASSERT_EQ(ring.size(), capacity);
    ASSERT_EQ(ring.head_position(), start + next_in);
    const std::uint64_t take = 1 + (round * 37) % 300;  // 1 to 300, every distance to the look-ahead's
    for (std::uint64_t k = 0; k < take; ++k) {
      std::uint64_t v = 0;
      ASSERT_TRUE(pop(v)) << "round " << round;
      ASSERT_EQ(v, next_out) << "round " << round << ": overwritten or out of order";
      ++next_out;
    }
  }
}

TEST(SpscLookahead, FullStaysExactThroughTheRingsCallsAcrossTheWrap) {
  const std::uint64_t start = std::numeric_limits<std::uint64_t>::max() - 50 * capacity;
  HostRing h(start);
  Ring ring = h.ring;
  fill_and_take([&ring](std::uint64_t v) { return ring.try_push(v); }, [&ring](std::uint64_t& v) { return ring.try_pop(v); },
                h.ring, start);
}

TEST(SpscLookahead, FullStaysExactThroughEndpointsAcrossTheWrap) {
  const std::uint64_t start = std::numeric_limits<std::uint64_t>::max() - 50 * capacity;
  HostRing h(start);
  auto tx = h.ring.producer();
  auto rx = h.ring.consumer();
  fill_and_take([&tx](std::uint64_t v) { return tx.try_push(v); }, [&rx](std::uint64_t& v) { return rx.try_pop(v); },
                h.ring, start);
}

// A consumer slower than the producer keeps the ring nearly full, where the look-ahead must stay off
// the consumer's messages; every message arrives once and in order.
template <bool Endpoints>
void slow_consumer(std::uint64_t start) {
  constexpr std::uint64_t count = 300000;
  HostRing h(start);
  std::thread producer([ring = h.ring]() mutable {
    if constexpr (Endpoints) {
      auto tx = ring.producer();
      for (std::uint64_t i = 0; i < count; ++i) {
        while (!tx.try_push(i)) {
        }
      }
    } else {
      for (std::uint64_t i = 0; i < count; ++i) {
        while (!ring.try_push(i)) {
        }
      }
    }
  });
  Ring ring = h.ring;
  std::uint64_t sink = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t v = 0;
    while (!ring.try_pop(v)) {
    }
    ASSERT_EQ(v, i);
    for (int w = 0; w < 32; ++w) sink = sink * 31 + v;  // the consumer's work per message
  }
  producer.join();
  EXPECT_EQ(h.ring.size(), 0u);
  EXPECT_NE(sink, 1u);  // keeps the work
}

TEST(SpscLookahead, SlowerConsumerOnAnotherThreadGetsEveryMessageInOrder) {
  slow_consumer<false>(std::numeric_limits<std::uint64_t>::max() - 100000);
}

TEST(SpscLookahead, SlowerConsumerOfAnEndpointProducerGetsEveryMessageInOrder) {
  slow_consumer<true>(std::numeric_limits<std::uint64_t>::max() - 100000);
}

}  // namespace
