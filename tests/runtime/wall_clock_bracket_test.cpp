// Copyright RingKernel authors.
// The arithmetic of measure_wall_clock_offset (runtime/src/wall_clock_bracket.h), without a GPU: the
// interval it gives holds every offset its bracket allows, with the sign device minus host, and is no
// wider than the bracket needs.
#include "wall_clock_bracket.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

namespace {

using ringkernel::detail::offset_from_bracket;

// The offsets a bracket allows, as whole microseconds: (device - after - 1, device - before + 1).
struct Allowed {
  std::int64_t low;   // exclusive
  std::int64_t high;  // exclusive
};
Allowed allowed(std::uint64_t before, std::uint64_t device, std::uint64_t after) {
  return {static_cast<std::int64_t>(device) - static_cast<std::int64_t>(after) - 1,
          static_cast<std::int64_t>(device) - static_cast<std::int64_t>(before) + 1};
}

TEST(WallClockBracket, DeviceAheadGivesAPositiveOffset) {
  const auto o = offset_from_bracket(1'000, 1'500, 1'010);
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->offset_us, 495);  // 1500 - 1005
  EXPECT_EQ(o->uncertainty_us, 6u);
}

TEST(WallClockBracket, DeviceBehindGivesANegativeOffset) {
  const auto o = offset_from_bracket(1'000, 400, 1'010);
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->offset_us, -605);
  EXPECT_EQ(o->uncertainty_us, 6u);
}

TEST(WallClockBracket, OddAndEmptyBracketsRoundTheHalfWidthUp) {
  const auto odd = offset_from_bracket(1'000, 1'500, 1'011);
  ASSERT_TRUE(odd.has_value());
  EXPECT_EQ(odd->offset_us, 495);
  EXPECT_EQ(odd->uncertainty_us, 7u);
  const auto empty = offset_from_bracket(1'000, 1'000, 1'000);  // both host readings in one microsecond
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty->offset_us, 0);
  EXPECT_EQ(empty->uncertainty_us, 1u) << "the truncation of the clocks to microseconds remains";
}

TEST(WallClockBracket, AHostClockThatSteppedBackBracketsNothing) {
  EXPECT_FALSE(offset_from_bracket(1'000, 1'500, 999).has_value());
}

TEST(WallClockBracket, TheIntervalHoldsEveryAllowedOffsetAndLittleMore) {
  std::mt19937_64 rng(20261129);
  constexpr std::uint64_t epoch_2026_us = 1'795'000'000'000'000;  // today's clocks, not small numbers
  for (int i = 0; i < 100'000; ++i) {
    const std::uint64_t before = epoch_2026_us + rng() % 1'000'000'000;
    const std::uint64_t after = before + rng() % 5'000;
    const std::uint64_t device = before + rng() % 4'000'000 - 2'000'000;
    const auto o = offset_from_bracket(before, device, after);
    ASSERT_TRUE(o.has_value());
    const Allowed a = allowed(before, device, after);
    const auto spread = static_cast<std::int64_t>(o->uncertainty_us);
    // The true offset is any real number strictly between the bounds: the closed interval must
    // reach both.
    ASSERT_LE(o->offset_us - spread, a.low) << "before " << before << " device " << device << " after " << after;
    ASSERT_GE(o->offset_us + spread, a.high) << "before " << before << " device " << device << " after " << after;
    ASSERT_LE(2 * spread, a.high - a.low + 1) << "wider than the bracket allows, plus one for an odd width";
  }
}

}  // namespace
