// Copyright RingKernel authors.
// Single-threaded behaviour of the rings and queues: FIFO order, every full-queue policy and its
// counters, batches, peek, clear, shutdown, the high-water mark, index wrap-around, queue storage.
// Latency statistics and the deadline: queue_statistics_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include "messaging_messages.rk.h"
#include "ringkernel/queue/message_queue.h"
#include "ringkernel/queue/warp_enqueue.h"
#include "simulated_warp.h"

namespace {

using namespace std::chrono_literals;
using messaging_test::Tagged;
using ringkernel::FullPolicy;
using ringkernel::QueueOptions;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;

template <class Q>
class QueueBasics : public ::testing::Test {};
using QueueTypes = ::testing::Types<ringkernel::MpmcQueue<std::uint64_t>, ringkernel::SpscQueue<std::uint64_t>>;
TYPED_TEST_SUITE(QueueBasics, QueueTypes);

constexpr std::uint64_t near_wrap = std::numeric_limits<std::uint64_t>::max() - 5;

TYPED_TEST(QueueBasics, FifoAcrossTheIndexWrapAround) {
  for (const std::uint64_t start : {std::uint64_t{0}, near_wrap}) {
    TypeParam q(QueueOptions{.capacity = 8, .policy = FullPolicy::reject, .start_position = start});
    std::uint64_t next_in = 0, next_out = 0;
    for (int round = 0; round < 50; ++round) {  // 50 rounds of 5 cross 2^64 early on
      for (int i = 0; i < 5; ++i) ASSERT_TRUE(q.try_send(next_in++).ok());
      EXPECT_EQ(q.count(), 5u);
      for (int i = 0; i < 5; ++i) {
        std::uint64_t v = 0;
        ASSERT_EQ(q.try_receive(v), ReceiveStatus::ok);
        ASSERT_EQ(v, next_out++) << "start " << start << " round " << round;
      }
    }
    std::uint64_t v = 0;
    EXPECT_EQ(q.try_receive(v), ReceiveStatus::empty);
    EXPECT_TRUE(q.is_empty());
    const auto s = q.statistics();
    EXPECT_EQ(s.sent, 250u);
    EXPECT_EQ(s.received, 250u);
    EXPECT_EQ(s.bytes_sent, 250u * sizeof(std::uint64_t));
  }
}

TYPED_TEST(QueueBasics, RejectPolicyRefusesAndCounts) {
  TypeParam q(QueueOptions{.capacity = 4, .policy = FullPolicy::reject});
  for (std::uint64_t i = 0; i < 4; ++i) ASSERT_TRUE(q.try_send(i).ok());
  EXPECT_TRUE(q.is_full());
  EXPECT_EQ(q.try_send(99).status, SendStatus::full);
  EXPECT_EQ(q.send(99).status, SendStatus::full) << "reject never waits";
  EXPECT_EQ(q.statistics().rejected_full, 2u);
  EXPECT_EQ(q.statistics().sent, 4u);
}

TYPED_TEST(QueueBasics, DropNewestDiscardsTheIncomingMessageAndSaysSo) {
  TypeParam q(QueueOptions{.capacity = 2, .policy = FullPolicy::drop_newest});
  ASSERT_TRUE(q.send(1).ok());
  ASSERT_TRUE(q.send(2).ok());
  EXPECT_EQ(q.send(3).status, SendStatus::dropped_newest);
  const std::vector<std::uint64_t> batch{4, 5, 6};
  const auto r = q.send_batch(batch);
  EXPECT_EQ(r.accepted, 0u);
  EXPECT_EQ(r.status, SendStatus::dropped_newest);
  EXPECT_EQ(q.statistics().dropped_newest, 4u);
  std::uint64_t v = 0;
  ASSERT_EQ(q.try_receive(v), ReceiveStatus::ok);
  EXPECT_EQ(v, 1u);
}

TYPED_TEST(QueueBasics, BlockPolicyTimesOutAndStops) {
  TypeParam q(QueueOptions{.capacity = 2, .policy = FullPolicy::block});
  ASSERT_TRUE(q.send(1).ok());
  ASSERT_TRUE(q.send(1).ok());
  EXPECT_EQ(q.try_send(2).status, SendStatus::full) << "try_send never waits";
  EXPECT_EQ(q.send(2, 2ms).status, SendStatus::timeout);
  std::stop_source stop;
  stop.request_stop();
  EXPECT_EQ(q.send(2, 10s, stop.get_token()).status, SendStatus::stopped);
  const std::vector<std::uint64_t> batch{3, 4};
  EXPECT_EQ(q.send_batch(batch, 10s, stop.get_token()).status, SendStatus::stopped);
  EXPECT_EQ(q.statistics().timed_out, 1u) << "the timeout only";
  EXPECT_EQ(q.statistics().stopped, 3u) << "the stopped send and the two messages of the stopped batch";
  EXPECT_EQ(q.statistics().rejected_full, 1u);
  std::uint64_t v = 0;
  ASSERT_EQ(q.receive(v, 1ms), ReceiveStatus::ok);
  ASSERT_EQ(q.receive(v, 1ms), ReceiveStatus::ok);
  EXPECT_EQ(q.receive(v, 2ms), ReceiveStatus::timeout);
  EXPECT_EQ(q.receive(v, 10s, stop.get_token()), ReceiveStatus::stopped);
}

TYPED_TEST(QueueBasics, AZeroTimeoutIsATimeoutForEveryBlockingCall) {
  // A zero timeout is a deadline already passed, not a try_ call (only try_* answer empty / full).
  TypeParam q(QueueOptions{.capacity = 2, .policy = FullPolicy::block});
  std::uint64_t v = 0;
  std::vector<std::uint64_t> out(2);
  EXPECT_EQ(q.receive(v, 0ms), ReceiveStatus::timeout);
  EXPECT_EQ(q.receive_batch(std::span<std::uint64_t>(out), 0ms).status, ReceiveStatus::timeout);
  EXPECT_EQ(q.try_receive_batch(std::span<std::uint64_t>(out)).status, ReceiveStatus::empty);
  const std::vector<std::uint64_t> batch{1, 2, 3};
  EXPECT_EQ(q.send_batch(batch, 0ms).status, SendStatus::timeout);
  EXPECT_EQ(q.send(4, 0ms).status, SendStatus::timeout);
  EXPECT_EQ(q.statistics().timed_out, 2u) << "batch message 3 and message 4";
}

TYPED_TEST(QueueBasics, BatchesKeepOrderAndCountOncePerCall) {
  TypeParam q(QueueOptions{.capacity = 16, .policy = FullPolicy::reject, .start_position = near_wrap});
  std::vector<std::uint64_t> in(20);
  for (std::uint64_t i = 0; i < in.size(); ++i) in[i] = i * 3;
  const auto r = q.send_batch(in);
  EXPECT_EQ(r.accepted, 16u);
  EXPECT_EQ(r.status, SendStatus::full);
  EXPECT_EQ(q.statistics().rejected_full, 4u);
  std::vector<std::uint64_t> out(10);
  auto got = q.receive_batch(out);
  ASSERT_EQ(got.received, 10u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(out[i], in[i]);
  got = q.try_receive_batch(out);
  ASSERT_EQ(got.received, 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(out[i], in[10 + i]);
  EXPECT_EQ(q.try_receive_batch(out).status, ReceiveStatus::empty);
  const auto s = q.statistics();
  EXPECT_EQ(s.send_batches, 1u);
  EXPECT_EQ(s.receive_batches, 2u);
  EXPECT_EQ(s.sent, 16u);
  EXPECT_EQ(s.received, 16u);
}

TYPED_TEST(QueueBasics, EmptyBatchesReturnAtOnceAndLoseNothing) {
  TypeParam q(QueueOptions{.capacity = 8, .policy = FullPolicy::block, .start_position = near_wrap});
  ASSERT_TRUE(q.try_send(7).ok());
  // An empty span asks for nothing: no wait, nothing taken. A call that waited anyway would end
  // in timeout after 2 s (not ok), so the test fails quickly without timing anything.
  const auto got = q.receive_batch(std::span<std::uint64_t>{}, 2s);
  EXPECT_EQ(got.status, ReceiveStatus::ok);
  EXPECT_EQ(got.received, 0u);
  const auto sent = q.send_batch(std::span<const std::uint64_t>{}, 2s);
  EXPECT_EQ(sent.status, SendStatus::ok);
  EXPECT_EQ(sent.accepted, 0u);
  auto ring = q.ring();
  EXPECT_EQ(ring.try_push_batch(nullptr, 0), 0u);
  EXPECT_EQ(ring.try_pop_batch(nullptr, 0), 0u);
  std::uint64_t v = 0;
  ASSERT_EQ(q.try_receive(v), ReceiveStatus::ok);
  EXPECT_EQ(v, 7u);
  EXPECT_EQ(q.statistics().receive_batches, 0u);
}

TYPED_TEST(QueueBasics, PeekClearAndShutdown) {
  TypeParam q(QueueOptions{.capacity = 8, .policy = FullPolicy::reject});
  std::uint64_t v = 0;
  EXPECT_FALSE(q.try_peek(v));
  for (std::uint64_t i = 10; i < 15; ++i) ASSERT_TRUE(q.try_send(i).ok());
  ASSERT_TRUE(q.try_peek(v));
  EXPECT_EQ(v, 10u);
  EXPECT_EQ(q.count(), 5u);
  EXPECT_EQ(q.clear(), 5u);
  EXPECT_TRUE(q.is_empty());
  ASSERT_TRUE(q.try_send(20).ok());
  ASSERT_TRUE(q.try_send(21).ok());
  q.shutdown();
  EXPECT_TRUE(q.is_shut_down());
  EXPECT_EQ(q.try_send(22).status, SendStatus::closed);
  EXPECT_EQ(q.send_batch(std::vector<std::uint64_t>{1, 2}).status, SendStatus::closed);
  ASSERT_EQ(q.receive(v), ReceiveStatus::ok);
  EXPECT_EQ(v, 20u);
  ASSERT_EQ(q.try_receive(v), ReceiveStatus::ok);
  EXPECT_EQ(v, 21u);
  EXPECT_EQ(q.receive(v, 10s), ReceiveStatus::closed) << "closed and empty returns at once";
  const auto s = q.statistics();
  EXPECT_EQ(s.cleared, 5u);
  EXPECT_EQ(s.rejected_closed, 3u);
  EXPECT_EQ(s.received, 2u);
  EXPECT_EQ(s.sent, s.received + s.cleared);
}

TEST(QueueStorage, UploadAndDownloadAtAnOffsetStayInsideTheStorage) {
  ringkernel::QueueStorage storage(ringkernel::QueueMemory::host, -1, 256);
  const std::uint64_t word = 0x0123456789abcdefull;
  storage.upload(&word, sizeof word, 128);
  std::uint64_t back = 0;
  storage.download(&back, sizeof back, 128);
  EXPECT_EQ(back, word);
  storage.upload(&word, sizeof word, 248);  // the last 8 bytes
  for (const std::size_t offset : {std::size_t{249}, std::size_t{256}, std::size_t{1} << 40}) {
    try {
      storage.download(&back, sizeof back, offset);
      FAIL() << "download of 8 bytes at " << offset << " of 256 accepted";
    } catch (const ringkernel::Error& e) {
      EXPECT_EQ(e.code(), ringkernel::errc::out_of_range);
      EXPECT_NE(std::string(e.what()).find("do not fit"), std::string::npos) << e.what();
    }
    EXPECT_THROW(storage.upload(&word, sizeof word, offset), ringkernel::Error);
  }
}

// Host storage of a size the allocator cannot provide is out_of_memory, never a storage whose
// size() claims more than was allocated (upload/download check their ranges against size()).
TEST(QueueStorage, HostSizesNearSizeMaxAreOutOfMemory) {
  // All beyond PTRDIFF_MAX, refused before any allocation (a size the allocator is asked for and
  // refuses, such as PTRDIFF_MAX itself, would abort a sanitizer build instead of returning null).
  constexpr auto beyond_ptrdiff = static_cast<std::size_t>(PTRDIFF_MAX) + 1;
  for (const std::size_t bytes : {SIZE_MAX, SIZE_MAX - 100, beyond_ptrdiff}) {
    try {
      ringkernel::QueueStorage storage(ringkernel::QueueMemory::host, -1, bytes);
      ADD_FAILURE() << "host storage of " << bytes << " bytes accepted: size() " << storage.size();
    } catch (const ringkernel::Error& e) {
      EXPECT_EQ(e.code(), ringkernel::errc::out_of_memory);
      EXPECT_NE(std::string(e.what()).find("host allocation of " + std::to_string(bytes) + " bytes for a queue failed"),
                std::string::npos) << e.what();
    }
  }
}

TEST(QueueStorage, InitializeRingWritesAnEmptyWorkingRing) {
  using Ring = ringkernel::mpmc_ring<std::uint64_t>;
  ringkernel::QueueStorage storage(ringkernel::QueueMemory::host, -1, Ring::bytes_for(8));
  Ring ring = ringkernel::initialize_ring<Ring>(storage, 8, near_wrap);
  EXPECT_EQ(ring.capacity(), 8u);
  EXPECT_EQ(ring.size(), 0u);
  for (std::uint64_t i = 0; i < 8; ++i) ASSERT_TRUE(ring.try_push(i));
  EXPECT_FALSE(ring.try_push(8));
  std::uint64_t head = 0;
  storage.download(&head, sizeof head, offsetof(ringkernel::detail::ring_control, head));
  EXPECT_EQ(head, near_wrap + 8) << "the ring lives in the storage";
  for (std::uint64_t i = 0; i < 8; ++i) {
    std::uint64_t v = 99;
    ASSERT_TRUE(ring.try_pop(v));
    EXPECT_EQ(v, i);
  }
}

// mpmc_ring<T, system, device> (claims at device scope; what MpmcQueue::kernel_ring() returns) is
// the same ring on the host, which ignores scope: a view of the same memory as the default ring,
// interchangeable with it, across the wrap.
TEST(MpmcRing, DeviceScopeClaimsAreTheSameRingOnTheHost) {
  using Mixed = ringkernel::mpmc_ring<std::uint64_t, ringkernel::atomic_scope::system, ringkernel::atomic_scope::device>;
  using Plain = ringkernel::mpmc_ring<std::uint64_t>;
  static_assert(!Mixed::ticketed && Mixed::index_scope == ringkernel::atomic_scope::device);
  static_assert(Plain::index_scope == ringkernel::atomic_scope::system);
  static_assert(Mixed::bytes_for(8) == Plain::bytes_for(8));
  ringkernel::QueueStorage storage(ringkernel::QueueMemory::host, -1, Mixed::bytes_for(8));
  Mixed mixed = ringkernel::initialize_ring<Mixed>(storage, 8, near_wrap);
  Plain plain(storage.data());
  for (std::uint64_t round = 0; round < 3; ++round) {  // crosses 2^64
    std::uint64_t in[5] = {1, 2, 3, 4, 5};
    ASSERT_EQ(mixed.try_push_batch(in, 5), 5u);
    ASSERT_TRUE(plain.try_push(6));
    EXPECT_EQ(mixed.size(), 6u);
    std::uint64_t v = 0;
    ASSERT_TRUE(plain.try_pop(v));
    EXPECT_EQ(v, 1u);
    std::uint64_t out[8] = {};
    ASSERT_EQ(mixed.try_pop_batch(out, 8), 5u);
    EXPECT_EQ(out[4], 6u);
    EXPECT_FALSE(mixed.try_pop(v));
  }
  EXPECT_EQ(mixed.head_position(), near_wrap + 18);
}

// The warp calls take the three-parameter ring too (the same algorithm: not ticketed).
TEST(MpmcRing, WarpCallsOnDeviceScopeClaims) {
  using Mixed = ringkernel::mpmc_ring<std::uint64_t, ringkernel::atomic_scope::system, ringkernel::atomic_scope::device>;
  ringkernel::QueueStorage storage(ringkernel::QueueMemory::host, -1, Mixed::bytes_for(64));
  const Mixed ring = ringkernel::initialize_ring<Mixed>(storage, 64, near_wrap);
  std::vector<std::uint64_t> values(40);
  for (std::uint64_t i = 0; i < values.size(); ++i) values[i] = i;
  std::vector<std::uint64_t> out(48, 0);
  unsigned pushed = 0, popped = 0;
  std::vector<char> single(32, 0);
  std::vector<std::uint64_t> got(8, 0);
  ringkernel::test::run_warp(0xffu, [&](const ringkernel::test::simulated_warp& warp) {
    const unsigned p = ringkernel::detail::warp_push_batch_on(warp, 0xffu, ring, values.data(), 40);
    const bool one = ringkernel::detail::warp_push_on(warp, ring, std::uint64_t{100 + warp.lane()});
    const unsigned q = ringkernel::detail::warp_pop_batch_on(warp, 0xffu, ring, out.data(), 40);
    std::uint64_t v = 0;
    single[warp.lane()] = one && ringkernel::detail::warp_pop_on(warp, ring, v) ? 1 : 0;
    got[warp.lane()] = v;
    if (warp.lane() == 0) {
      pushed = p;
      popped = q;
    }
  });
  EXPECT_EQ(pushed, 40u);
  EXPECT_EQ(popped, 40u);
  for (std::uint64_t i = 0; i < 40; ++i) ASSERT_EQ(out[i], i);
  for (unsigned l = 0; l < 8; ++l) EXPECT_EQ(single[l], 1) << "lane " << l;
  std::sort(got.begin(), got.end());
  for (unsigned l = 0; l < 8; ++l) EXPECT_EQ(got[l], 100u + l);
  EXPECT_EQ(ring.size(), 0u);
}

TEST(MpmcQueue, DropOldestEvictsInOrderAndReportsEachEviction) {
  ringkernel::MpmcQueue<std::uint64_t> q(QueueOptions{.capacity = 4, .policy = FullPolicy::drop_oldest});
  std::vector<std::uint64_t> evicted;
  q.set_eviction_handler([&](const std::uint64_t& v) { evicted.push_back(v); });
  for (std::uint64_t i = 0; i < 4; ++i) ASSERT_EQ(q.send(i).evicted, 0u);
  const auto r = q.send(4);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.evicted, 1u);
  const auto b = q.send_batch(std::vector<std::uint64_t>{5, 6});
  EXPECT_EQ(b.accepted, 2u);
  EXPECT_EQ(b.evicted, 2u);
  EXPECT_EQ(evicted, (std::vector<std::uint64_t>{0, 1, 2}));
  std::vector<std::uint64_t> out(8);
  ASSERT_EQ(q.try_receive_batch(out).received, 4u);
  EXPECT_EQ(std::vector<std::uint64_t>(out.begin(), out.begin() + 4), (std::vector<std::uint64_t>{3, 4, 5, 6}));
  const auto s = q.statistics();
  EXPECT_EQ(s.dropped_oldest, 3u);
  EXPECT_EQ(s.sent, 7u);
  EXPECT_EQ(s.received, 4u);
}

TEST(SpscQueue, RejectsDropOldestAndBadCapacities) {
  EXPECT_THROW(ringkernel::SpscQueue<int>(QueueOptions{.capacity = 8, .policy = FullPolicy::drop_oldest}),
               ringkernel::Error);
  try {
    ringkernel::MpmcQueue<int> q(QueueOptions{.capacity = 12});
    FAIL() << "capacity 12 accepted";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("capacity 12 is not a power of two"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ringkernel::MpmcQueue<int>(QueueOptions{.capacity = 1}), ringkernel::Error);
  ringkernel::SpscQueue<int> one(QueueOptions{.capacity = 1, .policy = FullPolicy::reject});
  EXPECT_TRUE(one.try_send(1).ok());
  EXPECT_EQ(one.try_send(2).status, SendStatus::full);
}

// A capacity whose bytes std::size_t cannot count: bytes_for wrapped, the queue allocated a few
// hundred bytes and initialize (MPMC) or the first sends (SPSC) wrote far past them.
TEST(MessageQueue, RefusesACapacityWhoseBytesOverflow) {
  using Mpmc = ringkernel::MpmcQueue<Tagged>;
  using Spsc = ringkernel::SpscQueue<Tagged>;
  for (const std::uint64_t capacity : {std::uint64_t{1} << 62, std::uint64_t{1} << 63}) {
    for (const bool spsc : {false, true}) {
      SCOPED_TRACE(std::string(spsc ? "SpscQueue" : "MpmcQueue") + ", capacity " + std::to_string(capacity));
      try {
        const QueueOptions options{.capacity = static_cast<std::size_t>(capacity), .policy = FullPolicy::reject};
        if (spsc) {
          Spsc q(options);
        } else {
          Mpmc q(options);
        }
        FAIL() << "accepted";
      } catch (const ringkernel::Error& e) {
        EXPECT_EQ(e.code(), ringkernel::errc::invalid_argument);
        EXPECT_NE(std::string(e.what()).find("capacity " + std::to_string(capacity) + " is too large"),
                  std::string::npos) << e.what();
      }
    }
  }
  static_assert(Mpmc::ring_type::max_capacity < (std::uint64_t{1} << 62));
  static_assert(Mpmc::ring_type::bytes_for(Mpmc::ring_type::max_capacity) >= Mpmc::ring_type::max_capacity);
}

TYPED_TEST(QueueBasics, HighWaterMarkIsSeenAtSendsWhileNobodyReceives) {
  TypeParam q(QueueOptions{.capacity = 8, .policy = FullPolicy::reject, .detailed_statistics = true});
  for (std::uint64_t i = 0; i < 5; ++i) ASSERT_TRUE(q.try_send(i).ok());
  EXPECT_EQ(q.statistics().high_water_mark, 5u) << "five queued, no receive yet";
  const std::vector<std::uint64_t> batch{5, 6, 7, 8};
  EXPECT_EQ(q.send_batch(batch).accepted, 3u);
  EXPECT_EQ(q.statistics().high_water_mark, 8u) << "full after the batch";
  std::uint64_t v = 0;
  while (q.try_receive(v) == ReceiveStatus::ok) {
  }
  EXPECT_EQ(q.statistics().high_water_mark, 8u) << "a peak stays";
}

}  // namespace
