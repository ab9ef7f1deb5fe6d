// Copyright RingKernel authors.
// The device queue algorithms of warp_enqueue.h (warp_push, warp_pop, warp_push_batch,
// warp_pop_batch), run on the host: each warp is a set of host threads playing its lanes
// (simulated_warp.h), over a real mpmc_ring. These are the code paths a kernel runs, minus the
// CUDA intrinsics; what only a GPU can show (its memory model, speed) is for the gpu tests.
// RINGKERNEL_STRESS_SCALE multiplies the message counts (1 for label unit, larger for slow).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "ringkernel/deadline.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/warp_enqueue.h"
#include "simulated_warp.h"

#ifndef RINGKERNEL_STRESS_SCALE
#define RINGKERNEL_STRESS_SCALE 1
#endif

namespace {

using ringkernel::test::run_warp;
using ringkernel::test::simulated_warp;

/// 64 bytes whose every word is derived from (producer, seq): a torn or stale copy shows.
struct Msg {
  std::uint32_t producer;
  std::uint32_t seq;
  std::uint64_t check[7];
};
static_assert(sizeof(Msg) == 64);

std::uint64_t mix(std::uint32_t producer, std::uint32_t seq, unsigned word) {
  std::uint64_t x = (std::uint64_t{producer} << 32 | seq) * 0x9e3779b97f4a7c15ull + word;
  x ^= x >> 31;
  return x * 0xbf58476d1ce4e5b9ull;
}
Msg make_msg(std::uint32_t producer, std::uint32_t seq) {
  Msg m{producer, seq, {}};
  for (unsigned w = 0; w < 7; ++w) m.check[w] = mix(producer, seq, w);
  return m;
}
bool intact(const Msg& m) {
  for (unsigned w = 0; w < 7; ++w) {
    if (m.check[w] != mix(m.producer, m.seq, w)) return false;
  }
  return true;
}

using Ring = ringkernel::mpmc_ring<Msg, ringkernel::atomic_scope::system>;

/// An mpmc_ring in its own line-aligned host memory.
class OwnedRing {
 public:
  explicit OwnedRing(std::uint64_t capacity, std::uint64_t start = 0)
      : memory_(::operator new(Ring::bytes_for(capacity), std::align_val_t{ringkernel::detail::queue_line_bytes})),
        ring_(Ring::initialize(memory_, capacity, start)) {}
  ~OwnedRing() { ::operator delete(memory_, std::align_val_t{ringkernel::detail::queue_line_bytes}); }
  OwnedRing(const OwnedRing&) = delete;
  OwnedRing& operator=(const OwnedRing&) = delete;
  const Ring& ring() const { return ring_; }
  Ring& ring() { return ring_; }

