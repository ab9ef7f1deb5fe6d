// Copyright RingKernel authors.
// P2PMessageQueue between two CUDA devices with kernels at both ends (label gpu): a kernel on the
// source device pushes through source_ring(), a kernel on the destination pops from
// destination_ring() (host_staged: both through kernel_ring(), claims at device scope), in each
// transfer mode the pair allows; then a kernel on the source sends to a
// host thread. Every message arrives once and in per-thread order. The ring lives where the mode
// says (cudaPointerGetAttributes), and the host-side count / is_full / statistics / shutdown read
// the ring the kernels worked (in direct_p2p mode: copies of the GPU's control words); a kernel on
// the source reads the close through its own view. Each test skips with the reason when there are
// fewer than two CUDA devices (a P2P queue joins two distinct devices).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "messaging_messages.rk.h"
#include "ringkernel/deadline.h"
#include "ringkernel/device.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/queue/warp_enqueue.h"

#include "cuda_check.h"
#include "queue_device_support.h"

namespace {

using messaging_test::Tagged;
using ringkernel::P2PMessageQueue;
using ringkernel::P2PQueueOptions;
using ringkernel::P2PTransferMode;
using ringkernel::QueueUsers;
using Ring = P2PMessageQueue<Tagged>::ring_type;              // direct_p2p: system-scope claims
using StagedRing = P2PMessageQueue<Tagged>::kernel_ring_type;  // host_staged: device-scope claims
static_assert(StagedRing::index_scope == ringkernel::atomic_scope::device && StagedRing::scope == Ring::scope);

constexpr std::uint32_t threads = 1024, per_thread = 32, capacity = 1024;

// A P2P queue joins two distinct devices.
#define REQUIRE_TWO_CUDA_DEVICES(src, dst)        \
  RINGKERNEL_REQUIRE_CUDA_DEVICES(cuda_devices, 2); \
  const ringkernel::DeviceInfo src = cuda_devices[0]; \
  const ringkernel::DeviceInfo dst = cuda_devices[1]

using queue_device_test::kernel_budget_us;  // the host waits up to 10 s per message

template <class R>
__global__ void send_all(R ring) {
  const std::uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  for (std::uint32_t k = 0; k < per_thread; ++k) {
    while (!ringkernel::warp_push(ring, Tagged{id, 0, k})) {
      if (give_up.passed()) return;
    }
  }
}

// One receiving thread (launched <<<1, 1>>>), so that arrival order is the queue's order: producer
// p's k-th message must find next[p] == k; anything else (out of order, duplicated, unknown
// producer) is counted in `errors`.
template <class R>
__global__ void receive_all(R ring, std::uint32_t* next, unsigned* received, unsigned* errors) {
  const unsigned total = threads * per_thread;
  const auto give_up = ringkernel::deadline::after_us(kernel_budget_us);
  while (*received < total && !give_up.passed()) {
    Tagged t{};
    if (!ringkernel::warp_pop(ring, t)) continue;
    if (t.producer >= threads || next[t.producer] != t.index) {
      ++*errors;
    } else {
      ++next[t.producer];
    }
    ++*received;
  }
}

template <class R>
__global__ void read_closed(R ring, unsigned* closed) { *closed = ring.closed() ? 1u : 0u; }

// One message per thread into a ring with room for all of them (launched with capacity threads).
template <class R>
__global__ void fill(R ring, unsigned* refused) {
  const std::uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  if (!ring.try_push(Tagged{id, 1, 0})) atomicAdd(refused, 1u);
}

// Where the ring's memory is: device memory of the destination for direct_p2p, (pinned) host
// memory for host_staged, whatever transfer_mode() says.
void expect_placement(const P2PMessageQueue<Tagged>& q, const ringkernel::DeviceInfo& dst) {
  cudaPointerAttributes a{};
  CUDA_CHECK(cudaPointerGetAttributes(&a, q.destination_ring().control()));
  if (q.transfer_mode() == P2PTransferMode::direct_p2p) {
    EXPECT_EQ(a.type, cudaMemoryTypeDevice);
    EXPECT_EQ(a.device, dst.ordinal);
    EXPECT_EQ(static_cast<const void*>(q.source_ring().control()), static_cast<const void*>(q.destination_ring().control()))
        << "unified addressing: the peer mapping is the same address";
  } else {
    EXPECT_EQ(a.type, cudaMemoryTypeHost);
  }
}

template <class R>
void kernel_to_kernel_on(P2PMessageQueue<Tagged>& q, const ringkernel::DeviceInfo& src,
                         const ringkernel::DeviceInfo& dst, R source_ring, R destination_ring);

void kernel_to_kernel(P2PTransferMode mode) {
  REQUIRE_TWO_CUDA_DEVICES(src, dst);
  ringkernel::PeerMemory peers;
  if (mode == P2PTransferMode::direct_p2p && !peers.can_access_peer(src.id, dst.id)) {
    GTEST_SKIP() << "devices " << src.id << " and " << dst.id << " have no direct peer access";
  }
  if (mode == P2PTransferMode::direct_p2p && !peers.capability(src.id, dst.id).native_atomics) {
    GTEST_SKIP() << "the link " << src.id << " -> " << dst.id
                 << " has no native atomics (PCIe): kernel producers cannot claim over it";
  }
  P2PMessageQueue<Tagged> q(peers, src.id, dst.id,
                            P2PQueueOptions{.capacity = capacity, .mode = mode, .producers = QueueUsers::kernels,
                                            .consumers = QueueUsers::kernels});
  ASSERT_EQ(q.transfer_mode(), mode);
  if (mode == P2PTransferMode::host_staged) {
    kernel_to_kernel_on(q, src, dst, q.kernel_ring(), q.kernel_ring());
  } else {
    kernel_to_kernel_on(q, src, dst, q.source_ring(), q.destination_ring());
  }
}

// The kernels of kernel_to_kernel on the views of the mode (R: Ring or StagedRing).
template <class R>
void kernel_to_kernel_on(P2PMessageQueue<Tagged>& q, const ringkernel::DeviceInfo& src,
                         const ringkernel::DeviceInfo& dst, R source_ring, R destination_ring) {
  const P2PTransferMode mode = q.transfer_mode();
  // Before q goes (in the caller), also after a failed ASSERT here: the kernels may still spin on it.
  const queue_device_test::KernelsDoneOnExit kernels_done{src.ordinal, dst.ordinal};
  expect_placement(q, dst);
  // direct_p2p: the ring is the destination GPU's memory, which host threads cannot reach.
  EXPECT_EQ(q.host_endpoints(), mode != P2PTransferMode::direct_p2p);
  try {  // both sides are declared for kernels: host calls refuse in either mode
    q.try_send(Tagged{});
    ADD_FAILURE() << "a host thread sent into a queue declared for kernels";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::unsupported) << e.what();
  }

