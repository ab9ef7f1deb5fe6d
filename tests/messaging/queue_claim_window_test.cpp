// Copyright RingKernel authors.
// MpmcQueue calls while another party is between its claim of a position and its release or
// publish (docs/messaging.md §5): a consumer preempted while it copies the oldest message, or a
// producer preempted before it writes its message (kernels are such parties all the time). The
// tests hold that party still by doing its two halves of try_pop / try_push by hand on the ring.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <stop_token>
#include <vector>

#include "ringkernel/queue/message_queue.h"

namespace {

using namespace std::chrono_literals;
using ringkernel::FullPolicy;
using ringkernel::MpmcQueue;
using ringkernel::QueueOptions;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;
using Queue = MpmcQueue<std::uint64_t>;

// A consumer that has claimed the oldest position and copied its message, but not released the slot.
class StalledConsumer {
 public:
  explicit StalledConsumer(Queue& q) : ring_(q.ring()) {
    if (ring_.claim(ring_.tail(), pos_, 1, 1) != 1) ADD_FAILURE() << "nothing to claim";
    value_ = ring_.slot_at(pos_).value;
  }
  std::uint64_t value() const { return value_; }
  void release() {
    if (released_) return;
    released_ = true;
    decltype(ring_)::seq(ring_.slot_at(pos_)).store(pos_ + ring_.capacity(), ringkernel::detail::order::release);
  }

 private:
  decltype(std::declval<Queue&>().ring()) ring_;
  std::uint64_t pos_ = 0;
  std::uint64_t value_ = 0;
  bool released_ = false;
};

// A producer that has claimed the next position but not yet written and published its message.
class StalledProducer {
 public:
  explicit StalledProducer(Queue& q) : ring_(q.ring()) {
    if (ring_.claim(ring_.head(), pos_, 1, 0) != 1) ADD_FAILURE() << "no room to claim";
  }
  void publish(std::uint64_t v) {
    if (published_) return;
    published_ = true;
    auto& slot = ring_.slot_at(pos_);
    slot.value = v;
    decltype(ring_)::seq(slot).store(pos_ + 1, ringkernel::detail::order::release);
  }

 private:
  decltype(std::declval<Queue&>().ring()) ring_;
  std::uint64_t pos_ = 0;
  bool published_ = false;
};

// Runs `call` on another thread. One that has not returned after 10 s is spinning on the stalled
// party (what these calls did before they waited under their own deadline): the test fails, and
// `unstall` lets the party go so that the call, and the test, can end.
template <class Call, class Unstall>
auto bounded(Call call, Unstall unstall) {
  auto result = std::async(std::launch::async, call);
  if (result.wait_for(10s) != std::future_status::ready) {
    ADD_FAILURE() << "the call did not return while the other party was stalled";
    unstall();
  }
  return result.get();
}

std::vector<std::uint64_t> drain(Queue& q) {
  std::vector<std::uint64_t> got;
  std::uint64_t v = 0;
  while (q.try_receive(v) == ReceiveStatus::ok) got.push_back(v);
  return got;
}

// The slot a send needs is the one the stalled consumer still reads: the queue holds capacity - 1
// messages, so nothing may be evicted (evicting them all would not free that slot either).
TEST(QueueClaimWindow, DropOldestWaitsForAConsumerStillReadingTheSlotInsteadOfEvicting) {
  Queue q(QueueOptions{.capacity = 4, .policy = FullPolicy::drop_oldest});
  for (std::uint64_t i = 0; i < 4; ++i) ASSERT_TRUE(q.try_send(i).ok());
  StalledConsumer consumer(q);
  EXPECT_EQ(consumer.value(), 0u);
  ASSERT_EQ(q.count(), 3u);

  const auto timed = bounded([&] { return q.send(100, 1ms); }, [&] { consumer.release(); });
  EXPECT_EQ(timed.status, SendStatus::timeout);
  EXPECT_EQ(timed.evicted, 0u);
  const auto tried = q.try_send(101);
  EXPECT_EQ(tried.status, SendStatus::full);
  EXPECT_EQ(tried.evicted, 0u);
  std::stop_source stop;
  stop.request_stop();
  EXPECT_EQ(q.send(102, 20s, stop.get_token()).status, SendStatus::stopped);
  const std::uint64_t batch[] = {103, 104};
  const auto batched = q.send_batch(batch, 1ms);
  EXPECT_EQ(batched.status, SendStatus::timeout);
  EXPECT_EQ(batched.accepted, 0u);
  EXPECT_EQ(batched.evicted, 0u);
  const auto tried_batch = q.try_send_batch(batch);  // never waits: full, as try_send
  EXPECT_EQ(tried_batch.status, SendStatus::full);
  EXPECT_EQ(tried_batch.accepted, 0u);
  EXPECT_EQ(tried_batch.evicted, 0u);
  EXPECT_EQ(q.count(), 3u);

  consumer.release();
  const auto fits = q.send(105, 1ms);  // the slot is free: no eviction needed
  EXPECT_EQ(fits.status, SendStatus::ok);
  EXPECT_EQ(fits.evicted, 0u);
  const auto evicts = q.send(106, 1ms);  // now really full: evicts the oldest, 1
  EXPECT_EQ(evicts.status, SendStatus::ok);
  EXPECT_EQ(evicts.evicted, 1u);
  EXPECT_EQ(drain(q), (std::vector<std::uint64_t>{2, 3, 105, 106}));

  const auto s = q.statistics();
  EXPECT_EQ(s.dropped_oldest, 1u);
  EXPECT_EQ(s.timed_out, 3u);  // the single send and the batch's two
  EXPECT_EQ(s.rejected_full, 3u);  // try_send's one and try_send_batch's two
  EXPECT_EQ(s.stopped, 1u);
}

TEST(QueueClaimWindow, RejectAnswersFullWhileTheNextSlotIsStillBeingRead) {
  Queue q(QueueOptions{.capacity = 2, .policy = FullPolicy::reject});
  ASSERT_TRUE(q.try_send(1).ok());
  ASSERT_TRUE(q.try_send(2).ok());
  StalledConsumer consumer(q);
  EXPECT_EQ(q.count(), 1u);
  EXPECT_EQ(q.send(3).status, SendStatus::full);
  consumer.release();
  EXPECT_TRUE(q.send(3).ok());
  EXPECT_EQ(drain(q), (std::vector<std::uint64_t>{2, 3}));
}

// Closed, and a producer's claimed message not yet written: not empty, so receives wait for it under
// their own timeout and stop token (they used to spin until it was published), then see it, then closed.
TEST(QueueClaimWindow, ReceiveAfterShutdownWaitsForAnUnpublishedMessageUnderItsTimeoutAndStopToken) {
  Queue q(QueueOptions{.capacity = 4});
  StalledProducer producer(q);
  q.shutdown();
  std::uint64_t v = 0;
  EXPECT_EQ(bounded([&] { return q.try_receive(v); }, [&] { producer.publish(7); }), ReceiveStatus::empty);
  EXPECT_EQ(q.receive(v, 1ms), ReceiveStatus::timeout);
  std::stop_source stop;
  stop.request_stop();
  EXPECT_EQ(q.receive(v, 20s, stop.get_token()), ReceiveStatus::stopped);
  std::uint64_t batch[2] = {};
  EXPECT_EQ(q.receive_batch(batch, 1ms).status, ReceiveStatus::timeout);
  EXPECT_EQ(q.try_receive_batch(batch).status, ReceiveStatus::empty);

  producer.publish(7);
  ASSERT_EQ(q.receive(v, 1ms), ReceiveStatus::ok);
  EXPECT_EQ(v, 7u);
  EXPECT_EQ(q.receive(v, 20s), ReceiveStatus::closed);
}

}  // namespace
