// Copyright RingKernel authors.
// Kernel to kernel on one GPU through a queue in device memory (label gpu; each test skips with the
// reason when there is no CUDA device): single-message warp_push / warp_pop and warp batches, with
// producer and consumer kernels running at once (their consumers wait for the producers), and the
// same device code one kernel after the other (no co-scheduling needed, so compute-sanitizer's
// sanitize step keeps it). Tests that call start_before_wrap have their positions cross 2^64
// halfway through.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

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
using queue_device_test::start_before_wrap;
using queue_device_test::warp_gives_up;

__global__ void k2k_produce(DeviceRing ring, std::uint32_t per_thread) {
  const std::uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (std::uint32_t k = 0; k < per_thread; ++k) {
    while (!ringkernel::warp_push(ring, Tagged{id, 0, k})) {
      if (give_up.passed()) return;
    }
  }
}

__global__ void k2k_consume(DeviceRing ring, std::uint32_t total, unsigned long long* checksum, unsigned* received) {
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (;;) {
    if (atomicAdd(received, 0u) >= total || give_up.passed()) return;
    Tagged t{};
    if (ringkernel::warp_pop(ring, t)) {
      atomicAdd(checksum, static_cast<unsigned long long>(t.producer) * 1000003ull + t.index);
      atomicAdd(received, 1u);
    }
  }
}

// Each warp pushes `batches` arrays of `batch` messages {warp, 0, k} with warp_push_batch.
__global__ void batch_produce(DeviceRing ring, std::uint32_t batch, std::uint32_t batches, std::uint32_t* refused) {
  __shared__ Tagged staged[8][256];  // one array per warp of the block (blockDim <= 256, batch <= 256)
  const std::uint32_t warp_in_block = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::uint32_t warp = blockIdx.x * (blockDim.x / 32) + warp_in_block;
  Tagged* mine = staged[warp_in_block];
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (std::uint32_t b = 0; b < batches; ++b) {
    // Staged by all lanes; warp_push_batch's entry __syncwarp makes them visible to the lane that
    // copies each, and its exit __syncwarp lets the next batch overwrite them.
    for (std::uint32_t i = lane; i < batch; i += 32) mine[i] = Tagged{warp, 0, b * batch + i};
    std::uint32_t sent = 0;
    while (sent < batch) {
      if (warp_gives_up(give_up)) return;
      const unsigned n = ringkernel::warp_push_batch(full_warp, ring, mine + sent, batch - sent);
      if (n == 0 && lane == 0) atomicAdd(refused, 1u);  // the ring was full: try again
      sent += n;
    }
  }
}

// Consumer warps pop up to 64 at a time until `total` messages arrived. Order is checked where it
// is defined: within one batch (a run of consecutive positions), one producer's messages must come
// in increasing index order.
__global__ void batch_consume(DeviceRing ring, std::uint32_t total, unsigned* received, unsigned long long* checksum,
                              unsigned* errors) {
  __shared__ Tagged got[8][64];
  Tagged* mine = got[threadIdx.x / 32];
  const std::uint32_t lane = threadIdx.x % 32;
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (;;) {
    unsigned seen = 0;
    if (lane == 0) seen = atomicAdd(received, 0u);
    if (__shfl_sync(full_warp, seen, 0) >= total || warp_gives_up(give_up)) return;
    // The entry __syncwarp orders the last round's reads of `mine` before this batch's writes; the
    // exit one makes every lane's share visible to all.
    const unsigned n = ringkernel::warp_pop_batch(full_warp, ring, mine, 64);
    for (unsigned i = lane; i < n; i += 32) {
      atomicAdd(checksum, static_cast<unsigned long long>(mine[i].producer) * 1000003ull + mine[i].index);
      // Within one batch, messages of one producer come in increasing index order.
      for (unsigned j = i + 1; j < n; ++j) {
        if (mine[j].producer == mine[i].producer && mine[j].index <= mine[i].index) atomicAdd(errors, 1u);
      }
    }
    if (lane == 0 && n != 0) atomicAdd(received, n);
  }
}

