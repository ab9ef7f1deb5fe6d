// Copyright RingKernel authors.
// measure_wall_clock_offset on a CUDA device (label gpu; skips without one), against this test's own
// brackets: a kernel compiled by nvcc stores wall_clock_us() (the clock device code stamps messages
// with) between two readings of the host's clock, once before and once after the measurement. The
// runtime's answer (a PTX kernel the driver compiles) must overlap what they allow, and be no wider
// than they are. (Its arithmetic, the sign included, is wall_clock_bracket_test.cpp's, without a GPU.)
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "cuda_test_devices.h"
#include "ringkernel/device.h"
#include "ringkernel/wall_clock.h"
#include "ringkernel/wall_clock_offset.h"

namespace {

// Stores wall_clock_us() as it changes, and whether it did within 2^20 reads. The PTX ISA does not
// say how often %globaltimer updates, so a reading taken at a random moment may be stale by a
// whole tick of unknown length; the runtime's kernel waits for the register to tick for that
// reason (globaltimer_ptx.h). Waiting for the microseconds to change does the same for this clock:
// when they do, the register has just updated (with a tick of a microsecond or more, at a tick;
// with a finer one, within a tick of a microsecond boundary).
__global__ void read_wall_clock(std::uint64_t* out) {
  const std::uint64_t start = ringkernel::wall_clock_us();
  std::uint64_t now = start;
  std::uint32_t reads = 0;
  while (now == start && reads < (1u << 20)) {
    now = ringkernel::wall_clock_us();
    ++reads;
  }
  out[0] = now;
  out[1] = now != start;
}

// The offsets (device minus host, us) one reading allows, both bounds exclusive.
struct Bracket {
  std::int64_t low = 0;
  std::int64_t high = 0;
  bool ok = false;
};

Bracket bracket_by_kernel(std::uint64_t* device_us) {
  Bracket b;
  const std::uint64_t before = ringkernel::wall_clock_us();
  read_wall_clock<<<1, 1>>>(device_us);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::uint64_t after = ringkernel::wall_clock_us();
  EXPECT_GE(after, before) << "the host's clock stepped back during the reading";
  EXPECT_EQ(device_us[1], 1u) << "wall_clock_us() did not change in 2^20 reads on the device";
  const auto device = static_cast<std::int64_t>(device_us[0]);
  // Host readings truncated to microseconds: the device read at a host time in [before, after + 1).
  // The device's reading, taken as it changed, is truncated too (1 us) and lags the device's time by
  // less than another microsecond (a tick finer than a microsecond, and the poll's own latency):
  // it is less than 2 us behind, whatever the tick of %globaltimer.
  b.low = device - static_cast<std::int64_t>(after) - 1;
  b.high = device - static_cast<std::int64_t>(before) + 2;
  b.ok = after >= before && !::testing::Test::HasFailure();
  return b;
}

TEST(CudaWallClock, OffsetAgreesWithAKernelReadingTheClockMessagesAreStampedWith) {
  RINGKERNEL_REQUIRE_CUDA_DEVICES(cuda, 1);
  const ringkernel::DeviceInfo& d = cuda.front();
  ASSERT_EQ(cudaSetDevice(d.ordinal), cudaSuccess);
  std::uint64_t* device_us = nullptr;  // the reading and whether the clock ticked
  ASSERT_EQ(cudaHostAlloc(&device_us, 2 * sizeof *device_us, cudaHostAllocPortable), cudaSuccess);
  read_wall_clock<<<1, 1>>>(device_us);  // loads the kernel: not in a bracket
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  const Bracket first = bracket_by_kernel(device_us);
  const ringkernel::WallClockOffset measured = ringkernel::measure_wall_clock_offset(d.id);
  const Bracket second = bracket_by_kernel(device_us);
  EXPECT_EQ(cudaFreeHost(device_us), cudaSuccess);
  ASSERT_TRUE(first.ok && second.ok);

  // A host clock slewed meanwhile moves the offset: at the measurement it lies within the union.
  const std::int64_t low = std::min(first.low, second.low), high = std::max(first.high, second.high);
  const auto spread = static_cast<std::int64_t>(measured.uncertainty_us);
  std::printf("device %d: wall-clock offset %+lld us +/- %lld us (runtime); this test's brackets (%+lld, %+lld) "
              "and (%+lld, %+lld) us\n",
              d.id, static_cast<long long>(measured.offset_us), static_cast<long long>(spread),
              static_cast<long long>(first.low), static_cast<long long>(first.high),
              static_cast<long long>(second.low), static_cast<long long>(second.high));
  EXPECT_LT(measured.offset_us - spread, high) << "the runtime's offset is above what the brackets allow";
  EXPECT_GT(measured.offset_us + spread, low) << "the runtime's offset is below what the brackets allow";
  // The best of eight readings is no wider than one of the test's (a millisecond's room for a noisy
  // machine or a sanitizer).
  EXPECT_GE(spread, 1) << "the clocks' truncation to microseconds alone is 1 us";
  EXPECT_LE(2 * spread, std::max({first.high - first.low, second.high - second.low, std::int64_t{1000}}));
}

}  // namespace
