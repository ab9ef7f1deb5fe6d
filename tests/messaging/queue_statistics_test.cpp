// Copyright RingKernel authors.
// Queue latency statistics from the envelope's timestamp (detailed_statistics): mean, p50/p99 and
// max from the lock-free histogram, messages stamped ahead of the receiver's clock or before the
// epoch counted apart; the high-water mark sampled by sends refused `closed`; the histogram's
// bucket bounds; the deadline the device-side spins use.
#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <limits>
#include <span>
#include <vector>

#include "messaging_messages.rk.h"
#include "ringkernel/deadline.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using messaging_test::Tagged;
using ringkernel::QueueOptions;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;

TEST(QueueStatistics, DetailedStatisticsTrackHighWaterMarkAndLatency) {
  using Msg = ringkernel::KernelMessage<Tagged>;
  ringkernel::MpmcQueue<Msg> q(QueueOptions{.capacity = 16, .detailed_statistics = true});
  ringkernel::MessageStamper stamper(1);
  for (std::uint64_t i = 0; i < 10; ++i) {
    auto m = Msg::create_data(1, 2, Tagged{1, 0, i});
    ASSERT_TRUE(stamper.stamp(m));
    m.header.timestamp_us -= 1000;  // as if sent a millisecond ago
    ASSERT_TRUE(q.send(m).ok());
  }
  Msg m{};
  for (int i = 0; i < 10; ++i) ASSERT_EQ(q.receive(m), ReceiveStatus::ok);
  const auto s = q.statistics();
  ASSERT_TRUE(s.detailed);
  EXPECT_EQ(s.high_water_mark, 10u);
  EXPECT_EQ(s.latency.samples, 10u);
  EXPECT_GE(s.latency.mean_us, 1000.0);
  EXPECT_GE(s.latency.p99_us, 1000u);
  EXPECT_LE(s.latency.p99_us, s.latency.max_us + s.latency.max_us / 8 + 1);
}