TEST(KernelToKernelDevice, WarpBatches) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t blocks = 16, threads = 256, warps = blocks * threads / 32, batch = 200, batches = 8,
                          capacity = 1024;
  constexpr std::uint32_t total = warps * batch * batches;
  ringkernel::QueueStorage storage(QueueMemory::device, dev, DeviceRing::bytes_for(capacity));
  const DeviceRing ring = ringkernel::initialize_ring<DeviceRing>(storage, capacity, start_before_wrap(total / 2));
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before storage goes, also after a failed ASSERT
  unsigned* counters = nullptr;  // [0] received, [1] errors, [2] refused claims
  unsigned long long* checksum = nullptr;
  CUDA_CHECK(cudaMalloc(&counters, 3 * sizeof *counters));
  CUDA_CHECK(cudaMalloc(&checksum, sizeof *checksum));
  CUDA_CHECK(cudaMemset(counters, 0, 3 * sizeof *counters));
  CUDA_CHECK(cudaMemset(checksum, 0, sizeof *checksum));
  CUDA_CHECK(cudaDeviceSynchronize());  // cudaMemset may return first; streams a and b would not wait for it
  cudaStream_t a, b;
  CUDA_CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  CUDA_PRELOAD(batch_consume);  // the consumer spins until the producer runs: no lazy load between
  CUDA_PRELOAD(batch_produce);
  batch_consume<<<4, 256, 0, b>>>(ring, total, counters, checksum, counters + 1);
  batch_produce<<<blocks, threads, 0, a>>>(ring, batch, batches, counters + 2);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  unsigned got[3] = {};
  unsigned long long sum = 0;
  CUDA_CHECK(cudaMemcpy(got, counters, sizeof got, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&sum, checksum, sizeof sum, cudaMemcpyDeviceToHost));
  unsigned long long expected = 0;
  for (std::uint32_t w = 0; w < warps; ++w) {
    for (std::uint32_t k = 0; k < batch * batches; ++k) expected += static_cast<unsigned long long>(w) * 1000003ull + k;
  }
  EXPECT_EQ(got[0], total) << queue_device_test::kernel_to_kernel_shortfall(got[0], total);
  EXPECT_EQ(got[1], 0u) << "a batch held one producer's messages out of order";
  EXPECT_EQ(sum, expected) << "a message was lost or repeated";
  std::printf("warp batches: %u claims found the ring full (capacity %u)\n", got[2], capacity);
  cudaFree(counters);
  cudaFree(checksum);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// The device code of WarpBatches and SingleMessagesOnOneGpu, one kernel after the other on one
