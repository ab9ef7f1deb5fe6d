// Copyright RingKernel authors.
// The rings' own calls from single device threads (label gpu; each test skips with the reason when
// there is no CUDA device), which the other gpu tests reach only through the warp calls and the SPSC
// endpoints: mpmc_ring try_push_batch / try_pop_batch / try_peek / close / closed, and spsc_ring
// try_push / try_pop / try_push_batch / try_pop_batch, whose caches of the other side's index live in
// the ring's memory. Kernels run one after the other on one stream and never wait for anything
// (no co-scheduling, so compute-sanitizer runs them too); positions cross 2^64.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "messaging_messages.rk.h"
#include "ringkernel/queue/queue_storage.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/queue/mpmc_ring.h"

#include "cuda_check.h"
#include "queue_device_support.h"

namespace {

using messaging_test::Tagged;
using ringkernel::QueueMemory;
using DeviceRing = ringkernel::mpmc_ring<Tagged, ringkernel::atomic_scope::device>;
using DeviceSpsc = ringkernel::spsc_ring<Tagged, ringkernel::atomic_scope::device>;
using queue_device_test::start_before_wrap;

constexpr std::uint32_t chunk = 4;  // messages per batch call

// Thread t pushes {t, 0, k} for k < per_thread in chunks with try_push_batch (the ring holds them all).
// counters[0]: calls that pushed fewer than asked.
__global__ void push_chunks(DeviceRing ring, std::uint32_t per_thread, unsigned* counters) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  Tagged m[chunk];
  for (std::uint32_t k = 0; k < per_thread; k += chunk) {
    for (std::uint32_t i = 0; i < chunk; ++i) m[i] = Tagged{t, 0, k + i};
    if (ring.try_push_batch(m, chunk) != chunk) atomicAdd(&counters[0], 1u);
  }
}

// The only consumer (<<<1, 1>>>): try_peek returns the message try_pop then takes. counters[1]:
// received, [3]: peek and pop disagreed.
__global__ void peek_then_pop(DeviceRing ring, unsigned* counters, unsigned long long* checksum) {
  Tagged peeked{}, popped{};
  if (!ring.try_peek(peeked) || !ring.try_pop(popped) || peeked.producer != popped.producer ||
      peeked.index != popped.index) {
    ++counters[3];
    return;
  }
  *checksum += popped.producer * 1000003ull + popped.index;
  ++counters[1];
}

// Threads pop chunks until the ring is empty (nothing pushes meanwhile). counters[1]: received,
// [2]: a chunk with one producer's messages out of order.
__global__ void pop_chunks(DeviceRing ring, unsigned* counters, unsigned long long* checksum) {
  Tagged m[chunk];
  for (;;) {
    const std::size_t n = ring.try_pop_batch(m, chunk);
    if (n == 0) return;
    for (std::size_t i = 0; i < n; ++i) {
      atomicAdd(checksum, m[i].producer * 1000003ull + m[i].index);
      for (std::size_t j = i + 1; j < n; ++j) {
        if (m[j].producer == m[i].producer && m[j].index <= m[i].index) atomicAdd(&counters[2], 1u);
      }
    }
    atomicAdd(&counters[1], static_cast<unsigned>(n));
  }
}

__global__ void close_and_read(DeviceRing ring, unsigned* counters) {
  const bool before = ring.closed();
  ring.close();
  counters[4] = (before ? 0u : 1u) + (ring.closed() ? 2u : 0u);  // 3: open, then closed
}

TEST(RingCallsDevice, MpmcBatchesPeekAndCloseFromSingleThreads) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t blocks = 4, threads = 256, per_thread = 16, total = blocks * threads * per_thread,
                          capacity = 16384;
  static_assert(capacity >= total, "the producers must never find the ring full");
  ringkernel::QueueStorage storage(QueueMemory::device, dev, DeviceRing::bytes_for(capacity));
  const DeviceRing ring = ringkernel::initialize_ring<DeviceRing>(storage, capacity, start_before_wrap(total / 2));
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before storage goes, also after a failed ASSERT
  unsigned* counters = nullptr;  // see the kernels
  unsigned long long* checksum = nullptr;
  CUDA_CHECK(cudaMalloc(&counters, 5 * sizeof *counters));
  CUDA_CHECK(cudaMalloc(&checksum, sizeof *checksum));
  CUDA_CHECK(cudaMemset(counters, 0, 5 * sizeof *counters));
  CUDA_CHECK(cudaMemset(checksum, 0, sizeof *checksum));
  push_chunks<<<blocks, threads>>>(ring, per_thread, counters);
  CUDA_CHECK(cudaGetLastError());
  peek_then_pop<<<1, 1>>>(ring, counters, checksum);
  CUDA_CHECK(cudaGetLastError());
  pop_chunks<<<blocks, threads>>>(ring, counters, checksum);
  CUDA_CHECK(cudaGetLastError());
  close_and_read<<<1, 1>>>(ring, counters);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  unsigned got[5] = {};
  unsigned long long sum = 0;
  CUDA_CHECK(cudaMemcpy(got, counters, sizeof got, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&sum, checksum, sizeof sum, cudaMemcpyDeviceToHost));
  unsigned long long expected = 0;
  for (std::uint32_t p = 0; p < blocks * threads; ++p) {
    for (std::uint32_t k = 0; k < per_thread; ++k) expected += p * 1000003ull + k;
  }
  EXPECT_EQ(got[0], 0u) << "try_push_batch fell short on a ring with room";
  EXPECT_EQ(got[1], total);
  EXPECT_EQ(got[2], 0u) << "a batch held one producer's messages out of order";
  EXPECT_EQ(got[3], 0u) << "try_peek did not return the message try_pop took next";
  EXPECT_EQ(sum, expected) << "a message was lost, repeated or corrupted";
  EXPECT_EQ(got[4], 3u) << "closed() before / after close()";
  cudaFree(counters);
  cudaFree(checksum);
}

// One thread is both sides of an SPSC ring of 64 slots: each round pushes a chunk (try_push_batch
// or try_push one by one) and pops one (try_pop_batch or try_pop), the ring never running empty or
// full on the way, until `count` messages went through. out[0]: messages out of order or lost,
// [1]: calls that moved fewer messages than the ring allowed, [2]: messages received.
__global__ void spsc_one_thread(DeviceSpsc ring, std::uint32_t count, unsigned* out) {
  std::uint32_t sent = 0, received = 0;
  Tagged m[chunk];
  for (std::uint32_t round = 0; received < count; ++round) {
    const std::uint32_t n = count - sent < chunk ? count - sent : chunk;
    for (std::uint32_t i = 0; i < n; ++i) m[i] = Tagged{0, 0, sent + i};
    if (round % 2 == 0) {
      if (ring.try_push_batch(m, n) != n) ++out[1];
    } else {
      for (std::uint32_t i = 0; i < n; ++i) out[1] += ring.try_push(m[i]) ? 0u : 1u;
    }
    sent += n;
    const std::uint32_t queued = sent - received;
    const std::uint32_t want = queued < chunk ? queued : chunk;
    std::uint32_t got = 0;
    if (round % 3 == 0) {
      got = static_cast<std::uint32_t>(ring.try_pop_batch(m, want));
    } else {
      while (got < want && ring.try_pop(m[got])) ++got;
    }
    if (got != want) ++out[1];
    for (std::uint32_t i = 0; i < got; ++i) out[0] += m[i].index == received + i ? 0u : 1u;
    received += got;
    if (got == 0) break;  // (a failed pop is counted above; do not spin)
  }
  out[2] = received;
}

TEST(RingCallsDevice, SpscCallsFromOneThreadKeepOrderAcrossLaps) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t capacity = 64, count = 10000;  // many laps
  ringkernel::QueueStorage storage(QueueMemory::device, dev, DeviceSpsc::bytes_for(capacity));
  const DeviceSpsc ring = ringkernel::initialize_ring<DeviceSpsc>(storage, capacity, start_before_wrap(count / 2));
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before storage goes, also after a failed ASSERT
  unsigned* out = nullptr;
  CUDA_CHECK(cudaMalloc(&out, 3 * sizeof *out));
  CUDA_CHECK(cudaMemset(out, 0, 3 * sizeof *out));
  spsc_one_thread<<<1, 1>>>(ring, count, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  unsigned got[3] = {};
  CUDA_CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_EQ(got[0], 0u) << "messages out of order or lost";
  EXPECT_EQ(got[1], 0u) << "a call moved fewer messages than the ring allowed";
  EXPECT_EQ(got[2], count);
  cudaFree(out);
}

}  // namespace
