// Copyright RingKernel authors.
// try_send_batch, the try_ form of send_batch (docs/messaging.md §4, §5), on MpmcQueue, SpscQueue
// and P2PMessageQueue (host backend): it never waits. It enqueues in order as much as fits now;
// where send_batch would wait (block, a full ring) the rest is refused as try_send refuses, `full`,
// counted in rejected_full (never timed_out); drop_newest, drop_oldest (the eviction handler sees
// each eviction), reject and a closed queue answer as for send_batch. Single-threaded: no consumer
// runs, so a call that waited would end only by send_batch's default timeout (1 s) and answer
// `timeout`, which these tests refuse (they time nothing).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "host_devices.h"
#include "messaging_messages.rk.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using ringkernel::FullPolicy;
using ringkernel::QueueOptions;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;

constexpr std::uint64_t near_wrap = std::numeric_limits<std::uint64_t>::max() - 5;

template <class Q>
class TrySendBatch : public ::testing::Test {};
using QueueTypes = ::testing::Types<ringkernel::MpmcQueue<std::uint64_t>, ringkernel::SpscQueue<std::uint64_t>>;
TYPED_TEST_SUITE(TrySendBatch, QueueTypes);

std::vector<std::uint64_t> sequence(std::uint64_t first, std::size_t n) {
  std::vector<std::uint64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = first + i;
  return v;
}

// Everything queued, oldest first (taken with try_receive: nothing waits).
template <class Q>
std::vector<std::uint64_t> drain(Q& q) {
  std::vector<std::uint64_t> got;
  std::uint64_t v = 0;
  while (q.try_receive(v) == ReceiveStatus::ok) got.push_back(v);
  return got;
}

TYPED_TEST(TrySendBatch, AnEmptyQueueTakesTheWholeBatchInOrder) {
  TypeParam q(QueueOptions{.capacity = 8, .policy = FullPolicy::block, .start_position = near_wrap});
  const auto in = sequence(10, 8);
  const auto r = q.try_send_batch(std::span<const std::uint64_t>(in));
  EXPECT_EQ(r.status, SendStatus::ok);
  EXPECT_EQ(r.accepted, 8u);
  EXPECT_EQ(r.evicted, 0u);
  const auto s = q.statistics();
  EXPECT_EQ(s.send_batches, 1u);
  EXPECT_EQ(s.sent, 8u);
  EXPECT_EQ(drain(q), in);
  // An empty batch asks for nothing: ok, nothing accepted, no batch counted.
  const auto none = q.try_send_batch(std::span<const std::uint64_t>{});
  EXPECT_EQ(none.status, SendStatus::ok);
  EXPECT_EQ(none.accepted, 0u);
  EXPECT_EQ(q.statistics().send_batches, 1u);
}

TYPED_TEST(TrySendBatch, BlockTakesWhatFitsAndRefusesTheRestAsFullWithoutWaiting) {
  TypeParam q(QueueOptions{.capacity = 8, .policy = FullPolicy::block, .start_position = near_wrap});
  for (std::uint64_t i = 0; i < 3; ++i) ASSERT_TRUE(q.try_send(i).ok());
  const auto in = sequence(100, 10);
  const auto r = q.try_send_batch(std::span<const std::uint64_t>(in));
  EXPECT_EQ(r.status, SendStatus::full) << "send_batch would wait here; its try_ form answers as try_send";
  EXPECT_EQ(r.accepted, 5u) << "the room there was";
  EXPECT_EQ(r.evicted, 0u);
  auto s = q.statistics();
  EXPECT_EQ(s.rejected_full, 5u) << "the refused messages, where try_send counts its refusal";
  EXPECT_EQ(s.timed_out, 0u);
  EXPECT_EQ(s.stopped, 0u);
  EXPECT_EQ(s.send_batches, 1u);
  EXPECT_EQ(s.sent, 8u);
  // A full ring: nothing accepted, no batch counted; try_send answers the same.
  const auto again = q.try_send_batch(std::span<const std::uint64_t>(in.data(), 2));
  EXPECT_EQ(again.status, SendStatus::full);
  EXPECT_EQ(again.accepted, 0u);
  EXPECT_EQ(q.try_send(7).status, SendStatus::full);
  s = q.statistics();
  EXPECT_EQ(s.rejected_full, 8u);
  EXPECT_EQ(s.timed_out, 0u);
  EXPECT_EQ(s.send_batches, 1u);
  EXPECT_EQ(drain(q), (std::vector<std::uint64_t>{0, 1, 2, 100, 101, 102, 103, 104}));
}

