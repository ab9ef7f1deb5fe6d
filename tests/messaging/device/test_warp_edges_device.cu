// Copyright RingKernel authors.
// Edge cases of the warp-aggregated queue calls on real warps (label gpu; each test skips with the
// reason when there is no CUDA device). Producer and consumer kernels run one after the other on one
// stream (no co-scheduling needed), so the tests also run under compute-sanitizer:
//  - batch calls with the full mask in a partial warp (a block of 48 threads) and after lanes of the
//    mask returned early: the lanes still running do the batches alone (fixed in 454e853, where the
//    host simulation showed the ring stalling at positions claimed for exited lanes);
//  - single calls whose lanes pass different rings, as a kernel routing each lane's message to its
//    destination's queue does: each lane's message lands in its own ring (fixed in f35169c).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "messaging_messages.rk.h"
#include "ringkernel/deadline.h"
#include "ringkernel/queue/queue_storage.h"
#include "ringkernel/queue/warp_enqueue.h"

#include "cuda_check.h"
#include "queue_device_support.h"

namespace {

using messaging_test::Tagged;
using ringkernel::QueueMemory;
using DeviceRing = ringkernel::mpmc_ring<Tagged, ringkernel::atomic_scope::device>;

using queue_device_test::full_warp;
using queue_device_test::kernel_budget_us;

// Blocks of 48 threads: warp 0 loses lanes 24..31 at once (they return), warp 1 is a partial warp
// of 16 lanes. The lanes left call every batch operation with the full mask.
constexpr unsigned block_threads = 48, first_leaving_lane = 24;
__device__ bool leaves_early() { return threadIdx.x < 32 && threadIdx.x >= first_leaving_lane; }
// Lanes left in this thread's warp: 0..live_lanes()-1 (24 in warp 0, 16 in warp 1), so a loop over a
// warp's array steps by this, not by 32, or the entries of the missing lanes are never touched.
__device__ unsigned live_lanes() { return threadIdx.x < 32 ? first_leaving_lane : block_threads - 32; }
__device__ std::uint64_t checksum_of(const Tagged& m) { return m.producer * 1000003ull + m.index; }

// Each warp pushes `per_warp` messages {warp, 0, k} in batches of `batch` (<= 64).
__global__ void push_with_departed_lanes(DeviceRing ring, std::uint32_t per_warp, std::uint32_t batch,
                                         unsigned* stalls) {
  if (leaves_early()) return;
  __shared__ Tagged staged[2][64];
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32, producer = blockIdx.x * 2 + w;
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (std::uint32_t done = 0; done < per_warp;) {
    const std::uint32_t n = per_warp - done < batch ? per_warp - done : batch;
    // The call's entry __syncwarp orders this staging before its copies; its exit one, the copies
    // before the next round's staging.
    for (std::uint32_t i = lane; i < n; i += live_lanes()) staged[w][i] = Tagged{producer, 0, done + i};
    for (std::uint32_t sent = 0; sent < n;) {
      if (__any_sync(full_warp, give_up.passed())) {
        if (lane == 0) atomicAdd(stalls, 1u);
        return;
      }
      sent += ringkernel::warp_push_batch(full_warp, ring, staged[w] + sent, n - sent);
    }
    done += n;
  }
}

// Warps pop up to 64 at a time until the ring is empty (nothing pushes meanwhile).
__global__ void pop_with_departed_lanes(DeviceRing ring, unsigned* received, unsigned long long* checksum) {
  if (leaves_early()) return;
  __shared__ Tagged got[2][64];
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (;;) {
    const unsigned n = ringkernel::warp_pop_batch(full_warp, ring, got[w], 64);
    if (n == 0) return;
    for (unsigned i = lane; i < n; i += live_lanes()) {
      atomicAdd(checksum, static_cast<unsigned long long>(checksum_of(got[w][i])));
    }
    if (lane == 0) atomicAdd(received, n);
  }
}

TEST(WarpEdgesDevice, BatchesWithAFullMaskInPartialWarpsAndAfterLanesReturned) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t blocks = 64, warps = blocks * 2, per_warp = 500, batch = 40, total = warps * per_warp,
                          capacity = 65536;
  static_assert(capacity >= total, "the producers must never find the ring full");
  ringkernel::QueueStorage storage(QueueMemory::device, dev, DeviceRing::bytes_for(capacity));
  const DeviceRing ring = ringkernel::initialize_ring<DeviceRing>(storage, capacity);
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before storage goes, also after a failed ASSERT
  unsigned* counters = nullptr;  // [0] stalled producer warps, [1] received
  unsigned long long* checksum = nullptr;
  CUDA_CHECK(cudaMalloc(&counters, 2 * sizeof *counters));
  CUDA_CHECK(cudaMalloc(&checksum, sizeof *checksum));
  CUDA_CHECK(cudaMemset(counters, 0, 2 * sizeof *counters));
  CUDA_CHECK(cudaMemset(checksum, 0, sizeof *checksum));
  push_with_departed_lanes<<<blocks, block_threads>>>(ring, per_warp, batch, counters);
  CUDA_CHECK(cudaGetLastError());
  pop_with_departed_lanes<<<blocks, block_threads>>>(ring, counters + 1, checksum);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  unsigned got[2] = {};
  unsigned long long sum = 0;
  CUDA_CHECK(cudaMemcpy(got, counters, sizeof got, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&sum, checksum, sizeof sum, cudaMemcpyDeviceToHost));
  unsigned long long expected = 0;
  for (std::uint32_t p = 0; p < warps; ++p) {
    for (std::uint32_t k = 0; k < per_warp; ++k) expected += p * 1000003ull + k;
  }
  EXPECT_EQ(got[0], 0u) << "producer warps gave up: the ring stalled";
  EXPECT_EQ(got[1], total) << "messages stuck behind a position claimed for a lane that had left";
  EXPECT_EQ(sum, expected) << "a message was lost, repeated or corrupted";
  cudaFree(counters);
  cudaFree(checksum);
}

