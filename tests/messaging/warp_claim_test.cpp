// Copyright RingKernel authors.
// The lane arithmetic of the warp-aggregated claims (warp_enqueue.h), checked exhaustively-ish
// against lane-by-lane walks; the claims themselves run on simulated warps in warp_queue_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "ringkernel/queue/warp_enqueue.h"

namespace {

// The lane mask of a warp claim (the device code itself runs only in the gpu tests): the active
// lanes below the first active lane whose slot is not ready, checked against a lane-by-lane walk.
TEST(WarpClaim, ReadyPrefixCoversTheReadyActiveLanesBelowTheFirstThatIsNot) {
  const auto walk = [](unsigned active, unsigned ready) {
    unsigned claim = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned bit = 1u << lane;
      if ((active & bit) == 0) continue;
      if ((ready & bit) == 0) break;
      claim |= bit;
    }
    return claim;
  };
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const auto active = static_cast<unsigned>(x), ready = static_cast<unsigned>(x >> 32) | (i % 3 == 0 ? active : 0u);
    ASSERT_EQ(ringkernel::detail::ready_prefix(active, ready), walk(active, ready)) << std::hex << active << " " << ready;
  }
  EXPECT_EQ(ringkernel::detail::ready_prefix(0xffffffffu, 0xffffffffu), 0xffffffffu);
  EXPECT_EQ(ringkernel::detail::ready_prefix(0xf0u, 0xdfu), 0x10u);  // lane 5 not ready: only lane 4
  EXPECT_EQ(ringkernel::detail::ready_prefix(0xf0u, 0x0fu), 0u);     // the lowest active lane not ready
  EXPECT_EQ(ringkernel::detail::ready_prefix(0x80000000u, 0x80000000u), 0x80000000u);
}

// A warp's batch claim (device code; warp_queue_test.cpp runs it on simulated warps): lanes split the offsets of the
// run round robin, each finds its first slot that is not ready, and the minimum over the lanes must
// be exactly the ready run at the front, whatever the lane count, run length and wrap position.
TEST(WarpClaim, LanesTogetherFindExactlyTheReadyRunAtTheFront) {
  using ringkernel::detail::lane_first_not_ready;
  using ringkernel::detail::warp_batch_per_lane;
  std::uint64_t x = 0x243f6a8885a308d3ull;
  const auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int trial = 0; trial < 20000; ++trial) {
    const unsigned lanes = 1 + static_cast<unsigned>(next() % 32);
    const unsigned want = 1 + static_cast<unsigned>(next() % 300);
    const unsigned span = want < lanes * warp_batch_per_lane ? want : lanes * warp_batch_per_lane;
    const std::uint64_t lag = next() % 2;
    const std::uint64_t first = trial % 2 == 0 ? next() : ~std::uint64_t{0} - next() % 600;  // also across 2^64
    const unsigned ready = static_cast<unsigned>(next() % (span + 6));  // may exceed the span
    // The word of position p: ready (p + lag) for the first `ready` positions, else anything else.
    const auto word = [&](std::uint64_t p) {
      if (p - first < ready) return p + lag;
      const std::uint64_t off = 1 + next() % 1000;
      return next() % 2 == 0 ? p + lag + off : p + lag - off;
    };
    unsigned run = ~0u;
    for (unsigned rank = 0; rank < lanes; ++rank) {
      std::uint64_t seen[warp_batch_per_lane] = {};
      for (unsigned k = 0; k < warp_batch_per_lane; ++k) {
        if (rank + k * lanes < span) seen[k] = word(first + rank + k * lanes);
      }
      run = std::min(run, lane_first_not_ready(seen, rank, lanes, span, first, lag));
    }
    ASSERT_EQ(run, std::min(ready, span)) << "lanes " << lanes << ", span " << span << ", ready " << ready;
  }
}

}  // namespace
