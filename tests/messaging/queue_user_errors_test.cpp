// Copyright RingKernel authors.
// What the queues' QueueUsers errors tell a user to do: a host-side call on a side declared for
// kernels names the view kernels work that side through (the queue type's, the mode's and the
// memory's: kernel_ring(), ring(), source_ring(), destination_ring()), and kernel_ring() on memory
// kernels cannot reach says so before anything about the sides (following its advice works).
// The host backend models the machines (queue_users_fixture.h).
#include <gtest/gtest.h>

#include <string>

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
using ringkernel::QueueMemory;
using ringkernel::QueueOptions;
using ringkernel::QueueUsers;
using ringkernel::SpscQueue;

/// The error says kernels work the side through exactly `view` (and through nothing else).
void expect_view(const ringkernel::Error& e, const std::string& view) {
  EXPECT_EQ(e.code(), errc::unsupported) << e.what();
  EXPECT_TRUE(mentions(e, "(kernels work that side through " + view + ")")) << e.what();
}

TEST(QueueUserErrors, AHostCallOnAKernelSideOfAQueueNamesTheViewKernelsUse) {
  HostMachine pcie(false);
  const int dev = pcie.ids[0];
  Tagged t{};
  // MpmcQueue in pinned memory, the other side one agent: kernel_ring() (device-scope claims).
  MpmcQueue<Tagged> to_kernels(pinned_on(dev, QueueUsers::host, QueueUsers::kernels));
  const auto receive = error_of([&] { (void)to_kernels.try_receive(t); });
  expect_view(receive, "kernel_ring()");
  EXPECT_EQ(receive.device(), dev);
  EXPECT_NO_THROW((void)to_kernels.kernel_ring()) << "the view named is one the queue hands out";
  MpmcQueue<Tagged> from_kernels(pinned_on(dev, QueueUsers::kernels, QueueUsers::host));
  expect_view(error_of([&] { (void)from_kernels.try_send(Tagged{}); }), "kernel_ring()");
  // SpscQueue has no kernel_ring().
  SpscQueue<Tagged> spsc(pinned_on(dev, QueueUsers::host, QueueUsers::kernels));
  expect_view(error_of([&] { (void)spsc.try_receive(t); }), "ring()");
  // Device memory: ring().
  MpmcQueue<Tagged> in_device(QueueOptions{.capacity = 64, .memory = QueueMemory::device, .device = dev,
                                           .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  expect_view(error_of([&] { (void)in_device.try_send(Tagged{}); }), "ring()");
}

TEST(QueueUserErrors, AnMpmcSideNextToASharedSideNamesRing) {
  HostMachine native(true);  // host_and_kernels is accepted on pinned memory here
  MpmcQueue<Tagged> q(pinned_on(native.ids[1], QueueUsers::kernels, QueueUsers::host_and_kernels));
  const auto e = error_of([&] { (void)q.try_send(Tagged{}); });
  expect_view(e, "ring()");
  EXPECT_EQ(e.device(), native.ids[1]);
  EXPECT_THROW((void)q.kernel_ring(), ringkernel::Error) << "kernel_ring() refuses the shared side";
}

TEST(QueueUserErrors, AHostCallOnAKernelSideOfAP2PQueueNamesItsViewNotRing) {
  ringkernel::PeerMemory peers;
  Tagged t{};
  {
    HostMachine native(true);  // kernel producers over a native link: direct_p2p
    const int src = native.ids[0], dst = native.ids[1];
    P2PMessageQueue<Tagged> q(peers, src, dst,
                              P2PQueueOptions{.capacity = 16, .producers = QueueUsers::kernels,
                                              .consumers = QueueUsers::host});
    ASSERT_EQ(q.transfer_mode(), P2PTransferMode::direct_p2p);
    const auto send = error_of([&] { (void)q.try_send(Tagged{}); });
    EXPECT_EQ(send.call(), "P2PMessageQueue::try_send");
    EXPECT_EQ(send.device(), src);
    expect_view(send, "source_ring() (direct_p2p mode)");
    P2PMessageQueue<Tagged> to_kernels(peers, src, dst,
                                       P2PQueueOptions{.capacity = 16, .producers = QueueUsers::host,
                                                       .consumers = QueueUsers::kernels});
    ASSERT_EQ(to_kernels.transfer_mode(), P2PTransferMode::direct_p2p);
    const auto clear = error_of([&] { (void)to_kernels.clear(); });
    EXPECT_EQ(clear.device(), dst);
    expect_view(clear, "destination_ring() (direct_p2p mode)");
    // host_staged beside a shared side: kernel_ring() refuses it, so the side's own view.
    P2PMessageQueue<Tagged> shared(peers, src, dst,
                                   P2PQueueOptions{.capacity = 16, .mode = P2PTransferMode::host_staged,
                                                   .producers = QueueUsers::host_and_kernels,
                                                   .consumers = QueueUsers::kernels});
    expect_view(error_of([&] { (void)shared.try_receive(t); }), "destination_ring()");
  }
  HostMachine pcie(false);  // no native atomics: adaptive stages the ring in pinned memory
  P2PMessageQueue<Tagged> staged(peers, pcie.ids[0], pcie.ids[1],
                                 P2PQueueOptions{.capacity = 16, .producers = QueueUsers::kernels,
                                                 .consumers = QueueUsers::host});
  ASSERT_EQ(staged.transfer_mode(), P2PTransferMode::host_staged);
  expect_view(error_of([&] { (void)staged.send(Tagged{}); }), "kernel_ring() (host_staged mode)");
  EXPECT_NO_THROW((void)staged.kernel_ring());
}

// kernel_ring() on QueueMemory::host: the memory is the problem, whatever the sides say.
TEST(QueueUserErrors, KernelRingOnHostMemorySaysTheMemoryFirst) {
  HostMachine pcie(false);
  for (const QueueOptions& options :
       {QueueOptions{}, QueueOptions{.producers = QueueUsers::host, .consumers = QueueUsers::host},
        QueueOptions{.producers = QueueUsers::host, .consumers = QueueUsers::host_and_kernels}}) {
    MpmcQueue<Tagged> q(options);
    const auto e = error_of([&] { (void)q.kernel_ring(); });
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
    EXPECT_EQ(e.call(), "BasicMessageQueue::kernel_ring");
    EXPECT_TRUE(mentions(e, "QueueMemory::host")) << e.what();
    EXPECT_TRUE(mentions(e, "kernels cannot reach")) << e.what();
    EXPECT_TRUE(mentions(e, "QueueMemory::pinned")) << e.what();
    EXPECT_FALSE(mentions(e, "use kernel_ring(), or use ring()")) << "no advice about the sides alone: " << e.what();
  }
  // The advice, followed on this PCIe-like machine: pinned memory, one agent per side.
  MpmcQueue<Tagged> advised(pinned_on(pcie.ids[0], QueueUsers::host, QueueUsers::kernels));
  EXPECT_NO_THROW((void)advised.kernel_ring());
}

}  // namespace