// stream, in a ring that holds every message: nothing waits for a concurrent kernel (gpu-kit/run.sh's
// sanitize step, which leaves those two out, keeps this one).
TEST(KernelToKernelDevice, WarpOperationsOneKernelAfterTheOther) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t blocks = 4, threads = 256, warps = blocks * threads / 32, batch = 200, batches = 4,
                          batched = warps * batch * batches, singles_per_thread = 16,
                          singles = blocks * threads * singles_per_thread, capacity = 32768;
  static_assert(capacity >= batched && capacity >= singles, "producers must never find the ring full");
  ringkernel::QueueStorage storage(QueueMemory::device, dev, DeviceRing::bytes_for(capacity));
  const DeviceRing ring = ringkernel::initialize_ring<DeviceRing>(storage, capacity);
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before storage goes, also after a failed ASSERT
  unsigned* counters = nullptr;  // [0] batched received, [1] order errors, [2] full rings, [3] singles received
  unsigned long long* checksums = nullptr;  // [0] batched, [1] singles
  CUDA_CHECK(cudaMalloc(&counters, 4 * sizeof *counters));
  CUDA_CHECK(cudaMalloc(&checksums, 2 * sizeof *checksums));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_CHECK(cudaMemsetAsync(counters, 0, 4 * sizeof *counters, s));  // on s: the kernels wait for it
  CUDA_CHECK(cudaMemsetAsync(checksums, 0, 2 * sizeof *checksums, s));
  batch_produce<<<blocks, threads, 0, s>>>(ring, batch, batches, counters + 2);
  CUDA_CHECK(cudaGetLastError());
  batch_consume<<<blocks, threads, 0, s>>>(ring, batched, counters, checksums, counters + 1);
  CUDA_CHECK(cudaGetLastError());
  k2k_produce<<<blocks, threads, 0, s>>>(ring, singles_per_thread);  // the ring is empty again
  CUDA_CHECK(cudaGetLastError());
  k2k_consume<<<blocks, threads, 0, s>>>(ring, singles, checksums + 1, counters + 3);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(s));
  unsigned got[4] = {};
  unsigned long long sums[2] = {};
  CUDA_CHECK(cudaMemcpy(got, counters, sizeof got, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(sums, checksums, sizeof sums, cudaMemcpyDeviceToHost));
  unsigned long long expected_batched = 0, expected_singles = 0;
  for (std::uint32_t w = 0; w < warps; ++w) {
    for (std::uint32_t k = 0; k < batch * batches; ++k) expected_batched += w * 1000003ull + k;
  }
  for (std::uint32_t p = 0; p < blocks * threads; ++p) {
    for (std::uint32_t k = 0; k < singles_per_thread; ++k) expected_singles += p * 1000003ull + k;
  }
  EXPECT_EQ(got[0], batched);
  EXPECT_EQ(got[1], 0u) << "a batch held one producer's messages out of order";
  EXPECT_EQ(got[2], 0u) << "a warp_push_batch found a ring with room for every message full";
  EXPECT_EQ(sums[0], expected_batched) << "warp batches: a message was lost or repeated";
  EXPECT_EQ(got[3], singles);
  EXPECT_EQ(sums[1], expected_singles) << "warp_push / warp_pop: a message was lost or repeated";
  cudaFree(counters);
  cudaFree(checksums);
  cudaStreamDestroy(s);
}

TEST(KernelToKernelDevice, SingleMessagesOnOneGpu) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t threads = 1024, per_thread = 64, capacity = 1024;
  ringkernel::QueueStorage storage(QueueMemory::device, dev, DeviceRing::bytes_for(capacity));
  const DeviceRing ring =
      ringkernel::initialize_ring<DeviceRing>(storage, capacity, start_before_wrap(threads * per_thread / 2));
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before storage goes, also after a failed ASSERT
  unsigned long long* checksum = nullptr;
  unsigned* received = nullptr;
  CUDA_CHECK(cudaMalloc(&checksum, sizeof *checksum));
  CUDA_CHECK(cudaMalloc(&received, sizeof *received));
  CUDA_CHECK(cudaMemset(checksum, 0, sizeof *checksum));
  CUDA_CHECK(cudaMemset(received, 0, sizeof *received));
  CUDA_CHECK(cudaDeviceSynchronize());  // cudaMemset may return first; streams a and b would not wait for it
  cudaStream_t a, b;
  CUDA_CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  CUDA_PRELOAD(k2k_consume);  // the consumer spins until the producer runs: no lazy load between
  CUDA_PRELOAD(k2k_produce);
  k2k_consume<<<4, 256, 0, b>>>(ring, threads * per_thread, checksum, received);
  k2k_produce<<<threads / 256, 256, 0, a>>>(ring, per_thread);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  unsigned long long got = 0;
  unsigned n = 0;
  CUDA_CHECK(cudaMemcpy(&got, checksum, sizeof got, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&n, received, sizeof n, cudaMemcpyDeviceToHost));
  EXPECT_EQ(n, threads * per_thread) << queue_device_test::kernel_to_kernel_shortfall(n, threads * per_thread);
  unsigned long long expected = 0;
  for (std::uint32_t p = 0; p < threads; ++p) {
    for (std::uint32_t k = 0; k < per_thread; ++k) expected += static_cast<unsigned long long>(p) * 1000003ull + k;
  }
  EXPECT_EQ(got, expected);
  cudaFree(checksum);
  cudaFree(received);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

}  // namespace
