// Copyright RingKernel authors.
// What is particular to ticketed mpmc rings (device or block scope: credits and fetch_add claims,
// mpmc_ring.h), on host threads: the credits bound every claim, a full / empty ring refuses
// without keeping any, concurrent takers never get more than there is, and a consumer whose
// position a producer claimed but has not published yet waits for that producer (a system-scope
// ring answers "empty" instead).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <new>
#include <thread>
#include <vector>

#include "ringkernel/queue/mpmc_ring.h"

namespace {

using ringkernel::atomic_scope;
namespace detail = ringkernel::detail;

template <class Ring>
class Owned {
 public:
  explicit Owned(std::uint64_t capacity, std::uint64_t start = 0)
      : memory_(::operator new(Ring::bytes_for(capacity), std::align_val_t{detail::queue_line_bytes})),
        ring_(Ring::initialize(memory_, capacity, start)) {}
  ~Owned() { ::operator delete(memory_, std::align_val_t{detail::queue_line_bytes}); }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Ring& ring() { return ring_; }
  std::int64_t free_slots() const { return static_cast<std::int64_t>(ring_.credits(0).load(detail::order::relaxed)); }
  std::int64_t published() const { return static_cast<std::int64_t>(ring_.credits(1).load(detail::order::relaxed)); }

 private:
  void* memory_;
  Ring ring_;
};

using Ticketed = ringkernel::mpmc_ring<std::uint64_t, atomic_scope::device>;
using Vyukov = ringkernel::mpmc_ring<std::uint64_t, atomic_scope::system>;
static_assert(Ticketed::ticketed && !Vyukov::ticketed);
static_assert(ringkernel::mpmc_ring<std::uint64_t, atomic_scope::block>::ticketed);

constexpr std::uint64_t near_wrap = ~std::uint64_t{0} - 5;  // positions cross 2^64 within a lap

TEST(TicketedRing, AFullRingRefusesAndKeepsNoCredit) {
  Owned<Ticketed> o(8, near_wrap);
  for (std::uint64_t i = 0; i < 8; ++i) ASSERT_TRUE(o.ring().try_push(i));
  EXPECT_FALSE(o.ring().try_push(99));
  const std::uint64_t more[3] = {7, 8, 9};
  EXPECT_EQ(o.ring().try_push_batch(more, 3), 0u);
  EXPECT_EQ(o.free_slots(), 0);
  EXPECT_EQ(o.published(), 8);
  EXPECT_EQ(o.ring().size(), 8u);
  std::uint64_t v = 0;
  ASSERT_TRUE(o.ring().try_pop(v));
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(o.free_slots(), 1);
  EXPECT_EQ(o.published(), 7);
  EXPECT_TRUE(o.ring().try_push(8));
  EXPECT_FALSE(o.ring().try_push(9));
}

TEST(TicketedRing, BatchesTakeWhatTheCreditsAllowInOrderAcrossTheWrap) {
  Owned<Ticketed> o(8, near_wrap);
  std::uint64_t in[10], out[20] = {};
  for (std::uint64_t i = 0; i < 10; ++i) in[i] = 100 + i;
  EXPECT_EQ(o.ring().try_push_batch(in, 10), 8u);
  EXPECT_EQ(o.ring().try_pop_batch(out, 20), 8u);
  for (std::uint64_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], 100 + i);
  EXPECT_EQ(o.ring().try_pop_batch(out, 20), 0u);
  EXPECT_EQ(o.free_slots(), 8);
  EXPECT_EQ(o.published(), 0);
  EXPECT_EQ(o.ring().head_position(), near_wrap + 8);  // wrapped past 2^64
  EXPECT_EQ(o.ring().tail_position(), near_wrap + 8);
}

TEST(TicketedRing, ConcurrentProducersNeverClaimMoreThanTheCapacity) {
  constexpr std::uint64_t capacity = 1024;
  constexpr unsigned threads = 6;
  for (int round = 0; round < 20; ++round) {
    Owned<Ticketed> o(capacity);
    std::atomic<std::uint64_t> pushed{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> producers;
    for (unsigned t = 0; t < threads; ++t) {
      producers.emplace_back([&, t] {
        while (!go.load()) {
        }
        std::uint64_t values[7];
        for (std::uint64_t i = 0; i < 7; ++i) values[i] = t * 1000000 + i;
        // Until the ring is full: batches of 1..7, so takers overdraw and give back near the end.
        for (unsigned n = 1 + t % 7;; n = n % 7 + 1) {
          const std::size_t got = o.ring().try_push_batch(values, n);
          pushed += got;
          if (got == 0 && o.free_slots() <= 0) break;
        }
      });
    }
    go = true;
    for (auto& p : producers) p.join();
    ASSERT_EQ(pushed.load(), capacity);
    EXPECT_EQ(o.free_slots(), 0);
    EXPECT_EQ(o.published(), static_cast<std::int64_t>(capacity));
    EXPECT_EQ(o.ring().head_position(), capacity);
  }
}

// A producer that took its credit and position and has not published yet (the state between
// claim_ticketed and the release store, held open here by hand), and a second producer that
// published behind it: the credit the second gave lets a consumer in, and its position is the
// first one's.
template <class Ring>
struct HalfPushed {
  Owned<Ring> o{8};
  std::uint64_t first = 0;
  HalfPushed() {
    if constexpr (Ring::ticketed) {
      EXPECT_EQ(Ring::claim_ticketed(o.ring().head(), o.ring().credits(0), first, 1), 1u);
    } else {
      EXPECT_EQ(o.ring().claim(o.ring().head(), first, 1, 0), 1u);
    }
    EXPECT_TRUE(o.ring().try_push(2));  // position first + 1, published
  }
  void publish(std::uint64_t value) {
    auto& slot = o.ring().slot_at(first);
    slot.value = value;
    Ring::seq(slot).store(first + 1, detail::order::release);
    if constexpr (Ring::ticketed) o.ring().credits(1).fetch_add(1, detail::order::relaxed);
  }
};

TEST(TicketedRing, APopWaitsForTheProducerOfItsPositionWhileThatProducerIsUnderWay) {
  HalfPushed<Ticketed> h;
  std::atomic<bool> returned{false};
  std::uint64_t got = 0;
  std::thread consumer([&] {
    EXPECT_TRUE(h.o.ring().try_pop(got));
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(returned.load()) << "returned before its position was published";
  h.publish(1);
  consumer.join();
  EXPECT_EQ(got, 1u);  // in position order: the held-open producer's message first
  std::uint64_t second = 0;
  EXPECT_TRUE(h.o.ring().try_pop(second));
  EXPECT_EQ(second, 2u);
  EXPECT_FALSE(h.o.ring().try_pop(second));
}

TEST(TicketedRing, ASystemScopeRingSaysEmptyThereInstead) {
  HalfPushed<Vyukov> h;
  std::uint64_t got = 0;
  EXPECT_FALSE(h.o.ring().try_pop(got));  // the slot at tail is not published: empty, no wait
  h.publish(1);
  EXPECT_TRUE(h.o.ring().try_pop(got));
  EXPECT_EQ(got, 1u);
}

}  // namespace