TEST(QueueStatistics, MessagesStampedAheadOfTheReceiversClockAreCountedApartFromTheLatency) {
  // A sender whose clock runs ahead (a device's %globaltimer against the host's clock, say) stamps
  // times in the receiver's future: those are counted, not folded into the figures as 0 us.
  using Msg = ringkernel::KernelMessage<Tagged>;
  ringkernel::MpmcQueue<Msg> q(QueueOptions{.capacity = 16, .detailed_statistics = true});
  ringkernel::MessageStamper stamper(1);
  for (std::uint64_t i = 0; i < 6; ++i) {
    auto m = Msg::create_data(1, 2, Tagged{1, 0, i});
    ASSERT_TRUE(stamper.stamp(m));
    // Even: an hour in the receiver's future; odd: two milliseconds in its past.
    m.header.timestamp_us += i % 2 == 0 ? 3'600'000'000 : -2000;
    ASSERT_TRUE(q.send(m).ok());
  }
  Msg m{};
  for (int i = 0; i < 6; ++i) ASSERT_EQ(q.receive(m), ReceiveStatus::ok);
  const auto latency = q.statistics().latency;
  EXPECT_EQ(latency.stamped_ahead, 3u);
  EXPECT_EQ(latency.samples, 3u);
  EXPECT_GE(latency.mean_us, 2000.0) << "the future stamps must not pull the mean towards 0";
  EXPECT_GE(latency.p50_us, 2000u);
  EXPECT_LT(latency.max_us, 3'600'000'000u);
}

// Each stamp is counted where docs/messaging.md §4 says: 0 (never stamped) nowhere, a negative one
// (before the epoch, which no stamper writes: a sender's bad stamp) in stamped_before_epoch, one
// later than the receiver's clock in stamped_ahead, the rest as latency samples; through single
// and batch receives of both queue types.
template <class Queue>
void expect_each_stamp_counted_where_it_belongs() {
  using Msg = typename Queue::value_type;
  Queue q(QueueOptions{.capacity = 16, .detailed_statistics = true});
  const auto now = static_cast<std::int64_t>(ringkernel::wall_clock_us());
  constexpr auto min = std::numeric_limits<std::int64_t>::min();
  constexpr auto max = std::numeric_limits<std::int64_t>::max();
  const std::int64_t stamps[] = {0, -5, now - 2000, min, now + 3'600'000'000, -1, 0, 1, max, now - 3000};
  for (std::uint64_t i = 0; i < std::size(stamps); ++i) {
    auto m = Msg::create_data(1, 2, Tagged{1, 0, i});
    m.header.timestamp_us = stamps[i];
    ASSERT_TRUE(q.send(m).ok());
  }
  Msg m{};
  for (int i = 0; i < 5; ++i) ASSERT_EQ(q.receive(m), ReceiveStatus::ok);
  std::vector<Msg> rest(8);
  ASSERT_EQ(q.receive_batch(std::span<Msg>(rest)).received, 5u);
  const auto latency = q.statistics().latency;
  EXPECT_EQ(latency.samples, 3u) << "now - 2000, 1 and now - 3000";
  EXPECT_EQ(latency.stamped_ahead, 2u) << "an hour ahead and INT64_MAX";
  EXPECT_EQ(latency.stamped_before_epoch, 3u) << "-5, INT64_MIN and -1";
  EXPECT_GE(latency.max_us, static_cast<std::uint64_t>(now - 1)) << "1 us after the epoch: a sample, the oldest";
}

TEST(QueueStatistics, EachStampIsCountedWhereItBelongs) {
  using Msg = ringkernel::KernelMessage<Tagged>;
  expect_each_stamp_counted_where_it_belongs<ringkernel::MpmcQueue<Msg>>();
  expect_each_stamp_counted_where_it_belongs<ringkernel::SpscQueue<Msg>>();
}

// The high-water mark is sampled after every send, those refused `closed` included: messages a
// kernel pushed through ring() (not sampled) are seen by the next refused send, single or batch.
template <class Queue>
void expect_closed_sends_sample_the_high_water_mark() {
  Queue q(QueueOptions{.capacity = 16, .detailed_statistics = true});
  for (std::uint64_t i = 0; i < 3; ++i) ASSERT_TRUE(q.ring().try_push(i));
  q.shutdown();
  EXPECT_EQ(q.statistics().high_water_mark, 0u) << "ring() pushes are not sampled";
  EXPECT_EQ(q.try_send(9).status, SendStatus::closed);
  EXPECT_EQ(q.statistics().high_water_mark, 3u) << "a send refused closed samples";
  for (std::uint64_t i = 0; i < 2; ++i) ASSERT_TRUE(q.ring().try_push(i));  // kernels push after shutdown
  const std::vector<std::uint64_t> batch(4, 9);
  EXPECT_EQ(q.send_batch(std::span<const std::uint64_t>(batch)).status, SendStatus::closed);
  EXPECT_EQ(q.statistics().high_water_mark, 5u) << "a batch refused closed samples";
}

TEST(QueueStatistics, SendsRefusedClosedSampleTheHighWaterMark) {
  expect_closed_sends_sample_the_high_water_mark<ringkernel::MpmcQueue<std::uint64_t>>();
  expect_closed_sends_sample_the_high_water_mark<ringkernel::SpscQueue<std::uint64_t>>();
}

TEST(Deadline, PassesWhenTheWallClockReachesIt) {
  const auto now = ringkernel::wall_clock_us();
  EXPECT_TRUE(ringkernel::deadline::after_us(0).passed());
  const auto hour = ringkernel::deadline::after_us(3'600'000'000ull);
  EXPECT_FALSE(hour.passed());
  EXPECT_GE(hour.at_us(), now + 3'600'000'000ull);
  const auto soon = ringkernel::deadline::after_us(2000);
  while (!soon.passed()) {}
  EXPECT_GE(ringkernel::wall_clock_us(), now + 2000);
  const auto never = ringkernel::deadline::after_us(~std::uint64_t{0});  // past the clock's range
  EXPECT_FALSE(never.passed());
  EXPECT_EQ(never.at_us(), ~std::uint64_t{0});
}

TEST(LatencyHistogram, BucketsBoundValuesWithin12Point5Percent) {
  using H = ringkernel::detail::latency_histogram;
  for (std::uint64_t v : {0ull, 1ull, 7ull, 8ull, 9ull, 15ull, 16ull, 17ull, 1000ull, 123456789ull, ~0ull}) {
    const auto b = H::bucket_of(v);
    ASSERT_LT(b, H::bucket_count);
    EXPECT_GE(H::upper_bound(b), v) << v;
    if (b > 0) {
      EXPECT_LT(H::upper_bound(b - 1), v) << v;
    }
    EXPECT_LE(H::upper_bound(b) - v, v / 8) << v;
  }
  H h;
  for (std::uint64_t v = 1; v <= 1000; ++v) h.record(v);
  const auto s = h.summary();
  EXPECT_EQ(s.samples, 1000u);
  EXPECT_DOUBLE_EQ(s.mean_us, 500.5);
  EXPECT_GE(s.p99_us, 990u);
  EXPECT_LE(s.p99_us, 990u + 990u / 8);
  EXPECT_GE(s.p50_us, 500u);
  EXPECT_LE(s.p50_us, 500u + 500u / 8);
  EXPECT_EQ(s.max_us, 1000u);
}

// A bucket's upper bound may lie above every value recorded (20091 us falls in the bucket up to
// 20479): no percentile reports more than the maximum.
TEST(LatencyHistogram, PercentilesNeverExceedTheLargestValueRecorded) {
  using H = ringkernel::detail::latency_histogram;
  for (std::uint64_t v : {300ull, 1001ull, 5000ull, 20091ull, 123456789ull}) {
    ASSERT_GT(H::upper_bound(H::bucket_of(v)), v) << "a value inside its bucket, not at its bound";
    H h;
    h.record(v);
    h.record(v / 2);
    const auto s = h.summary();
    EXPECT_EQ(s.max_us, v);
    EXPECT_EQ(s.p99_us, v) << "the rank's bucket bound, capped at max";
    EXPECT_GE(s.p50_us, v / 2);
    EXPECT_LE(s.p50_us, v);
  }
}

// One slow message among a hundred is the 1 % that p99 leaves out: p99 stays at the other 99
// (the ceil(100 * 99 / 100) = 99th smallest value), neither the maximum nor pulled up by it.
TEST(LatencyHistogram, P99LeavesOutTheSlowestPercent) {
  using H = ringkernel::detail::latency_histogram;
  H h;
  for (int i = 0; i < 99; ++i) h.record(100);
  h.record(1'000'000);
  const auto s = h.summary();
  EXPECT_EQ(s.max_us, 1'000'000u);
  EXPECT_GE(s.p99_us, 100u);
  EXPECT_LE(s.p99_us, 100u + 100u / 8) << "p99 reported the outlier";
  EXPECT_LE(s.p50_us, 100u + 100u / 8);
  EXPECT_DOUBLE_EQ(s.mean_us, (99.0 * 100 + 1'000'000) / 100);
  // Two slow messages of a hundred: the 99th smallest is one of them.
  h.record(1'000'000);
  EXPECT_GE(h.summary().p99_us, 1'000'000u);
}

}  // namespace
