// Copyright RingKernel authors.
// The device queue algorithms of warp_enqueue.h under concurrency, on the host: warps of host
// threads playing lanes (simulated_warp.h) and plain host threads producing and consuming one
// mpmc_ring at once; every message once, intact, in per-producer order.
// RINGKERNEL_STRESS_SCALE multiplies the message counts (1 for label unit, larger for slow), here
// divided by 5 (warp_scale).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "ringkernel/deadline.h"
#include "ringkernel/queue/warp_enqueue.h"
#include "simulated_warp.h"
#include "warp_queue_fixture.h"

#ifndef RINGKERNEL_STRESS_SCALE
#define RINGKERNEL_STRESS_SCALE 1
#endif

namespace {

using namespace warp_queue_test;
using ringkernel::test::run_warp;
using ringkernel::test::simulated_warp;

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

/// Ticketed rings, once every party has returned and the ring is drained: every credit is back
/// (an overdraw not given back would leave fewer free slots; one handed out, other counts).
void expect_credits_back(const Ring& ring) {
  if constexpr (Ring::ticketed) {
    EXPECT_EQ(static_cast<std::int64_t>(ring.credits(0).load(ringkernel::detail::order::relaxed)),
              static_cast<std::int64_t>(ring.capacity()))
        << "free_slots";
    EXPECT_EQ(static_cast<std::int64_t>(ring.credits(1).load(ringkernel::detail::order::relaxed)), 0) << "published";
  }
}

constexpr std::uint64_t near_wrap = std::numeric_limits<std::uint64_t>::max() - 100;
// A fifth of RINGKERNEL_STRESS_SCALE: every lane is a thread and every warp collective wakes all
// of a warp's threads, so on a 2-core machine each message costs dozens of context switches (at
// the full scale of 250 these tests took 263 s of the 2-core test script's time, at 50 they take
// 33 s alone; the host queue stress tests in queue_stress_test.cpp keep the full scale).
constexpr std::uint32_t warp_scale = RINGKERNEL_STRESS_SCALE >= 5 ? RINGKERNEL_STRESS_SCALE / 5 : RINGKERNEL_STRESS_SCALE;
constexpr std::uint32_t per_lane = 100 * warp_scale;

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
  expect_credits_back(owned.ring());
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
  expect_credits_back(owned.ring());
}


/// A warp pushing producer `producer`'s messages 0..n-1 with warp_push_batch, `batch` at a time.
/// The lanes of `late` (part of `mask`, or 0) reach every call after the others have blocked in it,
/// as lanes may under independent thread scheduling.
void batch_producer_warp(const Ring& ring, unsigned mask, std::uint32_t producer, std::uint32_t n, unsigned batch,
                         unsigned late = 0) {
  std::vector<Msg> values;
  for (std::uint32_t q = 0; q < n; ++q) values.push_back(make_msg(producer, q));
  const auto deadline = give_up();
  run_warp(mask, [&](const simulated_warp& warp) {
    // Every lane of the mask calls, or none: `done` is the same on every lane, the deadline is not.
    for (std::uint32_t done = 0; done < n && warp.ballot(mask, deadline.passed()) == 0;) {
      if (((late >> warp.lane()) & 1u) != 0) warp.lag_behind(late);
      done += ringkernel::detail::warp_push_batch_on(warp, mask, ring, values.data() + done, std::min(batch, n - done));
    }
  });
}

/// A warp popping with warp_pop_batch, up to `batch` at a time, until `taken` reaches `total`.
Stream batch_consumer_warp(const Ring& ring, unsigned mask, std::atomic<std::uint64_t>& taken, std::uint64_t total,
                           unsigned batch) {
  Stream stream;
  std::vector<Msg> out(batch);  // written by every lane, read by the leader after the call's exit sync
  const auto deadline = give_up();
  const int leader = __builtin_ffs(static_cast<int>(mask)) - 1;
  run_warp(mask, [&](const simulated_warp& warp) {
    // One decision for the whole mask (each lane's own look at `taken` could differ).
    while (warp.ballot(mask, taken.load(std::memory_order_relaxed) >= total || deadline.passed()) == 0) {
      // The entry sync orders the leader's reads of `out` (last batch) before this batch's writes.
      const unsigned n = ringkernel::detail::warp_pop_batch_on(warp, mask, ring, out.data(), batch);
      if (static_cast<int>(warp.lane()) == leader) {
        stream.insert(stream.end(), out.begin(), out.begin() + n);
        taken.fetch_add(n, std::memory_order_relaxed);
      }
    }
  });
  return stream;
}

TEST(WarpQueue, BatchesSpanSeveralClaimsAndKeepOrder) {
  OwnedRing owned(64, near_wrap);
  const std::uint32_t n = 300 * warp_scale;
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
  expect_credits_back(owned.ring());
}

TEST(WarpQueue, BatchAndSingleWarpsMixEveryMessageOnce) {
  OwnedRing owned(32, near_wrap);
  const std::uint32_t n = 200 * warp_scale;
  std::atomic<std::uint64_t> taken{0};
  const std::uint64_t total = 3ull * n + 2ull * n;  // three batch producers (ids 0-2), two warp_push lanes (3, 4)
  std::vector<Stream> streams(3);
  std::vector<std::function<void()>> parties;
  // 32 lanes, the upper 16 reaching every call late
  parties.emplace_back([&] { batch_producer_warp(owned.ring(), 0xffff'ffffu, 0, n, 257, 0xffff'0000u); });
  parties.emplace_back([&] { batch_producer_warp(owned.ring(), 0x0000'0100u, 1, n, 9); });    // one lane
  parties.emplace_back([&] { batch_producer_warp(owned.ring(), 0x0000'0c00u, 2, n, 17); });
  parties.emplace_back([&] { producer_warp(owned.ring(), 0x0000'0018u, 0, n); });  // lanes 3, 4: ids 3, 4
  parties.emplace_back([&] { streams[0] = batch_consumer_warp(owned.ring(), 0x0000'00ffu, taken, total, 40); });
  parties.emplace_back([&] { streams[1] = batch_consumer_warp(owned.ring(), 0x0000'0001u, taken, total, 3); });
  parties.emplace_back([&] { streams[2] = consumer_warp(owned.ring(), 0x0000'0300u, taken, total); });
  run_parties(parties);
  expect_exactly_once_in_order(streams, {0, 1, 2, 3, 4}, n);
  expect_credits_back(owned.ring());
}

// Producer warps whose lanes route their messages to two rings (even lanes to one, odd lanes to
// the other), as a kernel sends each lane's message to its destination's queue: every warp_push
// makes one claim per ring. Each ring has its own consumer warp.
TEST(WarpQueue, LanesRoutingToTwoRingsDeliverEveryMessageOnceInOrder) {
  OwnedRing even(8, near_wrap), odd(16);
  const std::vector<unsigned> masks = {0x0000'ffffu, 0x00ff'00ffu};
  std::vector<std::uint32_t> even_ids, odd_ids;
  for (std::uint32_t w = 0; w < masks.size(); ++w) {
    for (std::uint32_t id : ids_of(masks[w], 32 * w)) (id % 2 == 0 ? even_ids : odd_ids).push_back(id);
  }
  const std::uint64_t even_total = even_ids.size() * std::uint64_t{per_lane};
  const std::uint64_t odd_total = odd_ids.size() * std::uint64_t{per_lane};
  std::atomic<std::uint64_t> even_taken{0}, odd_taken{0};
  std::vector<Stream> even_streams(1), odd_streams(1);
  std::vector<std::function<void()>> parties;
  for (std::uint32_t w = 0; w < masks.size(); ++w) {
    parties.emplace_back([&, w] {
      const auto deadline = give_up();
      run_warp(masks[w], [&](const simulated_warp& warp) {
        const Ring& ring = warp.lane() % 2 == 0 ? even.ring() : odd.ring();
        for (std::uint32_t next = 0; next < per_lane && !deadline.passed();) {
          if (ringkernel::detail::warp_push_on(warp, ring, make_msg(32 * w + warp.lane(), next))) ++next;
        }
      });
    });
  }
  parties.emplace_back([&] { even_streams[0] = consumer_warp(even.ring(), 0x0000'000fu, even_taken, even_total); });
  parties.emplace_back([&] { odd_streams[0] = consumer_warp(odd.ring(), 0x0000'0f00u, odd_taken, odd_total); });
  run_parties(parties);
  EXPECT_EQ(even_streams[0].size(), even_total);
  EXPECT_EQ(odd_streams[0].size(), odd_total);
  expect_exactly_once_in_order(even_streams, even_ids, per_lane);
  expect_exactly_once_in_order(odd_streams, odd_ids, per_lane);
  EXPECT_EQ(even.ring().size(), 0u);
  EXPECT_EQ(odd.ring().size(), 0u);
  expect_credits_back(even.ring());
  expect_credits_back(odd.ring());
}

}  // namespace