  // The receiver spins until the sender runs: both are loaded before either starts (CUDA_PRELOAD,
  // cuda_check.h), each on its own device, so no lazy load waits for a running kernel.
  CUDA_CHECK(cudaSetDevice(src.ordinal));
  CUDA_PRELOAD(send_all<R>);
  CUDA_CHECK(cudaSetDevice(dst.ordinal));
  CUDA_PRELOAD(receive_all<R>);
  std::uint32_t* next = nullptr;
  unsigned* counters = nullptr;  // [0] received, [1] errors
  CUDA_CHECK(cudaMalloc(&next, threads * sizeof *next));
  CUDA_CHECK(cudaMalloc(&counters, 2 * sizeof *counters));
  CUDA_CHECK(cudaMemset(next, 0, threads * sizeof *next));
  CUDA_CHECK(cudaMemset(counters, 0, 2 * sizeof *counters));
  receive_all<<<1, 1>>>(destination_ring, next, counters, counters + 1);
  CUDA_CHECK(cudaGetLastError());

  CUDA_CHECK(cudaSetDevice(src.ordinal));
  send_all<<<threads / 256, 256>>>(source_ring);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaSetDevice(dst.ordinal));
  CUDA_CHECK(cudaDeviceSynchronize());

  unsigned got[2] = {};
  CUDA_CHECK(cudaMemcpy(got, counters, sizeof got, cudaMemcpyDeviceToHost));
  std::vector<std::uint32_t> last(threads);
  CUDA_CHECK(cudaMemcpy(last.data(), next, threads * sizeof *next, cudaMemcpyDeviceToHost));
  EXPECT_EQ(got[0], threads * per_thread) << queue_device_test::kernel_to_kernel_shortfall(got[0], threads * per_thread);
  EXPECT_EQ(got[1], 0u) << "messages out of per-producer order or duplicated";
  for (std::uint32_t p = 0; p < threads; ++p) ASSERT_EQ(last[p], per_thread) << "producer " << p;
  EXPECT_TRUE(q.is_empty());  // in direct_p2p mode: read back from the GPU's copy of the indices
  const std::uint64_t moved = threads * per_thread;
  auto s = q.statistics();  // from the ring's indices in every mode: kernel traffic counts
  EXPECT_EQ(s.sent, moved);
  EXPECT_EQ(s.received, moved);
  EXPECT_EQ(s.bytes_sent, moved * sizeof(Tagged));

  // A full ring, filled by the source's kernels: the host reads capacity messages queued.
  CUDA_CHECK(cudaSetDevice(src.ordinal));
  unsigned* refused = nullptr;
  CUDA_CHECK(cudaMalloc(&refused, sizeof *refused));
  CUDA_CHECK(cudaMemset(refused, 0, sizeof *refused));
  fill<<<capacity / 256, 256>>>(source_ring, refused);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  unsigned refused_count = 0;
  CUDA_CHECK(cudaMemcpy(&refused_count, refused, sizeof refused_count, cudaMemcpyDeviceToHost));
  EXPECT_EQ(refused_count, 0u);
  EXPECT_EQ(q.count(), capacity);
  EXPECT_TRUE(q.is_full());
  EXPECT_FALSE(q.is_empty());
  s = q.statistics();
  EXPECT_EQ(s.sent, moved + capacity);
  EXPECT_EQ(s.sent, s.received + s.dropped_oldest + s.cleared + q.count()) << "the statistics identity";

  EXPECT_FALSE(q.is_shut_down());
  q.shutdown();  // kernels see the queue closed (in direct_p2p mode: a copy into the GPU's memory)
  EXPECT_TRUE(q.is_shut_down());
  CUDA_CHECK(cudaSetDevice(dst.ordinal));
  read_closed<<<1, 1>>>(destination_ring, counters);
  CUDA_CHECK(cudaGetLastError());
  unsigned closed = 0;
  CUDA_CHECK(cudaMemcpy(&closed, counters, sizeof closed, cudaMemcpyDeviceToHost));
  EXPECT_EQ(closed, 1u);
  // ... and so do the source's kernels, through their own view (the peer mapping in direct_p2p).
  CUDA_CHECK(cudaSetDevice(src.ordinal));
  read_closed<<<1, 1>>>(source_ring, refused);
  CUDA_CHECK(cudaGetLastError());
  closed = 0;
  CUDA_CHECK(cudaMemcpy(&closed, refused, sizeof closed, cudaMemcpyDeviceToHost));
  EXPECT_EQ(closed, 1u) << "a source kernel reading the close";
  cudaFree(refused);
  CUDA_CHECK(cudaSetDevice(dst.ordinal));
  cudaFree(next);
  cudaFree(counters);
}

