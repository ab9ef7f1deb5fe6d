// Copyright RingKernel authors.
// BatchSendResult::ok() and BatchReceiveResult::ok() (queue_types.h, docs/messaging.md §4): a send
// batch is ok exactly when every message of it was enqueued (an empty one too, unless the queue is
// shut down); a receive batch is ok when it received at least one message or was given an empty span.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "ringkernel/queue/message_queue.h"

namespace {

using ringkernel::FullPolicy;
using ringkernel::QueueOptions;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;
using Values = std::span<const std::uint64_t>;

template <class Q>
class BatchResultOk : public ::testing::Test {};
using QueueTypes = ::testing::Types<ringkernel::MpmcQueue<std::uint64_t>, ringkernel::SpscQueue<std::uint64_t>>;
TYPED_TEST_SUITE(BatchResultOk, QueueTypes);

TYPED_TEST(BatchResultOk, ASendBatchIsOkExactlyWhenEveryMessageWentIn) {
  TypeParam q(QueueOptions{.capacity = 8, .policy = FullPolicy::block});
  const std::vector<std::uint64_t> five{1, 2, 3, 4, 5};
  const auto all = q.try_send_batch(Values(five));
  EXPECT_TRUE(all.ok());
  EXPECT_EQ(all.accepted, 5u);
  const auto empty = q.send_batch(Values());
  EXPECT_TRUE(empty.ok()) << "an empty batch: every message of none went in";
  EXPECT_EQ(empty.accepted, 0u);
  const auto part = q.try_send_batch(Values(five));
  EXPECT_FALSE(part.ok()) << "3 of 5 went in";
  EXPECT_EQ(part.status, SendStatus::full);
  EXPECT_EQ(part.accepted, 3u);
  const auto none = q.try_send_batch(Values(five));
  EXPECT_FALSE(none.ok());
  EXPECT_EQ(none.accepted, 0u);
  q.shutdown();
  const auto closed_empty = q.send_batch(Values());
  EXPECT_FALSE(closed_empty.ok()) << "an empty batch to a shut-down queue is refused closed";
  EXPECT_EQ(closed_empty.status, SendStatus::closed);
}

TEST(BatchResultOk, ADropOldestBatchThatEvictedIsOk) {
  ringkernel::MpmcQueue<std::uint64_t> q(QueueOptions{.capacity = 4, .policy = FullPolicy::drop_oldest});
  const std::vector<std::uint64_t> six{1, 2, 3, 4, 5, 6};
  const auto r = q.send_batch(Values(six));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.accepted, 6u);
  EXPECT_EQ(r.evicted, 2u);
}

TYPED_TEST(BatchResultOk, AReceiveBatchIsOkWhenItReceivedOneOrMoreOrWasGivenNoRoom) {
  TypeParam q(QueueOptions{.capacity = 8, .policy = FullPolicy::reject});
  const std::vector<std::uint64_t> three{1, 2, 3};
  ASSERT_TRUE(q.send_batch(Values(three)).ok());
  std::vector<std::uint64_t> out(2);
  const auto two = q.try_receive_batch(std::span<std::uint64_t>(out));
  EXPECT_TRUE(two.ok());
  EXPECT_EQ(two.received, 2u);
  const auto one = q.receive_batch(std::span<std::uint64_t>(out));
  EXPECT_TRUE(one.ok()) << "fewer than asked for is still ok";
  EXPECT_EQ(one.received, 1u);
  const auto empty = q.try_receive_batch(std::span<std::uint64_t>(out));
  EXPECT_FALSE(empty.ok());
  EXPECT_EQ(empty.status, ReceiveStatus::empty);
  q.shutdown();
  EXPECT_TRUE(q.try_receive_batch(std::span<std::uint64_t>()).ok()) << "an empty span: ok, also after shutdown";
  const auto closed = q.try_receive_batch(std::span<std::uint64_t>(out));
  EXPECT_FALSE(closed.ok());
  EXPECT_EQ(closed.status, ReceiveStatus::closed);
}

static_assert(noexcept(ringkernel::BatchSendResult{}.ok()) && noexcept(ringkernel::BatchReceiveResult{}.ok()));

}  // namespace