 private:
  void* memory_;
  Ring ring_;
};

/// Every party gives up after this long (60 s, 600 s for the slow variant; CTest's limit is 900 s):
/// a lost message then fails the test, naming what is missing, instead of hanging it.
constexpr std::uint64_t give_up_us = RINGKERNEL_STRESS_SCALE > 1 ? 600'000'000ull : 60'000'000ull;
ringkernel::deadline give_up() { return ringkernel::deadline::after_us(give_up_us); }

/// Aborts the binary, saying why, when parties outlive their deadline by 30 s: a warp operation
/// that never returns (a claim loop spinning on a corrupted ring) cannot look at the deadline.
class Watchdog {
 public:
  Watchdog()
      : thread_([this] {
          std::unique_lock lock(mutex_);
          if (!done_changed_.wait_for(lock, std::chrono::microseconds(give_up_us) + std::chrono::seconds(30),
                                      [this] { return done_; })) {
            std::fprintf(stderr, "WarpQueue: a warp operation did not return within its deadline + 30 s\n");
            std::abort();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    done_changed_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  std::thread thread_;
};

/// Runs every party on its own thread and waits for all of them (under a watchdog).
void run_parties(const std::vector<std::function<void()>>& parties) {
  const Watchdog watchdog;
  std::vector<std::thread> threads;
  for (const auto& party : parties) threads.emplace_back(party);
  for (auto& t : threads) t.join();
}

unsigned lanes_of(unsigned mask) { return static_cast<unsigned>(__builtin_popcount(mask)); }

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

/// What one consumer received, in the order it received it.
using Stream = std::vector<Msg>;

/// The producer ids of a warp's lanes: base + lane.
std::vector<std::uint32_t> ids_of(unsigned mask, std::uint32_t base) {
  std::vector<std::uint32_t> ids;
  for (std::uint32_t l = 0; l < 32; ++l) {
    if (((mask >> l) & 1u) != 0) ids.push_back(base + l);
  }
  return ids;
}

/// Every (producer, seq) of `producers` x [0, per_producer) exactly once over all streams, intact,
/// each producer's messages in seq order within every stream, and nothing else.
void expect_exactly_once_in_order(const std::vector<Stream>& streams, const std::vector<std::uint32_t>& producers,
                                  std::uint32_t per_producer) {
  constexpr std::uint32_t max_id = 128;
  std::vector<std::vector<char>> seen(max_id, std::vector<char>(per_producer, 0));
  std::vector<char> expected(max_id, 0);
  for (std::uint32_t p : producers) expected.at(p) = 1;
  for (std::size_t s = 0; s < streams.size(); ++s) {
    std::vector<long> last(max_id, -1);
    for (const Msg& m : streams[s]) {
      ASSERT_TRUE(intact(m)) << "stream " << s << ": torn message";
      ASSERT_TRUE(m.producer < max_id && expected[m.producer] != 0) << "stream " << s << ": unknown producer " << m.producer;
      ASSERT_LT(m.seq, per_producer);
      ASSERT_EQ(seen[m.producer][m.seq], 0) << "producer " << m.producer << " seq " << m.seq << " delivered twice";
      seen[m.producer][m.seq] = 1;
      ASSERT_GT(static_cast<long>(m.seq), last[m.producer]) << "stream " << s << ": producer " << m.producer << " out of order";
      last[m.producer] = m.seq;
    }
  }
  for (std::uint32_t p : producers) {
    for (std::uint32_t q = 0; q < per_producer; ++q) ASSERT_EQ(seen[p][q], 1) << "producer " << p << " seq " << q << " lost";
  }
}

/// A warp whose lanes each push their own producer's messages 0..n-1 with warp_push, retrying on
/// a full ring. A lane that is done returns and leaves the warp, as a kernel's lane leaves a loop.
void producer_warp(const Ring& ring, unsigned mask, std::uint32_t producer_base, std::uint32_t n) {
  const auto deadline = give_up();
  run_warp(mask, [&](const simulated_warp& warp) {
    for (std::uint32_t next = 0; next < n && !deadline.passed();) {
      if (ringkernel::detail::warp_push_on(warp, ring, make_msg(producer_base + warp.lane(), next))) ++next;
    }
  });
}

/// A warp popping with warp_pop until `taken` (shared by all consumers) reaches `total`; returns
/// what it received in ring order (lanes in rank order within one warp_pop).
Stream consumer_warp(const Ring& ring, unsigned mask, std::atomic<std::uint64_t>& taken, std::uint64_t total) {
  Stream stream(total);
  std::atomic<std::size_t> length{0};
  const auto deadline = give_up();
  run_warp(mask, [&](const simulated_warp& warp) {
    std::size_t base = 0;  // the same on every lane: each lane counts what the warp took
    while (taken.load(std::memory_order_relaxed) < total && !deadline.passed()) {
      Msg m{};
      const bool ok = ringkernel::detail::warp_pop_on(warp, ring, m);
      const unsigned active = warp.active();
      const unsigned got = warp.ballot(active, ok);
      if (ok) {
        stream.at(base + lanes_of(got & ((1u << warp.lane()) - 1u))) = m;  // (more than total: a duplicate)
        taken.fetch_add(1, std::memory_order_relaxed);
      }
      base += lanes_of(got);
      length.store(std::max(length.load(std::memory_order_relaxed), base), std::memory_order_relaxed);
    }
  });
  stream.resize(length.load());
  return stream;
}

constexpr std::uint64_t near_wrap = std::numeric_limits<std::uint64_t>::max() - 100;
constexpr std::uint32_t per_lane = 100 * RINGKERNEL_STRESS_SCALE;

TEST(WarpQueue, ProducerWarpsToOneConsumerWarpEveryMessageOnceInOrder) {
  OwnedRing owned(8, near_wrap);  // small: full and empty all the time; positions cross 2^64
  const std::vector<unsigned> masks = {0x0000'00ffu, 0x0000'5a5au, 0x8000'0001u};
  std::uint64_t total = 0;
  for (unsigned m : masks) total += std::uint64_t{lanes_of(m)} * per_lane;
  std::atomic<std::uint64_t> taken{0};
  std::vector<Stream> streams(1);
  std::vector<std::function<void()>> parties;
  for (std::uint32_t w = 0; w < masks.size(); ++w) {
    parties.emplace_back([&, w] { producer_warp(owned.ring(), masks[w], 32 * w, per_lane); });
  }
  parties.emplace_back([&] { streams[0] = consumer_warp(owned.ring(), 0x3cu, taken, total); });
  run_parties(parties);
  EXPECT_EQ(streams[0].size(), total);
  std::vector<std::uint32_t> producers;
  for (std::uint32_t w = 0; w < masks.size(); ++w) {
    for (std::uint32_t id : ids_of(masks[w], 32 * w)) producers.push_back(id);
  }
  expect_exactly_once_in_order(streams, producers, per_lane);
  EXPECT_EQ(owned.ring().size(), 0u);
}

TEST(WarpQueue, WarpsAndHostThreadsShareOneRing) {
  OwnedRing owned(16, near_wrap);
  const std::vector<unsigned> producer_masks = {0x0000'0f0fu, 0x0000'0006u};
  const std::uint32_t host_producers = 2, host_base = 64;  // producer ids 64, 65
  std::uint64_t total = std::uint64_t{host_producers} * per_lane;
  for (unsigned m : producer_masks) total += std::uint64_t{lanes_of(m)} * per_lane;
  std::atomic<std::uint64_t> taken{0};
  std::vector<Stream> streams(3);
  std::vector<std::function<void()>> parties;
  for (std::uint32_t w = 0; w < producer_masks.size(); ++w) {
    parties.emplace_back([&, w] { producer_warp(owned.ring(), producer_masks[w], 32 * w, per_lane); });
  }
  for (std::uint32_t h = 0; h < host_producers; ++h) {
    parties.emplace_back([&, h] {
      const auto deadline = give_up();
      for (std::uint32_t next = 0; next < per_lane && !deadline.passed();) {
        if (owned.ring().try_push(make_msg(host_base + h, next))) {
          ++next;
        } else {
          std::this_thread::yield();
        }
      }
    });
  }
  parties.emplace_back([&] { streams[0] = consumer_warp(owned.ring(), 0x0000'00f0u, taken, total); });
  parties.emplace_back([&] { streams[1] = consumer_warp(owned.ring(), 0x0001'0001u, taken, total); });
  parties.emplace_back([&] {  // a host thread consumes too
    Msg m{};
    const auto deadline = give_up();
    while (taken.load(std::memory_order_relaxed) < total && !deadline.passed()) {
      if (owned.ring().try_pop(m)) {
        streams[2].push_back(m);
        taken.fetch_add(1, std::memory_order_relaxed);
      } else {
        std::this_thread::yield();
      }
    }
  });
  run_parties(parties);
  std::vector<std::uint32_t> producers = {host_base, host_base + 1};
  for (std::uint32_t w = 0; w < producer_masks.size(); ++w) {
    for (std::uint32_t id : ids_of(producer_masks[w], 32 * w)) producers.push_back(id);
  }
  expect_exactly_once_in_order(streams, producers, per_lane);
}


/// A warp pushing producer `producer`'s messages 0..n-1 with warp_push_batch, `batch` at a time.
void batch_producer_warp(const Ring& ring, unsigned mask, std::uint32_t producer, std::uint32_t n, unsigned batch) {
  std::vector<Msg> values;
  for (std::uint32_t q = 0; q < n; ++q) values.push_back(make_msg(producer, q));
  const auto deadline = give_up();
  run_warp(mask, [&](const simulated_warp& warp) {
    for (std::uint32_t done = 0; done < n && !deadline.passed();) {
      done += ringkernel::detail::warp_push_batch_on(warp, ring, values.data() + done, std::min(batch, n - done));
    }
  });
}

/// A warp popping with warp_pop_batch, up to `batch` at a time, until `taken` reaches `total`.
Stream batch_consumer_warp(const Ring& ring, unsigned mask, std::atomic<std::uint64_t>& taken, std::uint64_t total,
                           unsigned batch) {
  Stream stream;
  std::vector<Msg> out(batch);  // written by every lane, read by the leader after the warp's sync
  const auto deadline = give_up();
  run_warp(mask, [&](const simulated_warp& warp) {
    while (taken.load(std::memory_order_relaxed) < total && !deadline.passed()) {
      const unsigned n = ringkernel::detail::warp_pop_batch_on(warp, ring, out.data(), batch);
      const ringkernel::detail::warp_group g = ringkernel::detail::warp_group::of(warp);
      if (g.is_leader()) {
        stream.insert(stream.end(), out.begin(), out.begin() + n);
        taken.fetch_add(n, std::memory_order_relaxed);
      }
      warp.sync(g.active);  // the leader's reads of `out` before the next batch overwrites it
    }
  });
  return stream;
}

TEST(WarpQueue, BatchesSpanSeveralClaimsAndKeepOrder) {
  OwnedRing owned(64, near_wrap);
  const std::uint32_t n = 300 * RINGKERNEL_STRESS_SCALE;
  // 4 lanes claim at most 32 positions at once: batches of 75 take three claims or more.
  std::atomic<std::uint64_t> taken{0};
  std::vector<Stream> streams(1);
  run_parties({[&] { batch_producer_warp(owned.ring(), 0x0000'0f00u, 0, n, 75); },
               [&] { streams[0] = batch_consumer_warp(owned.ring(), 0x0000'0007u, taken, n, 50); }});
  ASSERT_EQ(streams[0].size(), n);
  for (std::uint32_t q = 0; q < n; ++q) {
    ASSERT_EQ(streams[0][q].seq, q);  // one producer, one consumer: the exact sequence
    ASSERT_TRUE(intact(streams[0][q])) << q;
  }
}

TEST(WarpQueue, BatchAndSingleWarpsMixEveryMessageOnce) {
  OwnedRing owned(32, near_wrap);
  const std::uint32_t n = 200 * RINGKERNEL_STRESS_SCALE;
  std::atomic<std::uint64_t> taken{0};
  const std::uint64_t total = 3ull * n + 2ull * n;  // three batch producers (ids 0-2), two warp_push lanes (3, 4)
  std::vector<Stream> streams(3);
  std::vector<std::function<void()>> parties;
  parties.emplace_back([&] { batch_producer_warp(owned.ring(), 0xffff'ffffu, 0, n, 257); });  // 32 lanes
  parties.emplace_back([&] { batch_producer_warp(owned.ring(), 0x0000'0100u, 1, n, 9); });    // one lane
  parties.emplace_back([&] { batch_producer_warp(owned.ring(), 0x0000'0c00u, 2, n, 17); });
  parties.emplace_back([&] { producer_warp(owned.ring(), 0x0000'0018u, 0, n); });  // lanes 3, 4: ids 3, 4
  parties.emplace_back([&] { streams[0] = batch_consumer_warp(owned.ring(), 0x0000'00ffu, taken, total, 40); });
  parties.emplace_back([&] { streams[1] = batch_consumer_warp(owned.ring(), 0x0000'0001u, taken, total, 3); });
  parties.emplace_back([&] { streams[2] = consumer_warp(owned.ring(), 0x0000'0300u, taken, total); });
  run_parties(parties);
  expect_exactly_once_in_order(streams, {0, 1, 2, 3, 4}, n);
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
