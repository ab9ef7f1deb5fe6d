// Copyright RingKernel authors.
// Blocked queue calls and how they end (docs/messaging.md): shutdown() wakes blocked senders and
// receivers, which return closed and lose nothing; a timeout too long for the clock, in any unit,
// waits until stopped; detailed statistics of batch receives; the names of the queue's enums.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <limits>
#include <span>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "messaging_messages.rk.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using namespace std::chrono_literals;
using messaging_test::Tagged;
using ringkernel::FullPolicy;
using ringkernel::QueueOptions;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;
using clock_type = std::chrono::steady_clock;

template <class Q>
class QueueWakeup : public ::testing::Test {};
using QueueTypes = ::testing::Types<ringkernel::MpmcQueue<std::uint64_t>, ringkernel::SpscQueue<std::uint64_t>>;
TYPED_TEST_SUITE(QueueWakeup, QueueTypes);

// Long enough that a call which is not woken fails the test by its status, short enough not to hang.
constexpr auto long_wait = 20s;
// Time for the other thread to get into its wait (the test holds whether or not it did).
void let_it_block() { std::this_thread::sleep_for(30ms); }

TYPED_TEST(QueueWakeup, ShutdownWakesABlockedSenderWhichReturnsClosedAndEnqueuesNothing) {
  TypeParam q(QueueOptions{.capacity = 2, .policy = FullPolicy::block});
  ASSERT_TRUE(q.try_send(1).ok());
  ASSERT_TRUE(q.try_send(2).ok());
  const auto start = clock_type::now();
  auto sender = std::async(std::launch::async, [&] { return q.send(3, long_wait); });
  let_it_block();
  q.shutdown();
  ASSERT_EQ(sender.wait_for(long_wait), std::future_status::ready);
  EXPECT_EQ(sender.get().status, SendStatus::closed);
  EXPECT_LT(clock_type::now() - start, long_wait / 2) << "the sender waited for its timeout, not the shutdown";
  const auto s = q.statistics();
  EXPECT_EQ(s.rejected_closed, 1u);
  EXPECT_EQ(s.timed_out, 0u);
  EXPECT_EQ(s.sent, 2u);
  std::uint64_t v = 0;
  ASSERT_EQ(q.receive(v), ReceiveStatus::ok);
  EXPECT_EQ(v, 1u);
  ASSERT_EQ(q.receive(v), ReceiveStatus::ok);
  EXPECT_EQ(v, 2u);
  EXPECT_EQ(q.receive(v), ReceiveStatus::closed);
}

TYPED_TEST(QueueWakeup, ShutdownEndsABlockedBatchSendWithThePrefixEnqueuedAndTheRestCountedClosed) {
  TypeParam q(QueueOptions{.capacity = 4, .policy = FullPolicy::block});
  ASSERT_TRUE(q.try_send(100).ok());
  ASSERT_TRUE(q.try_send(101).ok());
  const std::vector<std::uint64_t> batch{0, 1, 2, 3, 4};
  auto sender = std::async(std::launch::async, [&] { return q.send_batch(batch, long_wait); });
  // The sender must have queued what fits before the shutdown (a shutdown first would refuse the
  // whole batch): wait for the queue to fill, then give it time to block on the rest.
  const auto give_up = clock_type::now() + long_wait;
  while (q.count() < 4 && clock_type::now() < give_up) std::this_thread::yield();
  ASSERT_EQ(q.count(), 4u) << "the sender never queued the part of its batch that fits";
  let_it_block();
  q.shutdown();
  ASSERT_EQ(sender.wait_for(long_wait), std::future_status::ready);
  const auto r = sender.get();
  EXPECT_EQ(r.status, SendStatus::closed);
  EXPECT_EQ(r.accepted, 2u);
  const auto s = q.statistics();
  EXPECT_EQ(s.rejected_closed, 3u) << "the three messages not accepted";
  EXPECT_EQ(s.timed_out, 0u);
  EXPECT_EQ(s.sent, 4u);
  std::vector<std::uint64_t> out(8);
  const auto got = q.receive_batch(out);
  ASSERT_EQ(got.received, 4u);
  EXPECT_EQ(std::vector<std::uint64_t>(out.begin(), out.begin() + 4), (std::vector<std::uint64_t>{100, 101, 0, 1}));
  EXPECT_EQ(q.receive_batch(out).status, ReceiveStatus::closed);
}

