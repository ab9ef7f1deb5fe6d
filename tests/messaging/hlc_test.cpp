// Copyright RingKernel authors.
// HybridLogicalClock: layout, now()/update() rules, skew rejection, wall times out of range, logical
// overflow, exhaustion, a device offset corrected, and unique, strictly increasing stamps under concurrency.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <latch>
#include <thread>
#include <utility>
#include <vector>

#include "hlc_test_support.h"
#include "ringkernel/hlc.h"
#include "ringkernel/wall_clock.h"

namespace {

using ringkernel::hlc_status;
using ringkernel::hlc_timestamp;
using ringkernel::HybridLogicalClock;

TEST(HlcTimestamp, PacksPhysicalAndLogicalParts) {
  const hlc_timestamp t = hlc_timestamp::from_parts(1'763'000'000'000'000ull, 7);
  EXPECT_EQ(t.physical_us(), 1'763'000'000'000'000ull);
  EXPECT_EQ(t.logical(), 7u);
  EXPECT_EQ(t.bits, (1'763'000'000'000'000ull << 12) | 7u);
  // Integer order is (physical, logical) order.
  EXPECT_LT(hlc_timestamp::from_parts(10, 4095), hlc_timestamp::from_parts(11, 0));
  EXPECT_LT(hlc_timestamp::from_parts(10, 1), hlc_timestamp::from_parts(10, 2));
  // Today's epoch microseconds fit the physical part.
  EXPECT_GT(hlc_timestamp::max_physical_us, ringkernel::wall_clock_us() * 2);
}

TEST(HybridLogicalClock, NowFollowsTheWallClockAndCountsWithinOneMicrosecond) {
  HybridLogicalClock clock;
  EXPECT_EQ(clock.now_at(100), hlc_timestamp::from_parts(100, 0));
  EXPECT_EQ(clock.now_at(100), hlc_timestamp::from_parts(100, 1));
  EXPECT_EQ(clock.now_at(100), hlc_timestamp::from_parts(100, 2));
  EXPECT_EQ(clock.now_at(105), hlc_timestamp::from_parts(105, 0));
  // A wall clock going backwards never makes the clock go backwards.
  EXPECT_EQ(clock.now_at(90), hlc_timestamp::from_parts(105, 1));
  EXPECT_EQ(clock.last(), hlc_timestamp::from_parts(105, 1));
}

TEST(HybridLogicalClock, UpdateTakesTheMaximumOfLocalRemoteAndWall) {
  HybridLogicalClock clock(1000);
  EXPECT_EQ(clock.now_at(100), hlc_timestamp::from_parts(100, 0));
  // Remote ahead in physical time, within the skew bound: adopt it, logical + 1.
  auto r = clock.update_at(hlc_timestamp::from_parts(150, 3), 120);
  EXPECT_EQ(r.status, hlc_status::ok);
  EXPECT_EQ(r.stamp, hlc_timestamp::from_parts(150, 4));
  // Remote behind: local counts on.
  r = clock.update_at(hlc_timestamp::from_parts(110, 9), 130);
  EXPECT_EQ(r.stamp, hlc_timestamp::from_parts(150, 5));
  // Same physical part, remote logical larger: max + 1.
  r = clock.update_at(hlc_timestamp::from_parts(150, 20), 130);
  EXPECT_EQ(r.stamp, hlc_timestamp::from_parts(150, 21));
  // Wall clock ahead of both: logical restarts.
  r = clock.update_at(hlc_timestamp::from_parts(150, 30), 200);
  EXPECT_EQ(r.stamp, hlc_timestamp::from_parts(200, 0));
  EXPECT_EQ(clock.skew_rejections(), 0u);
}

// docs/messaging.md §2: the empty stamp is merged like any other, so ok does not tell a receiver
// that a message carried a causal link (it checks the stamp for 0 itself).
TEST(HybridLogicalClock, UpdateWithTheEmptyStampIsOkAndActsAsNow) {
  HybridLogicalClock clock(1000), twin(1000);
  EXPECT_EQ(clock.now_at(100), twin.now_at(100));
  for (const std::uint64_t wall : {90u, 100u, 300u}) {
    const auto r = clock.update_at(hlc_timestamp{}, wall);
    EXPECT_EQ(r.status, hlc_status::ok);
    EXPECT_EQ(r.stamp, twin.now_at(wall)) << "as now_at(" << wall << ")";
  }
  EXPECT_EQ(clock.skew_rejections(), 0u);
  EXPECT_EQ(clock.exhaustions(), 0u);
}

TEST(HybridLogicalClock, RejectsAndCountsRemoteStampsTooFarAhead) {
  HybridLogicalClock clock(50);
  const hlc_timestamp before = clock.now_at(1000);
  auto r = clock.update_at(hlc_timestamp::from_parts(1051, 0), 1000);  // 51 us ahead, bound 50
  EXPECT_EQ(r.status, hlc_status::skew_rejected);
  EXPECT_EQ(r.stamp, before);
  EXPECT_EQ(clock.last(), before) << "a rejected stamp must not be adopted";
  EXPECT_EQ(clock.skew_rejections(), 1u);
  r = clock.update_at(hlc_timestamp::from_parts(1050, 7), 1000);  // exactly at the bound: accepted
  EXPECT_EQ(r.status, hlc_status::ok);
  EXPECT_EQ(r.stamp, hlc_timestamp::from_parts(1050, 8));
  EXPECT_EQ(clock.skew_rejections(), 1u);
  EXPECT_STREQ(ringkernel::to_string(hlc_status::skew_rejected), "remote clock too far ahead");
  // At the bound with a full logical part, remote + 1 carries: the clock leads by the bound + 1 us
  // (documented), and a peer with the same bound and wall clock rejects its next stamp.
  r = clock.update_at(hlc_timestamp::from_parts(1050, hlc_timestamp::logical_mask), 1000);
  ASSERT_EQ(r.status, hlc_status::ok);
  EXPECT_EQ(r.stamp, hlc_timestamp::from_parts(1051, 0));
  HybridLogicalClock peer(50);
  EXPECT_EQ(peer.update_at(clock.now_at(1000), 1000).status, hlc_status::skew_rejected);
}

TEST(HybridLogicalClock, LogicalOverflowCarriesIntoPhysicalAndIsCounted) {
  HybridLogicalClock clock;
  hlc_timestamp last{};
  for (std::uint64_t i = 0; i <= hlc_timestamp::logical_mask; ++i) last = clock.now_at(500);
  EXPECT_EQ(last, hlc_timestamp::from_parts(500, hlc_timestamp::logical_mask));
  EXPECT_EQ(clock.logical_overflows(), 0u);
  const hlc_timestamp carried = clock.now_at(500);
  EXPECT_EQ(carried, hlc_timestamp::from_parts(501, 0));
  EXPECT_GT(carried, last);
  EXPECT_EQ(clock.logical_overflows(), 1u);
  // The wall clock reaching 501 is not an overflow: stamps simply continue.
  EXPECT_EQ(clock.now_at(501), hlc_timestamp::from_parts(501, 1));
  EXPECT_EQ(clock.logical_overflows(), 1u);
  // An update whose remote + 1 carries counts too.
  EXPECT_EQ(clock.update_at(hlc_timestamp::from_parts(600, hlc_timestamp::logical_mask), 600).stamp,
            hlc_timestamp::from_parts(601, 0));
  EXPECT_EQ(clock.logical_overflows(), 2u);
}

TEST(HybridLogicalClock, RemoteStampsNearTheEndOfTheRangeAreRejectedWhateverTheSkewBound) {
  HybridLogicalClock clock(~std::uint64_t{0});  // no skew bound
  const std::uint64_t wall = 1'763'000'000'000'000;
  const hlc_timestamp before = clock.now_at(wall);
  for (const std::uint64_t bits : {~std::uint64_t{0}, ~std::uint64_t{0} - 1,
                                   hlc_timestamp::from_parts(hlc_timestamp::max_remote_physical_us + 1, 0).bits}) {
    const auto r = clock.update_at(hlc_timestamp{bits}, wall);
    EXPECT_EQ(r.status, hlc_status::skew_rejected) << std::hex << bits;
    EXPECT_EQ(clock.last(), before) << "a rejected stamp must not be adopted";
  }
  EXPECT_EQ(clock.skew_rejections(), 3u);
  const hlc_timestamp edge = hlc_timestamp::from_parts(hlc_timestamp::max_remote_physical_us, hlc_timestamp::logical_mask);
  const auto r = clock.update_at(edge, wall);
  ASSERT_EQ(r.status, hlc_status::ok);
  EXPECT_GT(r.stamp, edge);
  EXPECT_GT(clock.now_at(wall), r.stamp);
}

// The reserve in numbers (hlc.h): the physical range ends at 2^52 - 1 us, and its last 2^32 us
// (about 71 minutes) are kept for local carries, so the largest remote physical part is
// 2^52 - 1 - 2^32. Literal values: a reserve of any other size fails here.
TEST(HybridLogicalClock, RemoteStampsInTheLast2To32MicrosecondsAreRejected) {
  EXPECT_EQ(hlc_timestamp::max_physical_us, 0xf'ffff'ffff'ffffull);
  EXPECT_EQ(hlc_timestamp::max_remote_physical_us, 0xf'fffe'ffff'ffffull);
  const std::uint64_t end = (std::uint64_t{1} << 52) - 1;
  const std::uint64_t wall = 1'763'000'000'000'000;
  for (const std::uint64_t physical : {end - (std::uint64_t{1} << 31), end - (std::uint64_t{1} << 32) + 1}) {
    HybridLogicalClock clock(~std::uint64_t{0});  // no skew bound
    const hlc_timestamp before = clock.now_at(wall);
    const auto r = clock.update_at(hlc_timestamp::from_parts(physical, 0), wall);
    EXPECT_EQ(r.status, hlc_status::skew_rejected) << "physical " << physical;
    EXPECT_EQ(clock.last(), before) << "physical " << physical;
  }
  HybridLogicalClock clock(~std::uint64_t{0});
  const auto r = clock.update_at(hlc_timestamp::from_parts(end - (std::uint64_t{1} << 32), 0), wall);
  ASSERT_EQ(r.status, hlc_status::ok);
  EXPECT_EQ(r.stamp, hlc_timestamp::from_parts(end - (std::uint64_t{1} << 32), 1));
}

// A wall time beyond max_remote_physical_us (past 2112) is most likely in the wrong unit: here
// nanoseconds since the epoch, what system_clock::now().time_since_epoch().count() gives with
// libstdc++. It is refused and counted, and the clock goes on as if the call had not happened
// (it used to jump to the end of its range, its peers refusing its stamps, and die 4096 stamps later).
TEST(HybridLogicalClock, NowAtRefusesAWallTimeInNanosecondsAndStaysUsable) {
  HybridLogicalClock clock, peer;
  const std::uint64_t wall = ringkernel::wall_clock_us();
  const hlc_timestamp before = clock.now_at(wall);
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
  EXPECT_EQ(clock.now_at(static_cast<std::uint64_t>(ns.count())), hlc_timestamp{});
  EXPECT_EQ(clock.wall_rejections(), 1u);
  EXPECT_EQ(clock.last(), before) << "a refused wall time must leave the clock unchanged";
  EXPECT_EQ(clock.exhaustions(), 0u);
  const hlc_timestamp next = clock.now_at(wall + 1);
  EXPECT_EQ(next, hlc_timestamp::from_parts(wall + 1, 0));
  EXPECT_GT(next, before);
  EXPECT_EQ(peer.update_at(next, wall + 1).status, hlc_status::ok) << "a peer takes the clock's later stamps";
  EXPECT_EQ(clock.wall_rejections(), 1u);
}

// update_at checks the wall time first: a bad wall is wall_out_of_range (counted in
// wall_rejections() only) whatever the remote, never a skew rejection.
TEST(HybridLogicalClock, UpdateAtRefusesAWallTimeOutOfRangeBeforeCheckingTheSkew) {
  HybridLogicalClock clock(50);
  const hlc_timestamp before = clock.now_at(1000);
  const std::uint64_t bad_wall = 1'763'000'000'000'000'000;  // nanoseconds
  for (const hlc_timestamp remote : {hlc_timestamp::from_parts(1010, 0),  // valid
                                     hlc_timestamp::from_parts(hlc_timestamp::max_remote_physical_us + 1, 0)}) {
    const auto r = clock.update_at(remote, bad_wall);
    EXPECT_EQ(r.status, hlc_status::wall_out_of_range) << std::hex << remote.bits;
    EXPECT_EQ(r.stamp, before) << "the clock's last stamp";
    EXPECT_EQ(clock.last(), before) << "a refused wall time must leave the clock unchanged";
  }
  EXPECT_EQ(clock.wall_rejections(), 2u);
  EXPECT_EQ(clock.skew_rejections(), 0u);
  EXPECT_STREQ(ringkernel::to_string(hlc_status::wall_out_of_range),
               "wall time out of range (not microseconds since the epoch?)");
  const auto r = clock.update_at(hlc_timestamp::from_parts(1010, 0), 1000);
  EXPECT_EQ(r.status, hlc_status::ok);
  EXPECT_EQ(r.stamp, hlc_timestamp::from_parts(1010, 1));
}

TEST(HybridLogicalClock, AWallTimeAtMaxRemotePhysicalIsTakenAndOneAboveIsRefused) {
  constexpr std::uint64_t bound = hlc_timestamp::max_remote_physical_us;
  HybridLogicalClock clock(~std::uint64_t{0});  // no skew bound
  for (const std::uint64_t wall : {bound + 1, hlc_timestamp::max_physical_us, hlc_timestamp::max_physical_us + 1, ~std::uint64_t{0}}) {
    EXPECT_EQ(clock.now_at(wall), hlc_timestamp{}) << wall;
    EXPECT_EQ(clock.update_at(hlc_timestamp{}, wall).status, hlc_status::wall_out_of_range) << wall;
  }
  EXPECT_EQ(clock.wall_rejections(), 8u);
  EXPECT_EQ(clock.last(), hlc_timestamp{});
  EXPECT_EQ(clock.now_at(bound), hlc_timestamp::from_parts(bound, 0));
  const auto r = clock.update_at(hlc_timestamp::from_parts(bound, 5), bound);
  EXPECT_EQ(r.status, hlc_status::ok);
  EXPECT_EQ(r.stamp, hlc_timestamp::from_parts(bound, 6));
  EXPECT_EQ(clock.wall_rejections(), 8u);
}

// Only 2^44 carries past the reserve reach the largest stamp (set here directly: hlc_test_support.h):
// stamps go up to it, never wrap and never repeat; after it the clock issues the empty stamp and
// counts each refusal.
TEST(HybridLogicalClock, AClockThatIssuedTheLargestStampIssuesNoMore) {
  HybridLogicalClock clock;
  hlc_timestamp last = hlc_timestamp::from_parts(hlc_timestamp::max_physical_us, 0);
  ASSERT_NO_FATAL_FAILURE(hlc_test_support::set_last_stamp(clock, last));
  for (std::uint64_t i = 0; i < hlc_timestamp::logical_mask; ++i) {
    const hlc_timestamp next = clock.now_at(1000);
    ASSERT_GT(next, last) << i;
    last = next;
  }
  EXPECT_EQ(last.bits, ~std::uint64_t{0});
  EXPECT_EQ(clock.exhaustions(), 0u);
  EXPECT_EQ(clock.now_at(1000), hlc_timestamp{});
  // update() says so: an "ok" with a stamp would put that stamp on a causal message.
  const auto r = clock.update_at(hlc_timestamp::from_parts(999, 0), 1000);
  EXPECT_EQ(r.status, hlc_status::exhausted);
  EXPECT_EQ(r.stamp.bits, ~std::uint64_t{0}) << "the last stamp, already issued";
  EXPECT_STREQ(ringkernel::to_string(hlc_status::exhausted), "clock exhausted (it issued its largest stamp)");
  EXPECT_EQ(clock.exhaustions(), 2u);
  // The wall time is checked first: a bad one is refused as such, not counted as an exhaustion.
  EXPECT_EQ(clock.update_at(hlc_timestamp::from_parts(999, 0), ~std::uint64_t{0}).status, hlc_status::wall_out_of_range);
  EXPECT_EQ(clock.exhaustions(), 2u);
  EXPECT_EQ(clock.last().bits, ~std::uint64_t{0});
}

// docs/messaging.md §2, "A device clock offset": a device whose wall clock leads the host's by 5 s.
// Uncorrected, a host clock with a bound wide enough for the device takes its stamps, then leads
// its own wall clock by 5 s, and a clock downstream of it with the default bound rejects the host's
// stamps. With the device's wall time corrected by the measured offset (the doc's expression),
// default bounds suffice everywhere; the same for a device that lags by 5 s.
TEST(HybridLogicalClock, ADeviceWallClockCorrectedByItsMeasuredOffsetKeepsEveryClockWithinTheDefaultBound) {
  const std::uint64_t host_wall = 1'763'000'000'000'000;
  const std::int64_t offset_us = 5'000'000;  // WallClockOffset::offset_us: device minus host
  const std::uint64_t device_reading = host_wall + 5'000'000;
  HybridLogicalClock device, host(6'000'000), downstream;
  ASSERT_EQ(host.update_at(device.now_at(device_reading), host_wall).status, hlc_status::ok);
  EXPECT_EQ(downstream.update_at(host.now_at(host_wall + 10), host_wall + 20).status, hlc_status::skew_rejected)
      << "the device's lead spreads to every clock downstream of the host";
  for (const std::int64_t offset : {offset_us, -offset_us}) {
    const std::uint64_t reading = host_wall + static_cast<std::uint64_t>(offset);  // modulo 2^64
    const std::uint64_t corrected = reading - static_cast<std::uint64_t>(offset);  // as in the doc
    EXPECT_EQ(corrected, host_wall) << offset;
    HybridLogicalClock device2, host2, downstream2;
    const hlc_timestamp sent = device2.now_at(corrected);
    ASSERT_EQ(host2.update_at(sent, host_wall).status, hlc_status::ok) << offset;
    EXPECT_EQ(downstream2.update_at(host2.now_at(host_wall + 10), host_wall + 20).status, hlc_status::ok) << offset;
    // And back: the device merges the host's next stamp with its corrected wall time.
    const auto back = device2.update_at(host2.now_at(host_wall + 30), reading + 40 - static_cast<std::uint64_t>(offset));
    EXPECT_EQ(back.status, hlc_status::ok) << offset;
    EXPECT_GT(back.stamp, sent) << offset;
  }
}

TEST(HybridLogicalClock, ConcurrentStampsAreUniqueAndStrictlyIncreasingPerThread) {
  HybridLogicalClock clock;
  constexpr int threads = 6;
  constexpr int per_thread = 20'000;
  std::vector<std::vector<std::uint64_t>> stamps(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      stamps[t].reserve(per_thread);
      for (int i = 0; i < per_thread; ++i) {
        // Mix local events and receives of other threads' stamps.
        if (i % 3 == 2 && !stamps[t].empty()) {
          const auto r = clock.update(hlc_timestamp{stamps[t][stamps[t].size() / 2]});
          ASSERT_EQ(r.status, hlc_status::ok);
          stamps[t].push_back(r.stamp.bits);
        } else {
          stamps[t].push_back(clock.now().bits);
        }
      }
    });
  }
  for (auto& w : workers) w.join();
  std::vector<std::uint64_t> all;
  for (const auto& s : stamps) {
    for (std::size_t i = 1; i < s.size(); ++i) ASSERT_LT(s[i - 1], s[i]) << "stamp " << i;
    all.insert(all.end(), s.begin(), s.end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "two callers got the same stamp";
  EXPECT_EQ(all.back(), clock.last().bits);
}

// Every caller stamps at one fixed wall time, so every stamp comes from last + 1: callers that
// overlap would issue one stamp twice if an update were lost. The callers start together (latch)
// and go on until each has seen another's stamps between its own `interleavings` times (they ran
// at once), at most max_calls each (a loaded machine may give them no second core); whatever the
// interleaving, the stamps must be exactly the consecutive values from (1000, 0) on.
TEST(HybridLogicalClock, ConcurrentStampsAtOneWallTimeAreConsecutiveAndUnique) {
  HybridLogicalClock clock;
  constexpr int threads = 8;
  // Under ThreadSanitizer (RINGKERNEL_TSAN_FENCE_MODEL, atomic_word.h) every call is instrumented.
#if defined(RINGKERNEL_TSAN_FENCE_MODEL)
  constexpr std::size_t max_calls = 25'000;
#else
  constexpr std::size_t max_calls = 250'000;
#endif
  constexpr int interleavings = 1000;
  std::vector<std::vector<std::uint64_t>> stamps(threads);
  std::latch start(threads);
  std::atomic<int> interleaved{0};  // threads that saw enough interleavings
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::vector<std::uint64_t>& mine = stamps[t];
      mine.reserve(max_calls);
      int seen = 0;
      start.arrive_and_wait();
      while (mine.size() < max_calls && interleaved.load(std::memory_order_relaxed) < threads) {
        const std::uint64_t s = clock.now_at(1000).bits;
        if (!mine.empty() && s != mine.back() + 1 && ++seen == interleavings) interleaved.fetch_add(1);
        mine.push_back(s);
      }
    });
  }
  for (auto& w : workers) w.join();
  std::vector<std::uint64_t> all;
  for (const auto& s : stamps) {
    for (std::size_t i = 1; i < s.size(); ++i) ASSERT_LT(s[i - 1], s[i]) << "stamp " << i;
    all.insert(all.end(), s.begin(), s.end());
  }
  std::sort(all.begin(), all.end());
  const std::uint64_t first = hlc_timestamp::from_parts(1000, 0).bits;
  for (std::size_t i = 0; i < all.size(); ++i) {
    ASSERT_EQ(all[i], first + i) << "stamp " << i << " of " << all.size() << ": a repeat or a gap";
  }
  EXPECT_EQ(clock.last().bits, first + all.size() - 1);
}

// The name of every hlc_status, and "unknown" for a value past them.
TEST(HybridLogicalClock, EveryStatusHasItsName) {
  const std::pair<hlc_status, const char*> names[] = {
      {hlc_status::ok, "ok"},
      {hlc_status::skew_rejected, "remote clock too far ahead"},
      {hlc_status::exhausted, "clock exhausted (it issued its largest stamp)"},
      {hlc_status::wall_out_of_range, "wall time out of range (not microseconds since the epoch?)"},
      {static_cast<hlc_status>(4), "unknown"},
      {static_cast<hlc_status>(255), "unknown"}};
  for (const auto& [status, name] : names) EXPECT_STREQ(ringkernel::to_string(status), name) << static_cast<int>(status);
}

}  // namespace
