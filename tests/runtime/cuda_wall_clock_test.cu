// Copyright RingKernel authors.
// measure_wall_clock_offset on a CUDA device (label gpu; skips without one), against this test's own
// bracket: a kernel compiled by nvcc stores wall_clock_us() (the clock device code stamps messages
// with) between two readings of the host's clock, so the device's offset lies within
// [device - after, device - before]. The runtime's answer (a PTX kernel the driver compiles) must
// overlap that interval, and its own must be narrow.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "ringkernel/device.h"
#include "ringkernel/wall_clock.h"
#include "ringkernel/wall_clock_offset.h"

namespace {

__global__ void read_wall_clock(std::uint64_t* out) { *out = ringkernel::wall_clock_us(); }

TEST(CudaWallClock, OffsetAgreesWithAKernelReadingTheClockMessagesAreStampedWith) {
  const auto cuda = ringkernel::devices(ringkernel::Backend::cuda);
  if (cuda.empty()) GTEST_SKIP() << "no CUDA device (ringkernel::devices(Backend::cuda) is empty)";
  const ringkernel::DeviceInfo& d = cuda.front();
  const ringkernel::WallClockOffset measured = ringkernel::measure_wall_clock_offset(d.id);
  // A launch and a synchronisation, doubled, plus the truncations: microseconds on a GPU, less
  // than a second under any sanitizer.
  EXPECT_LT(measured.uncertainty_us, 1'000'000u) << "offset " << measured.offset_us << " us";
  EXPECT_GE(measured.uncertainty_us, 1u) << "the clocks' truncation to microseconds alone is 1 us";

  ASSERT_EQ(cudaSetDevice(d.ordinal), cudaSuccess);
  std::uint64_t* device_us = nullptr;
  ASSERT_EQ(cudaHostAlloc(&device_us, sizeof *device_us, cudaHostAllocPortable), cudaSuccess);
  read_wall_clock<<<1, 1>>>(device_us);  // loads the kernel: not in the bracket
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::uint64_t before = ringkernel::wall_clock_us();
  read_wall_clock<<<1, 1>>>(device_us);
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t synced = cudaDeviceSynchronize();
  const std::uint64_t after = ringkernel::wall_clock_us();
  const auto device = static_cast<std::int64_t>(*device_us);
  EXPECT_EQ(cudaFreeHost(device_us), cudaSuccess);
  ASSERT_EQ(launched, cudaSuccess);
  ASSERT_EQ(synced, cudaSuccess);
  ASSERT_GE(after, before) << "the host's clock stepped back during the reading";

  // Each bound widened by a microsecond for each clock's truncation.
  const std::int64_t low = device - static_cast<std::int64_t>(after) - 1;
  const std::int64_t high = device - static_cast<std::int64_t>(before) + 1;
  const auto spread = static_cast<std::int64_t>(measured.uncertainty_us);
  std::printf("device %d: wall-clock offset %+lld us +/- %lld us (runtime); this test's bracket [%+lld, %+lld] us\n",
              d.id, static_cast<long long>(measured.offset_us), static_cast<long long>(spread),
              static_cast<long long>(low), static_cast<long long>(high));
  EXPECT_LE(measured.offset_us - spread, high) << "the runtime's offset is above the bracket";
  EXPECT_GE(measured.offset_us + spread, low) << "the runtime's offset is below the bracket";
}

}  // namespace