TYPED_TEST(QueueWakeup, ShutdownWakesBlockedReceiversWhichReturnClosed) {
  TypeParam q(QueueOptions{.capacity = 4, .policy = FullPolicy::block});
  const auto start = clock_type::now();
  auto single = std::async(std::launch::async, [&] {
    std::uint64_t v = 0;
    return q.receive(v, long_wait);
  });
  let_it_block();
  q.shutdown();
  ASSERT_EQ(single.wait_for(long_wait), std::future_status::ready);
  EXPECT_EQ(single.get(), ReceiveStatus::closed);
  std::vector<std::uint64_t> out(4);
  auto batch = std::async(std::launch::async, [&] { return q.receive_batch(out, long_wait); });
  ASSERT_EQ(batch.wait_for(long_wait), std::future_status::ready);
  EXPECT_EQ(batch.get().status, ReceiveStatus::closed);
  EXPECT_LT(clock_type::now() - start, long_wait / 2);
}

// A timeout beyond what the clock can add (duration::max(): "wait until told otherwise") must not
// wrap into a deadline in the past: the call waits until its stop token ends it.
TYPED_TEST(QueueWakeup, ATimeoutTooLongForTheClockWaitsUntilStopped) {
  TypeParam q(QueueOptions{.capacity = 2, .policy = FullPolicy::block});
  constexpr auto forever = std::chrono::nanoseconds::max();
  std::stop_source stop_receive;
  auto receiver = std::async(std::launch::async, [&] {
    std::uint64_t v = 0;
    return q.receive(v, forever, stop_receive.get_token());
  });
  let_it_block();
  EXPECT_EQ(receiver.wait_for(20ms), std::future_status::timeout) << "gave up without a stop request";
  stop_receive.request_stop();
  ASSERT_EQ(receiver.wait_for(long_wait), std::future_status::ready);
  EXPECT_EQ(receiver.get(), ReceiveStatus::stopped);

  ASSERT_TRUE(q.try_send(1).ok());
  ASSERT_TRUE(q.try_send(2).ok());
  std::stop_source stop_send;
  auto sender = std::async(std::launch::async, [&] { return q.send(3, forever, stop_send.get_token()); });
  let_it_block();
  EXPECT_EQ(sender.wait_for(20ms), std::future_status::timeout) << "gave up without a stop request";
  stop_send.request_stop();
  ASSERT_EQ(sender.wait_for(long_wait), std::future_status::ready);
  EXPECT_EQ(sender.get().status, SendStatus::stopped);
  EXPECT_EQ(q.statistics().timed_out, 0u);
  EXPECT_EQ(q.statistics().stopped, 1u);
}

// "Forever" in a coarse unit: seconds::max() or 300 years in hours overflowed the caller's own
// conversion to nanoseconds (a negative count, so an immediate timeout). Timeouts of any unit are
// now taken with saturation, floating-point ones included, and such calls wait until stopped.
TYPED_TEST(QueueWakeup, ForeverInACoarseUnitWaitsUntilStoppedInEveryBlockingCall) {
  TypeParam q(QueueOptions{.capacity = 2, .policy = FullPolicy::block});
  const auto expect_waits_until_stopped = [](auto call, auto stopped_status, const char* what) {
    std::stop_source stop;
    auto blocked = std::async(std::launch::async, [&] { return call(stop.get_token()); });
    let_it_block();
    EXPECT_EQ(blocked.wait_for(20ms), std::future_status::timeout) << what << ": gave up without a stop request";
    stop.request_stop();
    ASSERT_EQ(blocked.wait_for(long_wait), std::future_status::ready) << what;
    EXPECT_EQ(blocked.get(), stopped_status) << what;
  };
  std::uint64_t v = 0;
  std::uint64_t batch[2] = {};
  expect_waits_until_stopped([&](std::stop_token t) { return q.receive(v, std::chrono::seconds::max(), t); },
                             ReceiveStatus::stopped, "receive, seconds::max()");
  expect_waits_until_stopped([&](std::stop_token t) { return q.receive(v, std::chrono::hours(24 * 365 * 300), t); },
                             ReceiveStatus::stopped, "receive, 300 years in hours");
  expect_waits_until_stopped(
      [&](std::stop_token t) { return q.receive_batch(std::span(batch), std::chrono::duration<double>::max(), t).status; },
      ReceiveStatus::stopped, "receive_batch, duration<double>::max()");
  ASSERT_TRUE(q.try_send(1).ok());
  ASSERT_TRUE(q.try_send(2).ok());
  expect_waits_until_stopped([&](std::stop_token t) { return q.send(3, std::chrono::minutes::max(), t).status; },
                             SendStatus::stopped, "send, minutes::max()");
  const std::uint64_t more[] = {3, 4};
  expect_waits_until_stopped(
      [&](std::stop_token t) { return q.send_batch(std::span(more), std::chrono::seconds::max(), t).status; },
      SendStatus::stopped, "send_batch, seconds::max()");
  EXPECT_EQ(q.statistics().timed_out, 0u);
  // A short timeout in any unit still times out.
  EXPECT_EQ(q.send(5, std::chrono::duration<double, std::milli>(1.5)).status, SendStatus::timeout);
}

