// Copyright RingKernel authors.
// Queues between host threads and CUDA kernels through mapped pinned memory (label gpu; each test
// skips with the reason when there is no CUDA device): host -> device -> host (MPMC rings and SPSC
// endpoints), a warp-aggregated device producer and warp batches to a host consumer. Kernel to
// kernel: test_queue_kernel_to_kernel_device.cu. Tests that call start_before_wrap have their
// positions cross 2^64 halfway through.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "messaging_messages.rk.h"
#include "ringkernel/deadline.h"
#include "ringkernel/device.h"
#include "ringkernel/queue/message_queue.h"
#include "ringkernel/queue/warp_enqueue.h"

#include "cuda_check.h"
#include "queue_device_support.h"

namespace {

using messaging_test::Tagged;
using ringkernel::atomic_scope;
using ringkernel::mpmc_ring;
using ringkernel::QueueMemory;
using ringkernel::QueueOptions;
using ringkernel::QueueUsers;
using ringkernel::ReceiveStatus;

// What MpmcQueue::kernel_ring() hands kernels: claims at device scope (each side's index is
// claimed by this GPU's kernels only), slot words and fences at system scope. A system-scope claim
// on pinned memory is what compute-sanitizer memcheck rejects where the device has no host-native
// atomics (PCIe).
using KernelRing = ringkernel::MpmcQueue<Tagged>::kernel_ring_type;
static_assert(std::is_same_v<KernelRing, mpmc_ring<Tagged, atomic_scope::system, atomic_scope::device>>);
static_assert(!KernelRing::ticketed, "the host is a party: Vyukov claims, never the ticketed ones");
using SpscRing = ringkernel::spsc_ring<Tagged, atomic_scope::system>;

using queue_device_test::full_warp;
using queue_device_test::kernel_budget_us;
using queue_device_test::start_before_wrap;
using queue_device_test::warp_gives_up;

// One thread per message: pop from `in` (spinning), add 1000 to the index, push to `out`.
// Each thread echoes per_thread messages. Few threads, many messages each: every claim is a
// compare-and-swap on a word in host memory, over PCIe, by every thread that saw the slot ready, so
// 4096 threads with one message each would make ~16 M of them (seconds; far more under memcheck).
__global__ void echo(KernelRing in, KernelRing out, std::uint32_t per_thread) {
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (std::uint32_t k = 0; k < per_thread; ++k) {
    Tagged t{};
    while (!in.try_pop(t)) {
      if (give_up.passed()) return;
    }
    t.index += 1000;
    while (!out.try_push(t)) {
      if (give_up.passed()) return;
    }
  }
}

__global__ void produce(KernelRing out, std::uint32_t per_thread) {
  const std::uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (std::uint32_t k = 0; k < per_thread; ++k) {
    const Tagged t{id, 0, k};
    while (!ringkernel::warp_push(out, t)) {
      if (give_up.passed()) return;
    }
  }
}

// A warp's batches arrive at a host consumer in order (the ring is pinned host memory).
__global__ void batch_to_host(KernelRing ring, std::uint32_t batch, std::uint32_t batches) {
  __shared__ Tagged staged[128];
  const std::uint32_t lane = threadIdx.x;
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (std::uint32_t b = 0; b < batches; ++b) {
    for (std::uint32_t i = lane; i < batch; i += 32) staged[i] = Tagged{blockIdx.x, 0, b * batch + i};
    for (std::uint32_t sent = 0; sent < batch;) {  // the calls' __syncwarps order the staging
      if (warp_gives_up(give_up)) return;
      sent += ringkernel::warp_push_batch(full_warp, ring, staged + sent, batch - sent);
    }
  }
}

TEST(QueueDevice, WarpBatchesToAHostConsumerInOrder) {
  REQUIRE_CUDA_DEVICE(dev);
  REQUIRE_ASYNCHRONOUS_LAUNCHES();  // the kernel waits for this thread
  constexpr std::uint32_t producers = 64, batch = 100, batches = 16;
  ringkernel::MpmcQueue<Tagged> q(QueueOptions{.capacity = 512, .memory = QueueMemory::pinned, .device = dev,
                                               .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before q goes, also after a failed ASSERT
  batch_to_host<<<producers, 32>>>(q.kernel_ring(), batch, batches);  // one warp per block
  CUDA_CHECK(cudaGetLastError());
  std::vector<std::uint32_t> next(producers, 0);
  Tagged in[64];
  for (std::uint32_t n = 0; n < producers * batch * batches;) {
    const auto r = q.receive_batch(in, queue_device_test::host_deadline);
    ASSERT_EQ(r.status, ReceiveStatus::ok) << "after " << n;
    for (std::size_t i = 0; i < r.received; ++i) {
      ASSERT_LT(in[i].producer, producers);
      ASSERT_EQ(in[i].index, next[in[i].producer]++) << "per-warp order";
    }
    n += static_cast<std::uint32_t>(r.received);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

// One thread holds the consumer side of `in` and the producer side of `out` as endpoints.
__global__ void spsc_echo(SpscRing in, SpscRing out, std::uint32_t count) {
  auto rx = in.consumer();
  auto tx = out.producer();
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (std::uint32_t i = 0; i < count; ++i) {
    Tagged t{};
    while (!rx.try_pop(t)) {
      if (give_up.passed()) return;
    }
    t.index += 1000;
    while (!tx.try_push(t)) {
      if (give_up.passed()) return;
    }
  }
}

TEST(QueueDevice, SpscEndpointsEchoInOrderThroughMappedMemory) {
  REQUIRE_CUDA_DEVICE(dev);
  REQUIRE_ASYNCHRONOUS_LAUNCHES();  // the kernel waits for this thread
  constexpr std::uint32_t count = 20000;  // many laps of a 64-slot ring
  ringkernel::SpscQueue<Tagged> in(QueueOptions{.capacity = 64, .memory = QueueMemory::pinned, .device = dev,
                                                .start_position = start_before_wrap(count / 2),
                                                .producers = QueueUsers::host, .consumers = QueueUsers::kernels});
  ringkernel::SpscQueue<Tagged> out(QueueOptions{.capacity = 64, .memory = QueueMemory::pinned, .device = dev,
                                                 .start_position = start_before_wrap(count / 2),
                                                 .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before the queues go, also after a failed ASSERT
  spsc_echo<<<1, 1>>>(in.ring(), out.ring(), count);
  CUDA_CHECK(cudaGetLastError());
  std::uint32_t sent = 0, received = 0;
  const auto deadline = std::chrono::steady_clock::now() + queue_device_test::host_deadline;
  while (received < count) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "stuck after " << received << " of " << count;
    if (sent < count && in.try_send(Tagged{0, 0, sent}).ok()) ++sent;
    Tagged t{};
    if (out.try_receive(t) == ReceiveStatus::ok) {
      ASSERT_EQ(t.index, received + 1000) << "order";
      ++received;
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(in.statistics().received, count) << "the kernel's pops moved the shared tail";
  EXPECT_EQ(out.statistics().sent, count);
}

TEST(QueueDevice, HostToDeviceToHostThroughMappedMemory) {
  REQUIRE_CUDA_DEVICE(dev);
  REQUIRE_ASYNCHRONOUS_LAUNCHES();  // the kernel waits for this thread
  constexpr std::uint32_t count = 4096;
  // One agent per side: host-native atomics are not needed (PCIe machines have none).
  ringkernel::MpmcQueue<Tagged> in(QueueOptions{.capacity = 1024, .memory = QueueMemory::pinned, .device = dev,
                                                .producers = QueueUsers::host, .consumers = QueueUsers::kernels});
  ringkernel::MpmcQueue<Tagged> out(QueueOptions{.capacity = 1024, .memory = QueueMemory::pinned, .device = dev,
                                                 .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before the queues go, also after a failed ASSERT
  // 2 warps: contended claims, ~0.25 M compare-and-swaps over PCIe in all (256 threads made ~1 M,
  // about a second on the bus and far more under memcheck, against the kernels' budget).
  constexpr std::uint32_t threads = 64;
  echo<<<1, threads>>>(in.kernel_ring(), out.kernel_ring(), count / threads);
  CUDA_CHECK(cudaGetLastError());
  std::vector<bool> seen(count, false);
  std::uint32_t sent = 0, received = 0;
  const auto deadline = std::chrono::steady_clock::now() + queue_device_test::host_deadline;
  while (received < count) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "stuck after " << received << " of " << count;
    if (sent < count && in.try_send(Tagged{0, 0, sent}).ok()) ++sent;
    Tagged t{};
    if (out.try_receive(t) == ReceiveStatus::ok) {
      ASSERT_GE(t.index, 1000u);
      ASSERT_FALSE(seen[t.index - 1000]);
      seen[t.index - 1000] = true;
      ++received;
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
}

TEST(QueueDevice, WarpAggregatedDeviceProducerToHostConsumer) {
  REQUIRE_CUDA_DEVICE(dev);
  REQUIRE_ASYNCHRONOUS_LAUNCHES();  // the kernel waits for this thread
  constexpr std::uint32_t threads = 2048, per_thread = 16;
  ringkernel::MpmcQueue<Tagged> q(QueueOptions{.capacity = 4096, .memory = QueueMemory::pinned, .device = dev,
                                               .start_position = start_before_wrap(threads * per_thread / 2),
                                               .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  const queue_device_test::KernelsDoneOnExit kernels_done;  // before q goes, also after a failed ASSERT
  produce<<<threads / 256, 256>>>(q.kernel_ring(), per_thread);
  CUDA_CHECK(cudaGetLastError());
  std::vector<std::uint32_t> next(threads, 0);
  for (std::uint32_t n = 0; n < threads * per_thread; ++n) {
    Tagged t{};
    ASSERT_EQ(q.receive(t, queue_device_test::host_deadline), ReceiveStatus::ok) << "after " << n;
    ASSERT_LT(t.producer, threads);
    ASSERT_EQ(t.index, next[t.producer]++) << "per-thread order";
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace
