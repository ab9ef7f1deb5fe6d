// Copyright RingKernel authors.
// SpscQueue's concurrent-use check (ringkernel/queue/queue_checks.h; this binary is built with
// RINGKERNEL_QUEUE_CHECKS=1): a host call on a side while another host thread is inside a call on
// that side throws Error(invalid_state) and moves nothing; a side handed from one thread to another
// between calls works. Deterministic: thread A is held inside a blocking call (receive on an empty
// queue, send on a full one) until its stop token is requested, and this thread calls until one
// call throws (before A is inside, its calls answer empty / full; a call of A that starts while
// this thread holds the side throws and A tries again). A's 60 s timeout only ends the test on a
// queue without the check (the old code: no call throws, the test fails when A times out).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "error_capture.h"
#include "ringkernel/error.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using namespace std::chrono_literals;
using messaging_test::error_of;
using messaging_test::mentions;
using ringkernel::Error;
using ringkernel::errc;
using ringkernel::FullPolicy;
using ringkernel::QueueOptions;
using ringkernel::QueueUsers;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;
using Queue = ringkernel::SpscQueue<std::uint64_t>;

constexpr QueueOptions host_sides(std::size_t capacity) {
  return QueueOptions{.capacity = capacity, .policy = FullPolicy::block, .producers = QueueUsers::host,
                      .consumers = QueueUsers::host};
}

// The error a second thread gets: its call, the queue, the rule and the fix.
void expect_side_error(const Error& e, const std::string& call, const std::string& side) {
  EXPECT_EQ(e.code(), errc::invalid_state) << e.what();
  EXPECT_EQ(e.call(), call);
  EXPECT_TRUE(mentions(e, "two host threads used this SpscQueue's " + side + " side at once")) << e.what();
  EXPECT_TRUE(mentions(e, "this call moved nothing")) << e.what();
  EXPECT_TRUE(mentions(e, "Use an MpmcQueue for several " + side + " threads, or keep one " + side + " thread"))
      << e.what();
}

// Runs `call` on thread A until it returns (a throw means this thread held the side: try again).
template <class Status, class Call>
std::jthread hold_side(Call call, Status& status, std::atomic<bool>& returned) {
  return std::jthread([call, &status, &returned](std::stop_token stop) {
    for (;;) {
      try {
        status = call(stop);
        break;
      } catch (const Error&) {
      }
    }
    returned.store(true);
  });
}

TEST(SpscSideCheck, SecondConsumerWhileOneWaitsInReceiveThrows) {
  Queue q(host_sides(8));
  ReceiveStatus a_status = ReceiveStatus::ok;
  std::atomic<bool> a_returned{false};
  std::jthread a = hold_side(
      [&q](std::stop_token stop) {
        std::uint64_t v = 0;
        return q.receive(v, 60s, stop);
      },
      a_status, a_returned);

  std::optional<Error> first;
  std::uint64_t v = 0;
  while (!first && !a_returned.load()) {
    try {
      EXPECT_EQ(q.try_receive(v), ReceiveStatus::empty);
    } catch (const Error& e) {
      first = e;
    }
    std::this_thread::yield();
  }
  ASSERT_TRUE(first.has_value()) << "no call threw while another thread waited in receive on this SpscQueue";
  expect_side_error(*first, "BasicMessageQueue::try_receive", "consumer");

  // A stays inside receive until stopped: every consumer call of this thread throws meanwhile.
  std::vector<std::uint64_t> out(4);
  expect_side_error(error_of([&] { (void)q.receive(v, 0s); }), "BasicMessageQueue::receive", "consumer");
  expect_side_error(error_of([&] { (void)q.receive_batch(std::span<std::uint64_t>(out), 0s); }),
                    "BasicMessageQueue::receive_batch", "consumer");
  expect_side_error(error_of([&] { (void)q.try_receive_batch(std::span<std::uint64_t>(out)); }),
                    "BasicMessageQueue::try_receive_batch", "consumer");
  expect_side_error(error_of([&] { (void)q.try_peek(v); }), "BasicMessageQueue::try_peek", "consumer");
  expect_side_error(error_of([&] { (void)q.clear(); }), "BasicMessageQueue::clear", "consumer");
  // The other side is free: this thread may produce meanwhile, and A receives what it sends.
  ASSERT_TRUE(q.try_send(41).ok());

  a.join();
  EXPECT_EQ(a_status, ReceiveStatus::ok);
  // After A returned the consumer side passes to this thread.
  ASSERT_TRUE(q.try_send(42).ok());
  EXPECT_EQ(q.try_receive(v), ReceiveStatus::ok);
  EXPECT_EQ(v, 42u);
  EXPECT_EQ(q.statistics().received, 2u);
  EXPECT_EQ(q.statistics().sent, 2u);
}

