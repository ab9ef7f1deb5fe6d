// Copyright RingKernel authors.
// What is particular to ticketed mpmc rings (device or block scope: credits and fetch_add claims,
// mpmc_ring.h), on host threads: the credits bound every claim, a full / empty ring refuses
// without keeping any, concurrent takers never get more than there is, and a consumer whose
// position a producer claimed but has not published yet waits for that producer (a system-scope
// ring answers "empty" instead). The credit arithmetic (overdraws given back) checked exhaustively
// over small counts and under contention with a hook that widens the window between a claim's look
// and its take (RINGKERNEL_TEST_HOOKS, defined for this binary); the kind initialize() records.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <random>
#include <thread>
#include <vector>

#include "ringkernel/deadline.h"
#include "ringkernel/queue/mpmc_ring.h"

#if !defined(RINGKERNEL_TEST_HOOKS)
#error "messaging_ticketed_tests opens the claim window with RINGKERNEL_TEST_HOOKS (tests/messaging/CMakeLists.txt)"
#endif

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

// Producers alone fill the ring exactly (an over-claim would leave a producer waiting here for a
// consumer that never comes: OverdrawnCreditsAreGivenBackAndNeverHandedOut is the test that fails on it).
TEST(TicketedRing, ConcurrentProducersFillTheRingExactly) {
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

// What a claim takes and gives back, for every look `seen`, request n and count `before` found
// by its take in small ranges (both signs: counts go negative while others overdraw).
TEST(TicketedRing, CreditArithmeticKeepsWhatExistedAndGivesBackTheRest) {
  static_assert(detail::credits_to_take(3, 5) == 3 && detail::credits_to_take(5, 3) == 3);
  static_assert(detail::credits_taken(2, 5).got == 2 && detail::credits_taken(2, 5).give_back == 3);
  for (std::int64_t seen = -12; seen <= 12; ++seen) {
    for (std::uint64_t n = 0; n <= 12; ++n) {
      const std::uint64_t want = detail::credits_to_take(seen, n);
      ASSERT_LE(want, n);
      ASSERT_EQ(want == 0, seen <= 0 || n == 0) << "seen " << seen << " n " << n;  // takes whenever it saw some
      ASSERT_LE(static_cast<std::int64_t>(want), std::max<std::int64_t>(seen, 0));  // no more than it saw
      ASSERT_EQ(want, std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max<std::int64_t>(seen, 0)), n));
      if (want == 0) continue;
      for (std::int64_t before = -24; before <= 24; ++before) {
        const detail::credit_take t = detail::credits_taken(before, want);
        const auto existed = static_cast<std::uint64_t>(std::max<std::int64_t>(before, 0));
        ASSERT_EQ(t.got + t.give_back, want) << "before " << before << " want " << want;  // every credit kept or returned
        ASSERT_LE(t.got, existed) << "before " << before << " want " << want;  // never more than the count held
        ASSERT_EQ(t.got, std::min(existed, want)) << "before " << before << " want " << want;  // all it can: progress
        // The count after the take and the give-back: what it held, less what this party kept.
        ASSERT_EQ(before - static_cast<std::int64_t>(want) + static_cast<std::int64_t>(t.give_back),
                  before - static_cast<std::int64_t>(t.got));
      }
    }
  }
}

/// Installs `hook` in the ticketed claims' window (mpmc_ring.h, test_hooks) for its lifetime.
class ClaimWindowHook {
 public:
  explicit ClaimWindowHook(void (*hook)()) { detail::test_hooks::ticketed_claim_window.store(hook); }
  ~ClaimWindowHook() { detail::test_hooks::ticketed_claim_window.store(nullptr); }
  ClaimWindowHook(const ClaimWindowHook&) = delete;
  ClaimWindowHook& operator=(const ClaimWindowHook&) = delete;
};

thread_local unsigned window_rng = 1;
void yield_one_time_in_four() {
  window_rng = window_rng * 1103515245u + 12345u;
  if ((window_rng >> 16) % 4 == 0) std::this_thread::yield();
}

/// Stops the process, saying why: once a bound breaks, parties may wait for positions nobody
/// will fill (a test that hangs tells nothing).
[[noreturn]] void broken(const char* what, long long a, long long b) {
  std::fprintf(stderr, "TicketedRing: %s (%lld, %lld)\n", what, a, b);
  std::abort();
}

