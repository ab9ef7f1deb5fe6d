// Copyright RingKernel authors.
// kernel_ring() (MpmcQueue, P2PMessageQueue in host_staged mode): the queue's ring with claims at
// device scope, for sides that one GPU's kernels (or host threads) work alone; refused where a side
// is shared by host threads and kernels, where no side has kernels, and in direct_p2p mode. The host
// backend models the machines (queue_users_fixture.h); host threads play the kernels (host code
// ignores scope).
#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

#include "error_capture.h"
#include "messaging_messages.rk.h"
#include "queue_users_fixture.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using messaging_test::error_of;
using messaging_test::HostMachine;
using messaging_test::mentions;
using messaging_test::pinned_on;
using messaging_test::Tagged;
using ringkernel::errc;
using ringkernel::MpmcQueue;
using ringkernel::P2PMessageQueue;
using ringkernel::P2PQueueOptions;
using ringkernel::P2PTransferMode;
using ringkernel::QueueUsers;
using ringkernel::ReceiveStatus;

template <class Queue>
constexpr bool has_kernel_ring = requires(const Queue& q) { q.kernel_ring(); };

// kernel_ring(): the same ring with claims at device scope, for sides that one GPU's kernels (or
// host threads) work alone. Host code ignores scope: here host threads play the kernels.
TEST(QueueUsers, KernelRingIsTheSameRingWithDeviceScopeClaims) {
  HostMachine pcie(false);
  const int dev = pcie.ids[0];
  using KernelRing = MpmcQueue<Tagged>::kernel_ring_type;
  static_assert(std::is_same_v<KernelRing, ringkernel::mpmc_ring<Tagged, ringkernel::atomic_scope::system,
                                                                 ringkernel::atomic_scope::device>>);
  static_assert(KernelRing::index_scope == ringkernel::atomic_scope::device);
  static_assert(KernelRing::scope == ringkernel::atomic_scope::system && !KernelRing::ticketed);
  static_assert(has_kernel_ring<MpmcQueue<Tagged>> && !has_kernel_ring<ringkernel::SpscQueue<Tagged>>, "MpmcQueue only");
  MpmcQueue<Tagged> in(pinned_on(dev, QueueUsers::host, QueueUsers::kernels));
  MpmcQueue<Tagged> out(pinned_on(dev, QueueUsers::kernels, QueueUsers::host));
  EXPECT_EQ(in.kernel_ring().control(), in.ring().control());
  EXPECT_EQ(in.kernel_ring().capacity(), in.capacity());
  constexpr std::uint32_t count = 3000, echoes = 2;  // many laps of 64 slots, two claimers per side
  std::vector<std::thread> kernels;
  for (std::uint32_t k = 0; k < echoes; ++k) {
    kernels.emplace_back([rx = in.kernel_ring(), tx = out.kernel_ring()]() mutable {
      for (std::uint32_t i = 0; i < count / echoes; ++i) {
        Tagged t{};
        while (!rx.try_pop(t)) {
        }
        t.index += 1000;
        while (!tx.try_push(t)) {
        }
      }
    });
  }
  std::vector<bool> seen(count, false);
  std::uint32_t sent = 0;
  for (std::uint32_t received = 0; received < count;) {
    if (sent < count && in.try_send(Tagged{0, 0, sent}).ok()) ++sent;
    Tagged t{};
    if (out.try_receive(t) == ReceiveStatus::ok) {  // EXPECT, not ASSERT: returning would leave the echoes spinning
      const bool echoed = t.index >= 1000u && t.index - 1000u < count;
      EXPECT_TRUE(echoed) << t.index;
      if (echoed) {
        EXPECT_FALSE(seen[t.index - 1000]) << "twice";
        seen[t.index - 1000] = true;
      }
      ++received;
    }
  }
  for (auto& k : kernels) k.join();
  EXPECT_EQ(in.statistics().received, count) << "the kernels' pops moved the queue's tail";
  EXPECT_EQ(out.statistics().sent, count);
}