TEST(SpscSideCheck, SecondProducerWhileOneWaitsInSendThrows) {
  Queue q(host_sides(4));
  for (std::uint64_t i = 0; i < 4; ++i) ASSERT_TRUE(q.try_send(i).ok());  // full; A takes the side over
  SendStatus a_status = SendStatus::ok;
  std::atomic<bool> a_returned{false};
  std::jthread a = hold_side([&q](std::stop_token stop) { return q.send(99, 60s, stop).status; }, a_status,
                             a_returned);

  std::optional<Error> first;
  std::uint64_t refused_full = 0;
  while (!first && !a_returned.load()) {
    try {
      EXPECT_EQ(q.try_send(100).status, SendStatus::full);
      ++refused_full;
    } catch (const Error& e) {
      first = e;
    }
    std::this_thread::yield();
  }
  ASSERT_TRUE(first.has_value()) << "no call threw while another thread waited in send on this SpscQueue";
  expect_side_error(*first, "BasicMessageQueue::try_send", "producer");

  const std::vector<std::uint64_t> batch{200, 201};
  expect_side_error(error_of([&] { (void)q.send(101, 0s); }), "BasicMessageQueue::send", "producer");
  expect_side_error(error_of([&] { (void)q.send_batch(std::span<const std::uint64_t>(batch), 0s); }),
                    "BasicMessageQueue::send_batch", "producer");
  expect_side_error(error_of([&] { (void)q.try_send_batch(std::span<const std::uint64_t>(batch)); }),
                    "BasicMessageQueue::try_send_batch", "producer");

  a.request_stop();
  a.join();
  EXPECT_EQ(a_status, SendStatus::stopped);
  // The calls that threw counted nothing and enqueued nothing: the queue holds what was sent first.
  const auto s = q.statistics();
  EXPECT_EQ(s.sent, 4u);
  EXPECT_EQ(s.rejected_full, refused_full);
  EXPECT_EQ(s.timed_out, 0u);
  EXPECT_EQ(s.stopped, 1u);
  std::uint64_t v = 0;
  for (std::uint64_t i = 0; i < 4; ++i) {
    ASSERT_EQ(q.try_receive(v), ReceiveStatus::ok);
    EXPECT_EQ(v, i);
  }
  EXPECT_EQ(q.try_receive(v), ReceiveStatus::empty);
  // The producer side passes back to this thread after A returned.
  EXPECT_TRUE(q.try_send(5).ok());
}

// Handing a side over between calls (one thread's calls end, join, another's begin) is legal.
TEST(SpscSideCheck, SidesHandedOverBetweenThreadsWork) {
  Queue q(host_sides(256));
  std::thread([&q] {
    for (std::uint64_t i = 0; i < 100; ++i) ASSERT_TRUE(q.send(i).ok());
  }).join();
  std::thread([&q] {
    const std::vector<std::uint64_t> rest{100, 101, 102};
    EXPECT_EQ(q.send_batch(std::span<const std::uint64_t>(rest)).accepted, 3u);
  }).join();
  std::vector<std::uint64_t> got;
  std::thread([&] {
    std::uint64_t v = 0;
    for (int i = 0; i < 50; ++i) {
      ASSERT_EQ(q.receive(v), ReceiveStatus::ok);
      got.push_back(v);
    }
  }).join();
  std::thread([&] {
    std::vector<std::uint64_t> out(40);
    const auto r = q.try_receive_batch(std::span<std::uint64_t>(out));
    got.insert(got.end(), out.begin(), out.begin() + static_cast<std::ptrdiff_t>(r.received));
  }).join();
  std::uint64_t v = 0;
  EXPECT_TRUE(q.try_peek(v));
  EXPECT_EQ(v, 90u);
  EXPECT_EQ(q.clear(), 13u);
  ASSERT_EQ(got.size(), 90u);
  for (std::uint64_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], i);
}

// A producer and a consumer thread at once (one per side) are the intended use: no call throws.
TEST(SpscSideCheck, OneProducerAndOneConsumerAtOnceNeverThrow) {
  Queue q(host_sides(16));
  constexpr std::uint64_t count = 20000;
  std::jthread producer([&q] {
    for (std::uint64_t i = 0; i < count; ++i) ASSERT_TRUE(q.send(i, 60s).ok());
  });
  std::uint64_t v = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    ASSERT_EQ(q.receive(v, 60s), ReceiveStatus::ok);
    ASSERT_EQ(v, i);
  }
}

}  // namespace
