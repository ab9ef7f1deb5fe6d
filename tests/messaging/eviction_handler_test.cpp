// Copyright RingKernel authors.
// The eviction handler's contract (docs/messaging.md §4): it must not throw, and one that throws
// ends the process with one line on stderr naming the queue call, the exception's what() (for a
// std::exception) and the rule (death tests, for send, try_send, send_batch and try_send_batch).
// It can be set only where host threads send (producers = QueueUsers::kernels: Error(unsupported),
// nothing set); setting it under a policy other than drop_oldest is allowed (it is never called
// there). A thread cancelled inside the handler ends the process with a line that says so.
#include <gtest/gtest.h>

#include <cstdint>
#include <pthread.h>

#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "error_capture.h"
#include "queue_users_fixture.h"
#include "ringkernel/error.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using messaging_test::error_of;
using messaging_test::HostMachine;
using messaging_test::mentions;
using messaging_test::pinned_on;
using ringkernel::errc;
using ringkernel::FullPolicy;
using ringkernel::MpmcQueue;
using ringkernel::QueueOptions;
using ringkernel::QueueUsers;
using Queue = MpmcQueue<int>;

constexpr QueueOptions dropping(std::size_t capacity) {
  return QueueOptions{.capacity = capacity, .policy = FullPolicy::drop_oldest};
}

// A full drop_oldest queue of 0..3 whose handler throws at its `nth` eviction (1-based).
void fill_with_throwing_handler(Queue& q, int nth) {
  q.set_eviction_handler([nth, seen = 0](const int& m) mutable {
    if (++seen == nth) throw std::runtime_error("handler failed on " + std::to_string(m));
  });
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(q.try_send(i).ok());
}

// The calls the death tests make, each on a full queue of 4 whose handler throws at eviction `nth`.
void send_evicting(int nth) {
  Queue q(dropping(4));
  fill_with_throwing_handler(q, nth);
  (void)q.send(4);
}
void try_send_evicting(int nth) {
  Queue q(dropping(4));
  fill_with_throwing_handler(q, nth);
  (void)q.try_send(4);
}
void send_batch_evicting(int nth, bool try_form = false) {
  Queue q(dropping(4));
  fill_with_throwing_handler(q, nth);
  const std::vector<int> batch{10, 11, 12, 13, 14, 15};
  (void)(try_form ? q.try_send_batch(std::span<const int>(batch)) : q.send_batch(std::span<const int>(batch)));
}
void send_evicting_non_standard() {
  Queue q(dropping(2));
  q.set_eviction_handler([](const int&) { throw 42; });
  (void)q.try_send(0);
  (void)q.try_send(1);
  (void)q.send(2);
}

// A thread cancelled at a cancellation point inside the handler (glibc unwinds it with
// abi::__forced_unwind, which is not a std::exception).
void send_cancelled_in_handler() {
  std::thread t([] {
    Queue q(dropping(2));
    q.set_eviction_handler([](const int&) {
      pthread_cancel(pthread_self());
      pthread_testcancel();
    });
    (void)q.try_send(0);
    (void)q.try_send(1);
    (void)q.send(2);
  });
  t.join();
}

std::string death_message(const std::string& call, const std::string& thrown) {
  return "ringkernel: BasicMessageQueue::" + call + ": the eviction handler threw" + thrown +
         "; an eviction handler must not throw";
}

TEST(EvictionHandlerDeathTest, ThrowingHandlerInSendEndsTheProcessWithItsMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(send_evicting(1), death_message("send", ": handler failed on 0"));
  EXPECT_DEATH(try_send_evicting(1), death_message("try_send", ": handler failed on 0"));
}

TEST(EvictionHandlerDeathTest, ThrowingHandlerInSendBatchEndsTheProcessWithItsMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // The third eviction: the queue's 2 (0 and 1 went before it).
  EXPECT_DEATH(send_batch_evicting(3), death_message("send_batch", ": handler failed on 2"));
  EXPECT_DEATH(send_batch_evicting(3, true), death_message("try_send_batch", ": handler failed on 2"));
}

TEST(EvictionHandlerDeathTest, HandlerThrowingANonStandardExceptionEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(send_evicting_non_standard(), death_message("send", " an exception that is not a std::exception"));
}

TEST(EvictionHandlerDeathTest, ThreadCancelledInsideTheHandlerEndsTheProcessSayingSo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(send_cancelled_in_handler(),
               "ringkernel: BasicMessageQueue::send: the thread was cancelled \\(pthread_cancel\\) inside the "
               "eviction handler, and a cancellation unwinds like an exception; an eviction handler must not throw");
}

// A handler that returns sees every eviction of a batch, in order, and the batch completes.
TEST(EvictionHandler, SeesEveryEvictionOfABatchInOrder) {
  Queue q(dropping(4));
  std::vector<int> seen;
  q.set_eviction_handler([&seen](const int& m) { seen.push_back(m); });
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(q.try_send(i).ok());
  const std::vector<int> batch{10, 11, 12, 13, 14, 15};
  const auto r = q.send_batch(std::span<const int>(batch));
  EXPECT_EQ(r.accepted, 6u);
  EXPECT_EQ(r.evicted, 6u);
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 10, 11}));
  EXPECT_EQ(q.statistics().send_batches, 1u);
}

// Producers declared kernels: no host send, so no policy is applied and a handler never runs.
TEST(EvictionHandler, RefusedWhereProducersAreKernelsOnly) {
  HostMachine machine(true);
  for (const FullPolicy policy : {FullPolicy::block, FullPolicy::drop_oldest}) {
    QueueOptions o = pinned_on(machine.ids.at(0), QueueUsers::kernels, QueueUsers::host);
    o.policy = policy;
    Queue q(o);
    int calls = 0;
    const auto e = error_of([&] { q.set_eviction_handler([&calls](const int&) { ++calls; }); });
    EXPECT_EQ(e.code(), errc::unsupported) << e.what();
    EXPECT_EQ(e.call(), "BasicMessageQueue::set_eviction_handler");
    EXPECT_EQ(e.device(), machine.ids.at(0));
    EXPECT_TRUE(mentions(e, "producers are declared QueueUsers::kernels")) << e.what();
    // Kernels fill the ring and push once more: refused (no policy), nothing evicted, no handler.
    auto ring = q.ring();
    for (int i = 0; i < 64; ++i) ASSERT_TRUE(ring.try_push(i));
    EXPECT_FALSE(ring.try_push(64));
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(q.statistics().dropped_oldest, 0u);
  }
}

// Host producers: accepted under every policy (under all but drop_oldest it is never called).
TEST(EvictionHandler, AcceptedWhereHostThreadsSend) {
  HostMachine machine(true);
  for (const QueueUsers producers : {QueueUsers::host, QueueUsers::host_and_kernels}) {
    Queue pinned(pinned_on(machine.ids.at(0), producers, QueueUsers::kernels));
    EXPECT_NO_THROW(pinned.set_eviction_handler([](const int&) {}));
  }
  for (const FullPolicy policy : {FullPolicy::block, FullPolicy::reject, FullPolicy::drop_newest}) {
    Queue q(QueueOptions{.capacity = 2, .policy = policy});
    int calls = 0;
    EXPECT_NO_THROW(q.set_eviction_handler([&calls](const int&) { ++calls; }));
    for (int i = 0; i < 3; ++i) (void)q.try_send(i);
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(q.count(), 2u);
  }
}

}  // namespace