TEST(QueueUsers, KernelRingIsRefusedWhereHostThreadsClaimTooOrNoKernelsWork) {
  HostMachine native(true);  // host_and_kernels sides are accepted on pinned memory here
  const int dev = native.ids[1];
  MpmcQueue<Tagged> shared(pinned_on(dev, QueueUsers::kernels, QueueUsers::host_and_kernels));
  const auto e = error_of([&] { (void)shared.kernel_ring(); });
  EXPECT_EQ(e.code(), errc::unsupported);
  EXPECT_EQ(e.call(), "BasicMessageQueue::kernel_ring");
  EXPECT_EQ(e.device(), dev);
  EXPECT_TRUE(mentions(e, "consumers = QueueUsers::host_and_kernels")) << e.what();
  EXPECT_TRUE(mentions(e, "must be system scope")) << e.what();
  EXPECT_NO_THROW((void)shared.ring()) << "ring() stays the view for shared sides";
  // The defaults on ordinary host memory: the memory is refused first (kernels cannot reach it;
  // queue_user_errors_test.cpp), before the shared sides.
  EXPECT_EQ(error_of([] { (void)MpmcQueue<Tagged>().kernel_ring(); }).code(), errc::invalid_argument);
  const auto host_only = error_of([&] { (void)MpmcQueue<Tagged>(pinned_on(dev, QueueUsers::host, QueueUsers::host)).kernel_ring(); });
  EXPECT_EQ(host_only.code(), errc::invalid_argument);
  EXPECT_TRUE(mentions(host_only, "no side is declared for kernels")) << host_only.what();
  EXPECT_NO_THROW((void)MpmcQueue<Tagged>(pinned_on(dev, QueueUsers::kernels, QueueUsers::kernels)).kernel_ring());
}

// P2P: host_staged hands kernels the device-scope view (each index is one device's); direct_p2p
// does not (the source's claims cross the link: system scope, native peer atomics).
TEST(QueueUsers, P2PKernelRingOnlyHostStaged) {
  HostMachine pcie(false);
  const int src = pcie.ids[0], dst = pcie.ids[1];
  ringkernel::PeerMemory peers;
  P2PMessageQueue<Tagged> staged(peers, src, dst,
                                 P2PQueueOptions{.capacity = 16, .producers = QueueUsers::kernels,
                                                 .consumers = QueueUsers::host});
  ASSERT_EQ(staged.transfer_mode(), P2PTransferMode::host_staged);
  auto ring = staged.kernel_ring();
  static_assert(std::is_same_v<decltype(ring), MpmcQueue<Tagged>::kernel_ring_type>);
  EXPECT_EQ(ring.control(), staged.source_ring().control());
  ASSERT_TRUE(ring.try_push(Tagged{1, 0, 9}));
  Tagged t{};
  ASSERT_EQ(staged.try_receive(t), ReceiveStatus::ok);
  EXPECT_EQ(t.index, 9u);
  P2PMessageQueue<Tagged> direct(peers, src, dst,
                                 P2PQueueOptions{.capacity = 16, .producers = QueueUsers::host,
                                                 .consumers = QueueUsers::host});
  ASSERT_EQ(direct.transfer_mode(), P2PTransferMode::direct_p2p);
  const auto d = error_of([&] { (void)direct.kernel_ring(); });
  EXPECT_EQ(d.code(), errc::unsupported);
  EXPECT_EQ(d.call(), "P2PMessageQueue::kernel_ring");
  EXPECT_TRUE(mentions(d, "direct_p2p mode")) << d.what();
  P2PMessageQueue<Tagged> host_only(peers, src, dst,
                                    P2PQueueOptions{.capacity = 16, .mode = P2PTransferMode::host_staged,
                                                    .producers = QueueUsers::host, .consumers = QueueUsers::host});
  const auto h = error_of([&] { (void)host_only.kernel_ring(); });
  EXPECT_EQ(h.code(), errc::invalid_argument);
  EXPECT_EQ(h.call(), "P2PMessageQueue::kernel_ring");
  EXPECT_TRUE(mentions(h, "no side is declared for kernels")) << h.what();
}

TEST(QueueUsers, P2PKernelRingRefusesASharedSide) {
  HostMachine native(true);
  ringkernel::PeerMemory peers;
  P2PMessageQueue<Tagged> q(peers, native.ids[0], native.ids[1],
                            P2PQueueOptions{.capacity = 16, .mode = P2PTransferMode::host_staged,
                                            .producers = QueueUsers::host_and_kernels,
                                            .consumers = QueueUsers::kernels});
  const auto e = error_of([&] { (void)q.kernel_ring(); });
  EXPECT_EQ(e.code(), errc::unsupported);
  EXPECT_EQ(e.call(), "P2PMessageQueue::kernel_ring");
  EXPECT_EQ(e.device(), native.ids[0]) << "the producers' side is the source's";
  EXPECT_TRUE(mentions(e, "producers = QueueUsers::host_and_kernels")) << e.what();
}

}  // namespace
