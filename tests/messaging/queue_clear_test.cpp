// Copyright RingKernel authors.
// clear() removes at most what is queued when it starts (docs/messaging.md §4): a producer that
// keeps sending while clear() runs cannot keep it going, so one call removes no more than the
// capacity, and every message stays accounted for (sent = received + cleared + count()).
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include "ringkernel/queue/message_queue.h"

namespace {

using ringkernel::FullPolicy;
using ringkernel::QueueOptions;
using ringkernel::ReceiveStatus;

template <class Q>
class QueueClear : public ::testing::Test {};
// Big messages in a big ring: one clear() copies 64 MiB and spans scheduler time slices, so the
// producer, refilling the ring in batches, overlaps it even when the two threads share one core.
using Big = std::array<std::uint64_t, 64>;
using QueueTypes = ::testing::Types<ringkernel::MpmcQueue<Big>, ringkernel::SpscQueue<Big>>;
TYPED_TEST_SUITE(QueueClear, QueueTypes);

TYPED_TEST(QueueClear, OneCallRemovesAtMostWhatWasQueuedWhileAProducerKeepsSending) {
  TypeParam q(QueueOptions{.capacity = std::size_t{1} << 17, .policy = FullPolicy::reject});
  std::atomic<std::uint64_t> accepted{0};
  // The producer stops at the deadline by itself: before the fix a clear() overlapping it went on
  // as long as the producer kept up (the bug: no bound on one call).
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  std::thread producer([&] {
    const std::vector<Big> batch(256, Big{});
    while (std::chrono::steady_clock::now() < until) {
      accepted.fetch_add(q.try_send_batch(std::span<const Big>(batch)).accepted, std::memory_order_relaxed);
    }
  });
  // Each clear() starts on a full ring, so that one removing what the producer sends meanwhile
  // removes more than the capacity. Before the fix one call went on while the producer refilled the
  // ring (102 messages from a capacity-2 queue): look until such a call is seen or the time is up.
  std::size_t most = 0;
  std::uint64_t total = 0;
  while (std::chrono::steady_clock::now() < until && most <= q.capacity()) {
    if (!q.is_full()) {
      std::this_thread::yield();
      continue;
    }
    const std::size_t n = q.clear();
    total += n;
    if (n > most) most = n;
  }
  producer.join();
  EXPECT_LE(most, q.capacity()) << "one clear() removed more than the queue can hold";

  std::uint64_t received = 0;
  Big value{};
  while (q.try_receive(value) == ReceiveStatus::ok) ++received;
  const auto s = q.statistics();
  EXPECT_EQ(s.cleared, total);
  EXPECT_EQ(s.sent, accepted.load());
  EXPECT_EQ(s.received, received);
  EXPECT_EQ(s.sent, s.received + s.dropped_oldest + s.cleared + q.count());
  // A slow build (tsan) may not fill the ring within the second: then no clear() ran, and the
  // bound was not checked. Said, not passed silently.
  if (total == 0) GTEST_SKIP() << "the producer never filled the ring within 1 s: no clear() ran";
}

}  // namespace