TEST(QueueTimeout, AnyDurationIsTakenInNanosecondsWithSaturation) {
  using ringkernel::saturating_nanoseconds;
  using ns = std::chrono::nanoseconds;
  static_assert(saturating_nanoseconds(std::chrono::seconds::max()) == ns::max());
  static_assert(saturating_nanoseconds(std::chrono::seconds::min()) == ns::min());
  static_assert(saturating_nanoseconds(std::chrono::hours(24 * 365 * 300)) == ns::max());
  static_assert(saturating_nanoseconds(std::chrono::milliseconds(5)) == ns(5'000'000));
  static_assert(saturating_nanoseconds(std::chrono::seconds(-2)) == ns(-2'000'000'000));
  static_assert(saturating_nanoseconds(std::chrono::seconds(9'223'372'036)) == ns(9'223'372'036'000'000'000));
  static_assert(saturating_nanoseconds(std::chrono::seconds(9'223'372'037)) == ns::max());
  static_assert(saturating_nanoseconds(ns::max()) == ns::max());
  static_assert(saturating_nanoseconds(std::chrono::duration<unsigned long long, std::nano>(~0ull)) == ns::max());
  static_assert(saturating_nanoseconds(std::chrono::duration<long long, std::pico>(1'500)) == ns(1));
  static_assert(saturating_nanoseconds(std::chrono::duration<double, std::milli>(1.5)) == ns(1'500'000));
  // Ticks that are no whole number of nanoseconds: duration_cast multiplies first and overflowed
  // for these in-range results (158 years in thirds of a second; 105 years in sixtieths).
  static_assert(saturating_nanoseconds(std::chrono::duration<long long, std::ratio<1, 3>>(15'000'000'000)) ==
                ns(5'000'000'000'000'000'000));
  static_assert(saturating_nanoseconds(std::chrono::duration<long long, std::ratio<1, 3>>(-15'000'000'001)) ==
                ns(-5'000'000'000'333'333'333));
  static_assert(saturating_nanoseconds(std::chrono::duration<long long, std::ratio<1, 60>>(200'000'000'000)) ==
                ns(3'333'333'333'333'333'333));
  static_assert(saturating_nanoseconds(std::chrono::duration<long long, std::ratio<1, 3>>(30'000'000'000)) == ns::max());
  static_assert(saturating_nanoseconds(std::chrono::duration<unsigned, std::ratio<1, 3>>(7)) == ns(2'333'333'333));
  static_assert(saturating_nanoseconds(std::chrono::duration<double>(1e300)) == ns::max());
  static_assert(saturating_nanoseconds(std::chrono::duration<double>(-1e300)) == ns::min());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(saturating_nanoseconds(std::chrono::duration<double>(nan)), ns::zero());
  EXPECT_EQ(saturating_nanoseconds(std::chrono::duration<double>(std::numeric_limits<double>::infinity())), ns::max());
}

TEST(QueueStatistics, BatchReceivesRecordTheLatencyOfEveryMessageAndTheOccupancyBefore) {
  using Msg = ringkernel::KernelMessage<Tagged>;
  ringkernel::MpmcQueue<Msg> q(QueueOptions{.capacity = 16, .detailed_statistics = true});
  ringkernel::MessageStamper stamper(1);
  std::vector<Msg> in;
  for (std::uint64_t i = 0; i < 6; ++i) {
    auto m = Msg::create_data(1, 2, Tagged{1, 0, i});
    ASSERT_TRUE(stamper.stamp(m));
    m.header.timestamp_us -= 5000;  // as if sent five milliseconds ago
    in.push_back(m);
  }
  ASSERT_EQ(q.send_batch(in).accepted, 6u);
  std::vector<Msg> out(4);
  ASSERT_EQ(q.receive_batch(out).received, 4u);
  ASSERT_EQ(q.try_receive_batch(out).received, 2u);
  const auto s = q.statistics();
  EXPECT_EQ(s.receive_batches, 2u);
  EXPECT_EQ(s.high_water_mark, 6u);
  EXPECT_EQ(s.latency.samples, 6u) << "one sample per message of each batch";
  EXPECT_GE(s.latency.mean_us, 5000.0);
  EXPECT_GE(s.latency.max_us, 5000u);
}

TEST(QueueStatistics, UnstampedMessagesHaveNoLatency) {
  using Msg = ringkernel::KernelMessage<Tagged>;
  ringkernel::SpscQueue<Msg> q(QueueOptions{.capacity = 8, .detailed_statistics = true});
  for (std::uint64_t i = 0; i < 3; ++i) {
    auto m = Msg::create_data(1, 2, Tagged{1, 0, i});
    m.header.timestamp_us = 0;  // never stamped
    ASSERT_TRUE(q.try_send(m).ok());
  }
  Msg m{};
  ASSERT_EQ(q.try_receive(m), ReceiveStatus::ok);
  std::vector<Msg> out(4);
  ASSERT_EQ(q.try_receive_batch(out).received, 2u);
  const auto s = q.statistics();
  EXPECT_EQ(s.received, 3u);
  EXPECT_EQ(s.high_water_mark, 3u);
  EXPECT_EQ(s.latency.samples, 0u) << "a message without a timestamp has no latency to report";
  EXPECT_EQ(s.latency.stamped_ahead, 0u);
}

TEST(QueueTypes, EveryEnumeratorHasItsOwnNameAndOthersAreInvalid) {
  using ringkernel::to_string;
  const std::vector<std::string> policies{to_string(FullPolicy::block), to_string(FullPolicy::reject),
                                          to_string(FullPolicy::drop_oldest), to_string(FullPolicy::drop_newest)};
  EXPECT_EQ(policies, (std::vector<std::string>{"block", "reject", "drop_oldest", "drop_newest"}));
  const std::vector<std::string> sends{to_string(SendStatus::ok),      to_string(SendStatus::full),
                                       to_string(SendStatus::dropped_newest), to_string(SendStatus::timeout),
                                       to_string(SendStatus::stopped), to_string(SendStatus::closed)};
  EXPECT_EQ(sends, (std::vector<std::string>{"ok", "full", "dropped (newest)", "timeout", "stopped", "closed"}));
  const std::vector<std::string> receives{to_string(ReceiveStatus::ok), to_string(ReceiveStatus::empty),
                                          to_string(ReceiveStatus::timeout), to_string(ReceiveStatus::stopped),
                                          to_string(ReceiveStatus::closed)};
  EXPECT_EQ(receives, (std::vector<std::string>{"ok", "empty", "timeout", "stopped", "closed"}));
  using ringkernel::QueueMemory;
  EXPECT_EQ(std::string(to_string(QueueMemory::host)), "host");
  EXPECT_EQ(std::string(to_string(QueueMemory::pinned)), "pinned");
  EXPECT_EQ(std::string(to_string(QueueMemory::device)), "device");
  EXPECT_EQ(std::string(to_string(static_cast<FullPolicy>(99))), "invalid");
  EXPECT_EQ(std::string(to_string(static_cast<SendStatus>(99))), "invalid");
  EXPECT_EQ(std::string(to_string(static_cast<ReceiveStatus>(99))), "invalid");
  EXPECT_EQ(std::string(to_string(static_cast<QueueMemory>(99))), "invalid");
}

}  // namespace