TEST(P2PQueueDevice, KernelToKernelHostStaged) { kernel_to_kernel(P2PTransferMode::host_staged); }

TEST(P2PQueueDevice, KernelToKernelDirectP2P) { kernel_to_kernel(P2PTransferMode::direct_p2p); }

TEST(P2PQueueDevice, AdaptiveReportsTheModeThePairAllows) {
  REQUIRE_TWO_CUDA_DEVICES(src, dst);
  ringkernel::PeerMemory peers;
  const bool direct = peers.can_access_peer(src.id, dst.id) && peers.capability(src.id, dst.id).native_atomics;
  P2PMessageQueue<Tagged> q(peers, src.id, dst.id,
                            P2PQueueOptions{.capacity = capacity, .producers = QueueUsers::kernels,
                                            .consumers = QueueUsers::kernels});
  EXPECT_EQ(q.transfer_mode(), direct ? P2PTransferMode::direct_p2p : P2PTransferMode::host_staged);
  expect_placement(q, dst);
  EXPECT_EQ(q.direct_p2p_available(), peers.can_access_peer(src.id, dst.id));
  // The defaults let host threads and kernels share both sides: host-staged, which needs
  // host-native atomics on both devices, else construction says what to declare.
  const bool shared = src.has(ringkernel::Capability::host_native_atomics) &&
                      dst.has(ringkernel::Capability::host_native_atomics);
  try {
    P2PMessageQueue<Tagged> defaults(peers, src.id, dst.id, P2PQueueOptions{.capacity = capacity});
    EXPECT_TRUE(shared);
    EXPECT_EQ(defaults.transfer_mode(), P2PTransferMode::host_staged);
  } catch (const ringkernel::Error& e) {
    EXPECT_FALSE(shared) << e.what();
    EXPECT_EQ(e.code(), ringkernel::errc::unsupported) << e.what();
  }
}

TEST(P2PQueueDevice, KernelOnTheSourceToAHostThread) {
  REQUIRE_TWO_CUDA_DEVICES(src, dst);
  REQUIRE_ASYNCHRONOUS_LAUNCHES();  // the kernel waits for this thread
  ringkernel::PeerMemory peers;
  // host_staged: the ring is pinned host memory, so a host thread can be the receiving end.
  P2PMessageQueue<Tagged> q(peers, src.id, dst.id,
                            P2PQueueOptions{.capacity = capacity, .mode = P2PTransferMode::host_staged,
                                            .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  expect_placement(q, dst);
  const queue_device_test::KernelsDoneOnExit kernels_done{src.ordinal};  // before q goes, also after a failed ASSERT
  CUDA_CHECK(cudaSetDevice(src.ordinal));
  send_all<<<threads / 256, 256>>>(q.kernel_ring());
  CUDA_CHECK(cudaGetLastError());
  std::vector<std::uint32_t> next(threads, 0);
  for (std::uint32_t n = 0; n < threads * per_thread; ++n) {
    Tagged t{};
    ASSERT_EQ(q.receive(t, queue_device_test::host_deadline), ringkernel::ReceiveStatus::ok) << "after " << n;
    ASSERT_LT(t.producer, threads);
    ASSERT_EQ(t.index, next[t.producer]++) << "per-thread order";
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace
