// Copyright RingKernel authors.
// Concurrent stress of MpmcQueue and SpscQueue on host threads, with indices starting just below
// 2^64 so every run crosses the wrap: each message is delivered exactly once and in per-sender
// order, or reported undelivered by exactly one send result / eviction - under every full-queue
// policy; clear() and shutdown() with messages in flight lose and duplicate nothing. The *TryBatches
// variants send their batches with try_send_batch (under block, a refused rest is offered again).
// RINGKERNEL_STRESS_SCALE multiplies the message counts (1 for label unit, larger for slow).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "messaging_messages.rk.h"
#include "ringkernel/queue/message_queue.h"

#ifndef RINGKERNEL_STRESS_SCALE
#define RINGKERNEL_STRESS_SCALE 1
#endif

namespace {

using namespace std::chrono_literals;
using messaging_test::Tagged;
using ringkernel::FullPolicy;
using ringkernel::QueueOptions;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;

constexpr std::uint64_t near_wrap = std::numeric_limits<std::uint64_t>::max() - 1000;
constexpr std::uint64_t per_producer = 4000 * RINGKERNEL_STRESS_SCALE;

enum class fate : std::uint8_t { unknown, sent, refused, evicted };

/// Who got what: per producer, per index, the fate the producer saw and how often it was received.
struct ledger {
  explicit ledger(unsigned producers) : fates(producers, std::vector<fate>(per_producer, fate::unknown)),
                                        received(producers, std::vector<std::uint8_t>(per_producer, 0)) {}
  std::vector<std::vector<fate>> fates;
  std::vector<std::vector<std::uint8_t>> received;
  std::mutex evicted_mutex;
  std::vector<Tagged> evicted;
};

template <class Queue>
void consume(Queue& q, std::vector<std::vector<std::uint64_t>>& seen_by_producer) {
  Tagged batch[8];
  for (;;) {
    const auto r = q.receive_batch(std::span<Tagged>(batch, 1 + seen_by_producer.size() % 8), 5s);
    if (r.status == ReceiveStatus::closed) return;
    ASSERT_EQ(r.status, ReceiveStatus::ok) << ringkernel::to_string(r.status);
    for (std::size_t i = 0; i < r.received; ++i) seen_by_producer[batch[i].producer].push_back(batch[i].index);
  }
}

// try_send_batch: under block, what a full ring refused is offered again (each refusal counted
// in rejected_full and in `retried`) until all 4 are in; other policies settle it at once.
template <class Queue>
ringkernel::BatchSendResult try_batch(Queue& q, const Tagged (&batch)[4], FullPolicy policy,
                                      std::atomic<std::uint64_t>& retried) {
  ringkernel::BatchSendResult r = q.try_send_batch(std::span<const Tagged>(batch, 4));
  while (policy == FullPolicy::block && r.status == SendStatus::full) {
    retried.fetch_add(4 - r.accepted);
    std::this_thread::yield();
    const auto more = q.try_send_batch(std::span<const Tagged>(batch + r.accepted, 4 - r.accepted));
    r = {more.status, r.accepted + more.accepted, r.evicted + more.evicted};
  }
  return r;
}

template <class Queue>
void run_stress(FullPolicy policy, unsigned producers, unsigned consumers, std::size_t capacity,
                bool try_batches = false) {
  Queue q(QueueOptions{.capacity = capacity, .policy = policy, .start_position = near_wrap});
  ledger book(producers);
  q.set_eviction_handler([&](const Tagged& t) {
    std::lock_guard lock(book.evicted_mutex);
    book.evicted.push_back(t);
  });
  std::vector<std::vector<std::vector<std::uint64_t>>> seen(consumers,
                                                            std::vector<std::vector<std::uint64_t>>(producers));
  std::vector<std::thread> threads;
  for (unsigned c = 0; c < consumers; ++c) threads.emplace_back([&, c] { consume(q, seen[c]); });
  std::atomic<std::uint64_t> retried{0};  // try_batches under block: refusals offered again
  std::vector<std::thread> senders;
  for (unsigned p = 0; p < producers; ++p) {
    senders.emplace_back([&, p] {
      std::uint64_t i = 0;
      while (i < per_producer) {
        if (i % 7 == 3 && i + 4 <= per_producer) {  // some batches
          Tagged batch[4];
          for (std::uint64_t k = 0; k < 4; ++k) batch[k] = Tagged{p, 0, i + k};
          const auto r = try_batches ? try_batch(q, batch, policy, retried)
                                     : q.send_batch(std::span<const Tagged>(batch, 4), 10s);
          for (std::uint64_t k = 0; k < 4; ++k) book.fates[p][i + k] = k < r.accepted ? fate::sent : fate::refused;
          ASSERT_TRUE(r.accepted == 4 || r.status != SendStatus::ok);
          ASSERT_NE(r.status, SendStatus::timeout);
          i += 4;
        } else {
          const auto r = q.send(Tagged{p, 0, i}, 10s);
          ASSERT_NE(r.status, SendStatus::timeout);
          book.fates[p][i] = r.ok() ? fate::sent : fate::refused;
          ++i;
        }
      }
    });
  }
  for (auto& s : senders) s.join();
  q.shutdown();
  for (auto& t : threads) t.join();

  for (const Tagged& t : book.evicted) {
    ASSERT_EQ(book.fates[t.producer][t.index], fate::sent);
    book.fates[t.producer][t.index] = fate::evicted;
  }
  std::uint64_t delivered = 0, refused = 0;
  for (unsigned c = 0; c < consumers; ++c) {
    for (unsigned p = 0; p < producers; ++p) {
      const auto& s = seen[c][p];
      for (std::size_t k = 0; k < s.size(); ++k) {
        if (k > 0) {
          ASSERT_LT(s[k - 1], s[k]) << "producer " << p << " out of order at consumer " << c;
        }
        ASSERT_EQ(book.received[p][s[k]]++, 0) << "message " << p << ":" << s[k] << " delivered twice";
      }
    }
  }
  for (unsigned p = 0; p < producers; ++p) {
    for (std::uint64_t i = 0; i < per_producer; ++i) {
      const fate f = book.fates[p][i];
      const bool got = book.received[p][i] != 0;
      ASSERT_EQ(got, f == fate::sent) << "message " << p << ":" << i << " fate " << static_cast<int>(f);
      delivered += got;
      refused += f == fate::refused;
    }
  }
  const auto s = q.statistics();
  EXPECT_EQ(s.received, delivered);
  EXPECT_EQ(s.dropped_oldest, book.evicted.size());
  EXPECT_EQ(s.sent, delivered + s.dropped_oldest);
  EXPECT_EQ(s.rejected_full + s.dropped_newest, refused + retried.load());
  EXPECT_EQ(s.timed_out, 0u);
  if (policy == FullPolicy::block) {
    EXPECT_EQ(delivered, producers * per_producer);
  }
}

using Mpmc = ringkernel::MpmcQueue<Tagged>;
using Spsc = ringkernel::SpscQueue<Tagged>;

TEST(QueueStress, MpmcBlock) { run_stress<Mpmc>(FullPolicy::block, 3, 2, 64); }
TEST(QueueStress, MpmcReject) { run_stress<Mpmc>(FullPolicy::reject, 3, 2, 16); }
TEST(QueueStress, MpmcDropNewest) { run_stress<Mpmc>(FullPolicy::drop_newest, 3, 2, 16); }
TEST(QueueStress, MpmcDropOldest) { run_stress<Mpmc>(FullPolicy::drop_oldest, 3, 2, 16); }
TEST(QueueStress, SpscBlock) { run_stress<Spsc>(FullPolicy::block, 1, 1, 64); }
TEST(QueueStress, SpscReject) { run_stress<Spsc>(FullPolicy::reject, 1, 1, 8); }
TEST(QueueStress, SpscDropNewest) { run_stress<Spsc>(FullPolicy::drop_newest, 1, 1, 8); }
TEST(QueueStress, MpmcBlockTryBatches) { run_stress<Mpmc>(FullPolicy::block, 3, 2, 16, true); }
TEST(QueueStress, MpmcDropNewestTryBatches) { run_stress<Mpmc>(FullPolicy::drop_newest, 3, 2, 16, true); }
TEST(QueueStress, MpmcDropOldestTryBatches) { run_stress<Mpmc>(FullPolicy::drop_oldest, 3, 2, 16, true); }
TEST(QueueStress, SpscBlockTryBatches) { run_stress<Spsc>(FullPolicy::block, 1, 1, 8, true); }
TEST(QueueStress, SpscRejectTryBatches) { run_stress<Spsc>(FullPolicy::reject, 1, 1, 8, true); }

// clear() from a third party and shutdown() while producers and consumers run.
TEST(QueueStress, ClearAndShutdownWithMessagesInFlight) {
  Mpmc q(QueueOptions{.capacity = 32, .policy = FullPolicy::reject, .start_position = near_wrap});
  constexpr unsigned producers = 2;
  ledger book(producers);
  std::atomic<std::uint64_t> cleared{0};
  std::atomic<bool> producers_done{false};
  std::vector<std::vector<std::uint64_t>> seen(producers);
  std::thread consumer([&] { consume(q, seen); });
  std::thread clearer([&] {
    while (!producers_done.load()) {
      cleared += q.clear();
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> senders;
  std::atomic<std::uint64_t> attempts{0};
  for (unsigned p = 0; p < producers; ++p) {
    senders.emplace_back([&, p] {
      for (std::uint64_t i = 0; i < per_producer; ++i) {
        const auto r = q.send(Tagged{p, 0, i});
        book.fates[p][i] = r.ok() ? fate::sent : fate::refused;
        if (attempts.fetch_add(1) == producers * per_producer / 2) q.shutdown();  // mid-flight
      }
    });
  }
  for (auto& s : senders) s.join();
  producers_done = true;
  clearer.join();
  consumer.join();
  // Producers are done: anything a racing send enqueued after the consumer's last look is still
  // queued and must be there now.
  Tagged rest{};
  while (q.try_receive(rest) == ReceiveStatus::ok) seen[rest.producer].push_back(rest.index);

  std::uint64_t delivered = 0, sent = 0, closed_refusals = 0;
  for (unsigned p = 0; p < producers; ++p) {
    for (std::size_t k = 0; k < seen[p].size(); ++k) {
      if (k > 0) {
        ASSERT_LT(seen[p][k - 1], seen[p][k]);
      }
      ASSERT_EQ(book.fates[p][seen[p][k]], fate::sent) << "received a message whose send failed";
      ASSERT_EQ(book.received[p][seen[p][k]]++, 0);
      ++delivered;
    }
    for (std::uint64_t i = 0; i < per_producer; ++i) sent += book.fates[p][i] == fate::sent;
  }
  const auto s = q.statistics();
  closed_refusals = s.rejected_closed;
  EXPECT_GT(closed_refusals, 0u) << "shutdown happened mid-flight";
  EXPECT_EQ(s.cleared, cleared.load());
  EXPECT_EQ(sent, delivered + cleared.load()) << "every accepted message is received or cleared";
  EXPECT_EQ(s.sent, sent);
  EXPECT_EQ(s.received, delivered);
  EXPECT_EQ(s.rejected_full + s.rejected_closed, producers * per_producer - sent);
}

// statistics() while senders evict (drop_oldest), a thread clears and a consumer receives: a
// snapshot's `received` is never below the receives that had returned before it was taken (an
// eviction or clear counted before its pop reached the tail index would make it so, or wrap it
// past `sent`), and the identity holds exactly once everything has returned.
TEST(QueueStress, StatisticsDuringEvictionsAndClearsNeverUndercountReceives) {
  Mpmc q(QueueOptions{.capacity = 16, .policy = FullPolicy::drop_oldest, .start_position = near_wrap});
  std::atomic<std::uint64_t> received{0};
  std::atomic<bool> done{false};
  std::thread consumer([&] {
    Tagged m{};
    while (!done.load()) {
      if (q.try_receive(m) == ReceiveStatus::ok) received.fetch_add(1);
    }
  });
  std::thread clearer([&] {
    while (!done.load()) {
      q.clear();
      std::this_thread::yield();
    }
  });
  std::uint64_t snapshots = 0, undercounts = 0, beyond_sent = 0;
  std::atomic<bool> observing{false};  // the senders start once the observer has (on a loaded
                                       // 2-core machine it was once not scheduled before they ended)
  std::thread observer([&] {
    while (!done.load()) {
      const std::uint64_t before = received.load();
      const auto s = q.statistics();
      ++snapshots;
      undercounts += s.received < before;
      beyond_sent += s.received > s.sent;
      observing.store(true);
    }
  });
  std::vector<std::thread> senders;
  for (unsigned p = 0; p < 2; ++p) {
    senders.emplace_back([&, p] {
      while (!observing.load()) std::this_thread::yield();
      for (std::uint64_t i = 0; i < 50 * per_producer; ++i) ASSERT_TRUE(q.send(Tagged{p, 0, i}).ok());
    });
  }
  for (auto& t : senders) t.join();
  done = true;
  for (auto* t : {&consumer, &clearer, &observer}) t->join();
  EXPECT_GT(snapshots, 0u);
  EXPECT_EQ(undercounts, 0u) << "of " << snapshots << " snapshots";
  EXPECT_EQ(beyond_sent, 0u) << "of " << snapshots << " snapshots";
  const auto s = q.statistics();
  EXPECT_EQ(s.sent, 2 * 50 * per_producer);
  EXPECT_EQ(s.received, received.load());
  EXPECT_EQ(s.sent, s.received + s.dropped_oldest + s.cleared + q.count());
}

}  // namespace