TYPED_TEST(TrySendBatch, RejectRefusesTheRestAsTrySendDoes) {
  TypeParam q(QueueOptions{.capacity = 4, .policy = FullPolicy::reject});
  ASSERT_TRUE(q.try_send(0).ok());
  const auto in = sequence(1, 6);
  const auto r = q.try_send_batch(std::span<const std::uint64_t>(in));
  EXPECT_EQ(r.status, q.try_send(9).status);
  EXPECT_EQ(r.status, SendStatus::full);
  EXPECT_EQ(r.accepted, 3u);
  EXPECT_EQ(q.statistics().rejected_full, 3u + 1u) << "the batch's 3 and try_send's 1";
  EXPECT_EQ(drain(q), sequence(0, 4));
}

TYPED_TEST(TrySendBatch, DropNewestDiscardsTheRest) {
  TypeParam q(QueueOptions{.capacity = 4, .policy = FullPolicy::drop_newest});
  for (std::uint64_t i = 0; i < 3; ++i) ASSERT_TRUE(q.try_send(i).ok());
  const auto in = sequence(10, 4);
  const auto r = q.try_send_batch(std::span<const std::uint64_t>(in));
  EXPECT_EQ(r.status, SendStatus::dropped_newest);
  EXPECT_EQ(r.accepted, 1u);
  const auto none = q.try_send_batch(std::span<const std::uint64_t>(in));
  EXPECT_EQ(none.status, SendStatus::dropped_newest);
  EXPECT_EQ(none.accepted, 0u);
  const auto s = q.statistics();
  EXPECT_EQ(s.dropped_newest, 3u + 4u);
  EXPECT_EQ(s.rejected_full, 0u);
  EXPECT_EQ(s.send_batches, 1u);
  EXPECT_EQ(drain(q), (std::vector<std::uint64_t>{0, 1, 2, 10}));
}

// drop_oldest: MpmcQueue only (SpscQueue refuses the policy: the sender would be a second consumer).
TEST(MpmcTrySendBatch, DropOldestEvictsToMakeRoomAndTheHandlerSeesEachEviction) {
  ringkernel::MpmcQueue<std::uint64_t> q(QueueOptions{.capacity = 4, .policy = FullPolicy::drop_oldest, .start_position = near_wrap});
  std::vector<std::uint64_t> evicted;
  q.set_eviction_handler([&evicted](const std::uint64_t& m) { evicted.push_back(m); });
  for (std::uint64_t i = 100; i < 103; ++i) ASSERT_TRUE(q.try_send(i).ok());
  const auto in = sequence(0, 6);
  const auto r = q.try_send_batch(std::span<const std::uint64_t>(in));
  EXPECT_EQ(r.status, SendStatus::ok);
  EXPECT_EQ(r.accepted, 6u);
  EXPECT_EQ(r.evicted, 5u);
  EXPECT_EQ(evicted, (std::vector<std::uint64_t>{100, 101, 102, 0, 1})) << "a batch longer than the room evicts its own";
  const auto s = q.statistics();
  EXPECT_EQ(s.dropped_oldest, 5u);
  EXPECT_EQ(s.send_batches, 1u);
  EXPECT_EQ(drain(q), (std::vector<std::uint64_t>{2, 3, 4, 5}));
}