// Thread t sends {t, 0, t} to ring t % 2 with warp_push, then (next kernel) takes one message from
// ring t % 2 with warp_pop: every push and every pop succeeds, each ring holds exactly its lanes'
// messages.
__global__ void route_push(DeviceRing even, DeviceRing odd, unsigned* refused) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (!ringkernel::warp_push(t % 2 == 0 ? even : odd, Tagged{t, 0, t})) atomicAdd(refused, 1u);
}
__global__ void route_pop(DeviceRing even, DeviceRing odd, unsigned* counters, unsigned long long* sums) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, r = t % 2;
  Tagged m{};
  if (!ringkernel::warp_pop(r == 0 ? even : odd, m)) {
    atomicAdd(&counters[1], 1u);  // missing
    return;
  }
  if (m.index % 2 != r || m.producer != m.index) atomicAdd(&counters[2], 1u);  // wrong ring or corrupted
  atomicAdd(&sums[r], static_cast<unsigned long long>(m.index));
}

TEST(WarpEdgesDevice, LanesRoutingToTwoRingsEachUseTheirOwn) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t blocks = 32, threads = 256, total = blocks * threads, capacity = 8192;
  static_assert(capacity >= total / 2, "each ring holds its lanes' messages");
  ringkernel::QueueStorage even_storage(QueueMemory::device, dev, DeviceRing::bytes_for(capacity));
  ringkernel::QueueStorage odd_storage(QueueMemory::device, dev, DeviceRing::bytes_for(capacity));
  const DeviceRing even = ringkernel::initialize_ring<DeviceRing>(even_storage, capacity);
  const DeviceRing odd = ringkernel::initialize_ring<DeviceRing>(odd_storage, capacity);
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before the storages go, also after a failed ASSERT
  unsigned* counters = nullptr;  // [0] refused pushes, [1] missing pops, [2] wrong or corrupted
  unsigned long long* sums = nullptr;  // per ring
  CUDA_CHECK(cudaMalloc(&counters, 3 * sizeof *counters));
  CUDA_CHECK(cudaMalloc(&sums, 2 * sizeof *sums));
  CUDA_CHECK(cudaMemset(counters, 0, 3 * sizeof *counters));
  CUDA_CHECK(cudaMemset(sums, 0, 2 * sizeof *sums));
  route_push<<<blocks, threads>>>(even, odd, counters);
  CUDA_CHECK(cudaGetLastError());
  route_pop<<<blocks, threads>>>(even, odd, counters, sums);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  unsigned got[3] = {};
  unsigned long long per_ring[2] = {};
  CUDA_CHECK(cudaMemcpy(got, counters, sizeof got, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(per_ring, sums, sizeof per_ring, cudaMemcpyDeviceToHost));
  unsigned long long expected[2] = {};
  for (std::uint32_t t = 0; t < total; ++t) expected[t % 2] += t;
  EXPECT_EQ(got[0], 0u) << "pushes refused by rings with room";
  EXPECT_EQ(got[1], 0u) << "pops found a ring without its lanes' messages";
  EXPECT_EQ(got[2], 0u) << "a message arrived in the other ring, or corrupted";
  EXPECT_EQ(per_ring[0], expected[0]);
  EXPECT_EQ(per_ring[1], expected[1]);
  cudaFree(counters);
  cudaFree(sums);
}

}  // namespace