// Producers and consumers of single messages and batches of 1-8 on a ring of 8, with a yield
// one time in four between every claim's look at the credits and its take: others take credits
// in that window (overdraws), which a claim must give back and never hand out. A monitor checks
// the bounds the credits keep (head - tail <= capacity, tail <= head, neither count above the
// capacity); every message arrives once, in per-producer order; at the end every credit is back.
TEST(TicketedRing, OverdrawnCreditsAreGivenBackAndNeverHandedOut) {
  constexpr std::uint64_t capacity = 8;
  constexpr unsigned producers = 4, consumers = 4;
  constexpr std::uint64_t per = 1000, total = producers * per;
  const std::uint64_t start = ~std::uint64_t{0} - 3 * capacity;  // crosses 2^64
  Owned<Ticketed> o(capacity, start);
  Ticketed& ring = o.ring();
  const ClaimWindowHook hook(&yield_one_time_in_four);
  const auto give_up = ringkernel::deadline::after_us(120'000'000);
  std::atomic<bool> stop{false}, stalled{false};  // stalled: nothing consumed for 10 s (credits lost)
  std::atomic<std::uint64_t> consumed{0}, looks{0};
  std::vector<std::atomic<unsigned char>> seen(total);
  std::vector<std::vector<std::uint64_t>> next_of(consumers, std::vector<std::uint64_t>(producers, 0));
  std::thread monitor([&] {
    std::uint64_t last = 0;
    auto last_change = std::chrono::steady_clock::now();
    while (!stop.load()) {
      if (const std::uint64_t c = consumed.load(); c != last) {
        last = c;
        last_change = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - last_change > std::chrono::seconds(10)) {
        stalled = true;
      }
      const std::uint64_t h = ring.head_position(), t = ring.tail_position();  // head first: t only grew since
      if (detail::position_diff(h, t) > static_cast<std::int64_t>(capacity)) {
        broken("head - tail > capacity", static_cast<long long>(h - t), static_cast<long long>(capacity));
      }
      const std::uint64_t t2 = ring.tail_position(), h2 = ring.head_position();  // tail first: h only grew since
      if (detail::position_diff(h2, t2) < 0) broken("tail > head", static_cast<long long>(t2 - h2), 0);
      if (o.free_slots() > static_cast<std::int64_t>(capacity) || o.published() > static_cast<std::int64_t>(capacity)) {
        broken("credits above the capacity", o.free_slots(), o.published());
      }
      ++looks;
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> parties;
  for (unsigned p = 0; p < producers; ++p) {
    parties.emplace_back([&, p] {
      window_rng = 7 + p;
      std::mt19937 r(p);
      std::uint64_t next = 0, values[8];
      while (next < per && !stalled.load() && !give_up.passed()) {
        const auto n = static_cast<unsigned>(std::min<std::uint64_t>(1 + r() % 8, per - next));
        for (unsigned i = 0; i < n; ++i) values[i] = std::uint64_t{p} << 32 | (next + i);
        next += (r() & 1) != 0 ? ring.try_push_batch(values, n) : ring.try_push(values[0]) ? 1u : 0u;
      }
    });
  }
  for (unsigned q = 0; q < consumers; ++q) {
    parties.emplace_back([&, q] {
      window_rng = 1000 + q;
      std::mt19937 r(100 + q);
      std::uint64_t out[8];
      while (consumed.load() < total && !stalled.load() && !give_up.passed()) {
        const std::size_t got = (r() & 1) != 0 ? ring.try_pop_batch(out, 1 + r() % 8) : ring.try_pop(out[0]) ? 1u : 0u;
        for (std::size_t i = 0; i < got; ++i) {
          const auto p = static_cast<unsigned>(out[i] >> 32);
          const std::uint64_t s = out[i] & 0xffff'ffffu;
          if (p >= producers || s >= per) broken("not a message", p, static_cast<long long>(s));
          if (seen[p * per + s].fetch_add(1) != 0) broken("delivered twice (producer, seq)", p, static_cast<long long>(s));
          if (s < next_of[q][p]) broken("out of order (producer, seq)", p, static_cast<long long>(s));
          next_of[q][p] = s + 1;
        }
        consumed += got;
      }
    });
  }
  for (auto& t : parties) t.join();
  stop = true;
  monitor.join();
  EXPECT_FALSE(stalled.load() || give_up.passed())
      << "stalled: " << consumed.load() << " of " << total << " consumed; free_slots " << o.free_slots() << ", published "
      << o.published() << " (credits lost?)";
  for (std::uint64_t i = 0; i < total; ++i) ASSERT_EQ(seen[i].load(), 1) << "producer " << i / per << " seq " << i % per;
  EXPECT_EQ(o.free_slots(), static_cast<std::int64_t>(capacity));  // every credit back
  EXPECT_EQ(o.published(), 0);
  EXPECT_EQ(ring.head_position(), start + total);
  EXPECT_EQ(ring.tail_position(), start + total);
  EXPECT_GT(looks.load(), 0u);
}

// initialize() records how the ring claims (one memory, one kind of view: mpmc_ring.h, top).
TEST(TicketedRing, TheRingMemoryRecordsItsKind) {
  Owned<Ticketed> t(8);
  Owned<Vyukov> v(8);
  EXPECT_EQ(t.ring().control()->kind, detail::ring_kind_ticketed);
  EXPECT_EQ(v.ring().control()->kind, detail::ring_kind_cas);
  using Mixed = ringkernel::mpmc_ring<std::uint64_t, atomic_scope::system, atomic_scope::device>;
  static_assert(Mixed::kind == detail::ring_kind_cas && Ticketed::kind == detail::ring_kind_ticketed);
  EXPECT_EQ(Mixed(v.ring().control()).capacity(), 8u);  // CAS claims either way: one kind
  EXPECT_EQ(Ticketed(t.ring().control()).capacity(), 8u);
}

// The constructor that reads the memory asserts the view is of the kind recorded (debug builds).
TEST(TicketedRing, AViewOfTheOtherKindIsRefusedInDebugBuilds) {
#if defined(NDEBUG)
  GTEST_SKIP() << "the check is an assert: debug builds only";
#else
  Owned<Ticketed> t(8);
  Owned<Vyukov> v(8);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH((void)Vyukov{t.ring().control()}, "one memory, one kind of view");
  EXPECT_DEATH((void)Ticketed{v.ring().control()}, "one memory, one kind of view");
#endif
}

}  // namespace
