// Copyright RingKernel authors.
// Queues with CUDA kernels on either side (label gpu; each test skips with the reason when there is
// no CUDA device): host -> device -> host through mapped pinned memory, a warp-aggregated device
// producer to a host consumer, and kernel to kernel on one GPU through device memory.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "messaging_messages.rk.h"
#include "ringkernel/device.h"
#include "ringkernel/queue/message_queue.h"
#include "ringkernel/queue/warp_enqueue.h"

namespace {

using messaging_test::Tagged;
using ringkernel::atomic_scope;
using ringkernel::mpmc_ring;
using ringkernel::QueueMemory;
using ringkernel::QueueOptions;
using ringkernel::QueueUsers;
using ringkernel::ReceiveStatus;

using SystemRing = mpmc_ring<Tagged, atomic_scope::system>;
using DeviceRing = mpmc_ring<Tagged, atomic_scope::device>;

int cuda_device_or_skip() {
  const auto cuda = ringkernel::devices(ringkernel::Backend::cuda);
  return cuda.empty() ? -1 : cuda.front().id;
}
#define REQUIRE_CUDA_DEVICE(id)                                                     \
  const int id = cuda_device_or_skip();                                             \
  if (id < 0) GTEST_SKIP() << "no CUDA device (ringkernel::devices(Backend::cuda) is empty)"

void check(cudaError_t e) { ASSERT_EQ(e, cudaSuccess) << cudaGetErrorName(e) << ": " << cudaGetErrorString(e); }

// One thread per message: pop from `in` (spinning), add 1000 to the index, push to `out`.
__global__ void echo(SystemRing in, SystemRing out, std::uint32_t count) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  Tagged t{};
  while (!in.try_pop(t)) {
  }
  t.index += 1000;
  while (!out.try_push(t)) {
  }
}

__global__ void produce(SystemRing out, std::uint32_t per_thread) {
  const std::uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  for (std::uint32_t k = 0; k < per_thread; ++k) {
    const Tagged t{id, 0, k};
    while (!ringkernel::warp_push(out, t)) {
    }
  }
}

__global__ void k2k_produce(DeviceRing ring, std::uint32_t per_thread) {
  const std::uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  for (std::uint32_t k = 0; k < per_thread; ++k) {
    while (!ringkernel::warp_push(ring, Tagged{id, 0, k})) {
    }
  }
}

__global__ void k2k_consume(DeviceRing ring, std::uint32_t total, unsigned long long* checksum, unsigned* received) {
  for (;;) {
    if (atomicAdd(received, 0u) >= total) return;
    Tagged t{};
    if (ringkernel::warp_pop(ring, t)) {
      atomicAdd(checksum, static_cast<unsigned long long>(t.producer) * 1000003ull + t.index);
      atomicAdd(received, 1u);
    }
  }
}

TEST(QueueDevice, HostToDeviceToHostThroughMappedMemory) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t count = 4096;
  // One agent per side: host-native atomics are not needed (PCIe machines have none).
  ringkernel::MpmcQueue<Tagged> in(QueueOptions{.capacity = 1024, .memory = QueueMemory::pinned, .device = dev,
                                                .producers = QueueUsers::host, .consumers = QueueUsers::kernels});
  ringkernel::MpmcQueue<Tagged> out(QueueOptions{.capacity = 1024, .memory = QueueMemory::pinned, .device = dev,
                                                 .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  echo<<<count / 128, 128>>>(in.ring(), out.ring(), count);
  check(cudaGetLastError());
  std::vector<bool> seen(count, false);
  std::uint32_t sent = 0, received = 0;
  while (received < count) {
    if (sent < count && in.try_send(Tagged{0, 0, sent}).ok()) ++sent;
    Tagged t{};
    if (out.try_receive(t) == ReceiveStatus::ok) {
      ASSERT_GE(t.index, 1000u);
      ASSERT_FALSE(seen[t.index - 1000]);
      seen[t.index - 1000] = true;
      ++received;
    }
  }
  check(cudaDeviceSynchronize());
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
}

TEST(QueueDevice, WarpAggregatedDeviceProducerToHostConsumer) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t threads = 2048, per_thread = 16;
  ringkernel::MpmcQueue<Tagged> q(QueueOptions{.capacity = 4096, .memory = QueueMemory::pinned, .device = dev,
                                               .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  produce<<<threads / 256, 256>>>(q.ring(), per_thread);
  check(cudaGetLastError());
  std::vector<std::uint32_t> next(threads, 0);
  for (std::uint32_t n = 0; n < threads * per_thread; ++n) {
    Tagged t{};
    ASSERT_EQ(q.receive(t, std::chrono::seconds(10)), ReceiveStatus::ok) << "after " << n;
    ASSERT_LT(t.producer, threads);
    ASSERT_EQ(t.index, next[t.producer]++) << "per-thread order";
  }
  check(cudaDeviceSynchronize());
}

TEST(QueueDevice, KernelToKernelOnOneGpu) {
  REQUIRE_CUDA_DEVICE(dev);
  constexpr std::uint32_t threads = 1024, per_thread = 64, capacity = 1024;
  ringkernel::QueueStorage storage(QueueMemory::device, dev, DeviceRing::bytes_for(capacity));
  const DeviceRing ring = ringkernel::initialize_ring<DeviceRing>(storage, capacity);
  unsigned long long* checksum = nullptr;
  unsigned* received = nullptr;
  check(cudaMalloc(&checksum, sizeof *checksum));
  check(cudaMalloc(&received, sizeof *received));
  check(cudaMemset(checksum, 0, sizeof *checksum));
  check(cudaMemset(received, 0, sizeof *received));
  cudaStream_t a, b;
  check(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  check(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  k2k_consume<<<4, 256, 0, b>>>(ring, threads * per_thread, checksum, received);
  k2k_produce<<<threads / 256, 256, 0, a>>>(ring, per_thread);
  check(cudaGetLastError());
  check(cudaDeviceSynchronize());
  unsigned long long got = 0;
  check(cudaMemcpy(&got, checksum, sizeof got, cudaMemcpyDeviceToHost));
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