TYPED_TEST(TrySendBatch, AClosedQueueAcceptsNothing) {
  TypeParam q(QueueOptions{.capacity = 4, .policy = FullPolicy::block});
  ASSERT_TRUE(q.try_send(1).ok());
  q.shutdown();
  const auto in = sequence(2, 3);
  const auto r = q.try_send_batch(std::span<const std::uint64_t>(in));
  EXPECT_EQ(r.status, SendStatus::closed);
  EXPECT_EQ(r.accepted, 0u);
  EXPECT_EQ(q.try_send_batch(std::span<const std::uint64_t>{}).status, SendStatus::closed) << "as send_batch";
  const auto s = q.statistics();
  EXPECT_EQ(s.rejected_closed, 3u);
  EXPECT_EQ(s.send_batches, 0u);
  EXPECT_EQ(drain(q), (std::vector<std::uint64_t>{1}));
}

// P2PMessageQueue on the host backend, in both modes (direct_p2p over a link, host_staged without).
// Its refusal on a ring in CUDA device memory: p2p_queue_gpu_path_test.cpp (through the test seam).
using Msg = ringkernel::KernelMessage<messaging_test::Tagged>;

using messaging_test::host_devices;

std::vector<Msg> messages(std::uint64_t first, std::size_t n) {
  std::vector<Msg> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i].payload.index = first + i;
  return v;
}

TEST(P2PTrySendBatch, NeverWaitsAndAppliesThePolicyInEitherMode) {
  for (const auto topology : {ringkernel::HostTopology::all, ringkernel::HostTopology::none}) {
    const auto ids = host_devices(topology);
    ringkernel::PeerMemory peers;
    ringkernel::P2PMessageQueue<Msg> q(peers, ids[0], ids[1],
                                       ringkernel::P2PQueueOptions{.capacity = 4, .policy = FullPolicy::block});
    EXPECT_EQ(q.transfer_mode(), topology == ringkernel::HostTopology::all ? ringkernel::P2PTransferMode::direct_p2p
                                                                             : ringkernel::P2PTransferMode::host_staged);
    const auto in = messages(0, 6);
    const auto r = q.try_send_batch(std::span<const Msg>(in));
    EXPECT_EQ(r.status, SendStatus::full);
    EXPECT_EQ(r.accepted, 4u);
    auto s = q.statistics();
    EXPECT_EQ(s.rejected_full, 2u);
    EXPECT_EQ(s.timed_out, 0u);
    EXPECT_EQ(s.send_batches, 1u);
    std::vector<Msg> out(8);
    const auto got = q.try_receive_batch(std::span<Msg>(out));
    ASSERT_EQ(got.received, 4u);
    for (std::uint64_t i = 0; i < 4; ++i) EXPECT_EQ(out[i].payload.index, i);
    const auto all = q.try_send_batch(std::span<const Msg>(in.data(), 3));
    EXPECT_EQ(all.status, SendStatus::ok);
    EXPECT_EQ(all.accepted, 3u);
    q.shutdown();
    EXPECT_EQ(q.try_send_batch(std::span<const Msg>(in)).status, SendStatus::closed);
    s = q.statistics();
    EXPECT_EQ(s.rejected_closed, 6u);
    EXPECT_EQ(s.send_batches, 2u);
  }
}

TEST(P2PTrySendBatch, DropOldestEvictsThroughTheQueuesHandler) {
  const auto ids = host_devices(ringkernel::HostTopology::all);
  ringkernel::PeerMemory peers;
  ringkernel::P2PMessageQueue<Msg> q(peers, ids[0], ids[1],
                                     ringkernel::P2PQueueOptions{.capacity = 2, .policy = FullPolicy::drop_oldest});
  std::vector<std::uint64_t> evicted;
  q.set_eviction_handler([&evicted](const Msg& m) { evicted.push_back(m.payload.index); });
  const auto in = messages(0, 5);
  const auto r = q.try_send_batch(std::span<const Msg>(in));
  EXPECT_EQ(r.status, SendStatus::ok);
  EXPECT_EQ(r.accepted, 5u);
  EXPECT_EQ(r.evicted, 3u);
  EXPECT_EQ(evicted, (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(q.statistics().dropped_oldest, 3u);
  Msg m{};
  ASSERT_EQ(q.try_receive(m), ReceiveStatus::ok);
  EXPECT_EQ(m.payload.index, 3u);
  ASSERT_EQ(q.try_receive(m), ReceiveStatus::ok);
  EXPECT_EQ(m.payload.index, 4u);
}

}  // namespace
