// Copyright RingKernel authors.
// QueueUsers: a queue refuses at construction what its memory cannot serve (host threads and
// kernels claiming one MPMC side in pinned memory without host-native atomics; kernel producers
// over a peer link without native atomics) and refuses host-side calls on a side declared for
// kernels. The host backend models a PCIe machine with HostBackendConfig::native_atomics = false;
// "kernels" are threads working ring() / source_ring() / destination_ring() directly (kernel_ring():
// kernel_ring_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "error_capture.h"
#include "messaging_messages.rk.h"
#include "queue_users_fixture.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using messaging_test::Tagged;
using ringkernel::errc;
using ringkernel::FullPolicy;
using ringkernel::MpmcQueue;
using ringkernel::P2PMessageQueue;
using ringkernel::P2PQueueOptions;
using ringkernel::P2PTransferMode;
using ringkernel::QueueMemory;
using ringkernel::QueueOptions;
using ringkernel::QueueUsers;
using ringkernel::ReceiveStatus;


using messaging_test::error_of;
using messaging_test::HostMachine;
using messaging_test::mentions;
using messaging_test::pinned_on;


TEST(QueueUsers, MpmcSideSharedByHostAndKernelsNeedsHostNativeAtomics) {
  HostMachine pcie(false);
  const int dev = pcie.ids[0];
  ASSERT_FALSE(ringkernel::device(dev).has(ringkernel::Capability::host_native_atomics));
  // The defaults declare both sides host_and_kernels: not servable here, and the error says what to declare.
  const auto e = error_of([&] { MpmcQueue<Tagged> q(QueueOptions{.memory = QueueMemory::pinned, .device = dev}); });
  EXPECT_EQ(e.code(), errc::unsupported);
  EXPECT_EQ(e.device(), dev);
  EXPECT_TRUE(mentions(e, "producers = QueueUsers::host_and_kernels")) << e.what();
  EXPECT_TRUE(mentions(e, "no host-native atomics")) << e.what();
  EXPECT_TRUE(mentions(e, "QueueUsers::host or QueueUsers::kernels")) << e.what();
  const auto c = error_of([&] {
    MpmcQueue<Tagged> q(pinned_on(dev, QueueUsers::host, QueueUsers::host_and_kernels));
  });
  EXPECT_TRUE(mentions(c, "consumers = QueueUsers::host_and_kernels")) << c.what();
  // One agent per side is servable anywhere; SPSC sides never claim, so any declaration is.
  EXPECT_NO_THROW(MpmcQueue<Tagged>(pinned_on(dev, QueueUsers::host, QueueUsers::kernels)));
  EXPECT_NO_THROW(MpmcQueue<Tagged>(pinned_on(dev, QueueUsers::kernels, QueueUsers::host)));
  EXPECT_NO_THROW(ringkernel::SpscQueue<Tagged>(QueueOptions{.memory = QueueMemory::pinned, .device = dev}));
}

// A side whose kernels run on another device than the one that pinned the ring (a host-staged P2P
// queue's source) is checked against its own device, and named in the errors about it.
TEST(QueueUsers, ASidesOwnDeviceIsTheOneChecked) {
  HostMachine pcie(false);
  const int pinned_by = pcie.ids[0];
  const int source = pcie.ids[1];
  QueueOptions o = pinned_on(pinned_by, QueueUsers::host_and_kernels, QueueUsers::kernels);
  o.producer_device = source;
  const auto e = error_of([&] { MpmcQueue<Tagged> q(o); });
  EXPECT_EQ(e.code(), errc::unsupported);
  EXPECT_EQ(e.device(), source);
  EXPECT_TRUE(mentions(e, "but device " + std::to_string(source))) << e.what();
  // The consumers stay on `device`; a host-side call on a kernel-only side names the side's device.
  QueueOptions to_kernels = pinned_on(pinned_by, QueueUsers::kernels, QueueUsers::host);
  to_kernels.producer_device = source;
  MpmcQueue<Tagged> q(to_kernels);
  EXPECT_EQ(ringkernel::producer_device_of(q.options()), source);
  EXPECT_EQ(ringkernel::consumer_device_of(q.options()), pinned_by);
  EXPECT_EQ(error_of([&] { (void)q.try_send(Tagged{0, 0, 1}); }).device(), source);
  o.producers = QueueUsers::host;
  o.consumers = QueueUsers::kernels;
  o.producer_device = -1;
  o.consumer_device = source;
  EXPECT_NO_THROW(MpmcQueue<Tagged>{o});
}

TEST(QueueUsers, ASidesOwnDeviceMustBeAValidDeviceAndOnlyForPinnedMemory) {
  HostMachine machine(true);
  const auto invalid = error_of([&] {
    QueueOptions o = pinned_on(machine.ids[0], QueueUsers::kernels, QueueUsers::host);
    o.producer_device = 1000;
    MpmcQueue<Tagged> q(o);
  });
  EXPECT_EQ(invalid.code(), errc::invalid_device);
  EXPECT_EQ(invalid.call(), "BasicMessageQueue");
  EXPECT_TRUE(mentions(invalid, "QueueOptions::producer_device")) << invalid.what();
  for (const QueueMemory memory : {QueueMemory::host, QueueMemory::device}) {
    const auto e = error_of([&] {
      MpmcQueue<Tagged> q(QueueOptions{.capacity = 64, .memory = memory, .device = machine.ids[0],
                                       .consumer_device = machine.ids[1]});
    });
    EXPECT_EQ(e.code(), errc::invalid_argument) << ringkernel::to_string(memory);
    EXPECT_TRUE(mentions(e, "QueueOptions::consumer_device")) << e.what();
    EXPECT_TRUE(mentions(e, "P2PMessageQueue")) << e.what();
  }
  // Naming `device` itself is the same as naming none.
  EXPECT_NO_THROW(MpmcQueue<Tagged>(QueueOptions{.capacity = 64, .memory = QueueMemory::host,
                                                 .producer_device = -1, .consumer_device = -1}));
  EXPECT_NO_THROW(MpmcQueue<Tagged>(QueueOptions{.capacity = 64, .memory = QueueMemory::pinned, .device = machine.ids[0],
                                                 .producer_device = machine.ids[0]}));
}

TEST(QueueUsers, WithHostNativeAtomicsBothMaySharePinnedSides) {
  HostMachine native(true);
  MpmcQueue<Tagged> q(QueueOptions{.capacity = 64, .memory = QueueMemory::pinned, .device = native.ids[0]});
  ASSERT_TRUE(q.try_send(Tagged{1, 0, 1}).ok());
  auto ring = q.ring();  // the "kernel" side: the same ring, claimed alongside the host
  ASSERT_TRUE(ring.try_push(Tagged{2, 0, 2}));
  Tagged t{};
  ASSERT_TRUE(ring.try_pop(t));
  EXPECT_EQ(t.index, 1u);
  ASSERT_EQ(q.try_receive(t), ReceiveStatus::ok);
  EXPECT_EQ(t.index, 2u);
}

TEST(QueueUsers, HostCallsOnAKernelSideAreRefusedAndNothingMoves) {
  HostMachine pcie(false);
  const int dev = pcie.ids[0];
  MpmcQueue<Tagged> to_kernels(pinned_on(dev, QueueUsers::host, QueueUsers::kernels));
  ASSERT_TRUE(to_kernels.try_send(Tagged{0, 0, 7}).ok());
  Tagged t{};
  Tagged batch[2]{};
  const auto e = error_of([&] { (void)to_kernels.try_receive(t); });
  EXPECT_EQ(e.code(), errc::unsupported);
  EXPECT_EQ(e.call(), "BasicMessageQueue::try_receive");
  EXPECT_TRUE(mentions(e, "consumers are declared QueueUsers::kernels")) << e.what();
  EXPECT_THROW((void)to_kernels.receive(t), ringkernel::Error);
  EXPECT_THROW((void)to_kernels.receive_batch(batch), ringkernel::Error);
  EXPECT_THROW((void)to_kernels.try_peek(t), ringkernel::Error);
  EXPECT_THROW((void)to_kernels.clear(), ringkernel::Error);
  EXPECT_EQ(to_kernels.count(), 1u) << "a refused call takes nothing";
  std::thread kernel([ring = to_kernels.ring()]() mutable {
    Tagged got{};
    while (!ring.try_pop(got)) {
    }
    EXPECT_EQ(got.index, 7u);
  });
  kernel.join();
  EXPECT_EQ(to_kernels.statistics().received, 1u);

  MpmcQueue<Tagged> from_kernels(pinned_on(dev, QueueUsers::kernels, QueueUsers::host));
  const auto s = error_of([&] { (void)from_kernels.try_send(Tagged{}); });
  EXPECT_EQ(s.call(), "BasicMessageQueue::try_send");
  EXPECT_TRUE(mentions(s, "producers are declared QueueUsers::kernels")) << s.what();
  EXPECT_THROW((void)from_kernels.send(Tagged{}), ringkernel::Error);
  const Tagged values[2]{};
  EXPECT_THROW((void)from_kernels.send_batch(values), ringkernel::Error);
  EXPECT_EQ(error_of([&] { (void)from_kernels.try_send_batch(values); }).call(), "BasicMessageQueue::try_send_batch");
  EXPECT_EQ(from_kernels.statistics().sent, 0u);
  EXPECT_EQ(from_kernels.statistics().rejected_full + from_kernels.statistics().rejected_closed, 0u);
}

TEST(QueueUsers, DeclarationsTheQueueCannotHonourAreInvalid) {
  HostMachine native(true);
  const auto host_memory = error_of([] { MpmcQueue<Tagged> q(QueueOptions{.producers = QueueUsers::kernels}); });
  EXPECT_EQ(host_memory.code(), errc::invalid_argument);
  EXPECT_TRUE(mentions(host_memory, "kernels cannot reach")) << host_memory.what();
  // drop_oldest evicts on the sending host thread, which is then a consumer too.
  const auto evict = error_of([&] {
    MpmcQueue<Tagged> q(QueueOptions{.policy = FullPolicy::drop_oldest, .memory = QueueMemory::pinned,
                                     .device = native.ids[0], .consumers = QueueUsers::kernels});
  });
  EXPECT_EQ(evict.code(), errc::invalid_argument);
  EXPECT_TRUE(mentions(evict, "drop_oldest")) << evict.what();
  const auto bad = error_of([] { MpmcQueue<Tagged> q(QueueOptions{.producers = static_cast<QueueUsers>(0)}); });
  EXPECT_EQ(bad.code(), errc::invalid_argument);
  EXPECT_TRUE(mentions(bad, "not a QueueUsers value")) << bad.what();
}

// Pinned or device memory without QueueOptions::device (left at -1): the error names the queue and
// the option, for every ring type and declaration (it used to come from an internal device lookup,
// "ringkernel::device: invalid device: device id -1", or from the allocation).
TEST(QueueUsers, PinnedOrDeviceMemoryWithoutADeviceNamesTheOption) {
  HostMachine native(true);
  for (const QueueMemory memory : {QueueMemory::pinned, QueueMemory::device}) {
    const auto mpmc = error_of([&] { MpmcQueue<Tagged> q(QueueOptions{.memory = memory}); });
    const auto spsc = error_of([&] {
      ringkernel::SpscQueue<Tagged> q(QueueOptions{.memory = memory, .producers = QueueUsers::host});
    });
    for (const ringkernel::Error& e : {mpmc, spsc}) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
      EXPECT_EQ(e.call(), "BasicMessageQueue") << e.what();
      EXPECT_TRUE(mentions(e, std::string("QueueMemory::") + ringkernel::to_string(memory) +
                                  " needs QueueOptions::device"))
          << e.what();
    }
  }
}

TEST(QueueUsers, P2PGoesDirectOnlyOverALinkThatCanMakeTheProducersClaimsAtomic) {
  HostMachine pcie(false);
  const int src = pcie.ids[0], dst = pcie.ids[1];
  ringkernel::PeerMemory peers;
  ASSERT_TRUE(peers.can_access_peer(src, dst));
  ASSERT_FALSE(peers.capability(src, dst).native_atomics);
  // Kernel producers: their claims would cross the link, so adaptive stages through host memory.
  P2PMessageQueue<Tagged> kernels(peers, src, dst,
                                  P2PQueueOptions{.capacity = 64, .producers = QueueUsers::kernels,
                                                  .consumers = QueueUsers::kernels});
  EXPECT_TRUE(kernels.direct_p2p_available());
  EXPECT_EQ(kernels.transfer_mode(), P2PTransferMode::host_staged);
  EXPECT_EQ(peers.live_mappings(), 0u);
  // Host producers: host threads' claims are native, so the direct path stays open.
  P2PMessageQueue<Tagged> host(peers, src, dst,
                               P2PQueueOptions{.capacity = 64, .producers = QueueUsers::host,
                                               .consumers = QueueUsers::host});
  EXPECT_EQ(host.transfer_mode(), P2PTransferMode::direct_p2p);
  ASSERT_TRUE(host.try_send(Tagged{0, 0, 5}).ok());
  Tagged t{};
  ASSERT_EQ(host.try_receive(t), ReceiveStatus::ok);
  EXPECT_EQ(t.index, 5u);
  // Asked for directly, the refusal says why.
  const auto direct = error_of([&] {
    P2PMessageQueue<Tagged> q(peers, src, dst,
                              P2PQueueOptions{.mode = P2PTransferMode::direct_p2p, .producers = QueueUsers::kernels,
                                              .consumers = QueueUsers::host});
  });
  EXPECT_EQ(direct.code(), errc::peer_access_unsupported);
  EXPECT_TRUE(mentions(direct, "has no native atomics")) << direct.what();
  // The defaults (host_and_kernels on both sides) fit neither placement on this machine.
  const auto defaults = error_of([&] { P2PMessageQueue<Tagged> q(peers, src, dst); });
  EXPECT_EQ(defaults.code(), errc::unsupported);
  EXPECT_EQ(defaults.device(), src) << "the producers' side is the source's";
  EXPECT_TRUE(mentions(defaults, "producers = QueueUsers::host_and_kernels")) << defaults.what();
  // Adaptive tried both placements; the error names why each is impossible, not only the second.
  EXPECT_TRUE(mentions(defaults, "adaptive mode found neither placement possible: direct_p2p because the link"))
      << defaults.what();
  EXPECT_TRUE(mentions(defaults, "has no native atomics")) << defaults.what();
}

// host_staged asked for explicitly: a side pinned memory cannot serve is refused with the side's own
// error, unchanged (adaptive mode's wording is for adaptive mode), for the producers' side (the
// source's) and the consumers' side (the destination's); nothing is left behind.
TEST(QueueUsers, P2PExplicitHostStagedRefusesASidePinnedMemoryCannotServeUnchanged) {
  HostMachine pcie(false);
  const int src = pcie.ids[0], dst = pcie.ids[1];
  ringkernel::PeerMemory peers;
  const auto staged = [&](QueueUsers producers, QueueUsers consumers) {
    return error_of([&] {
      P2PMessageQueue<Tagged> q(peers, src, dst,
                                P2PQueueOptions{.mode = P2PTransferMode::host_staged, .producers = producers,
                                                .consumers = consumers});
    });
  };
  const auto producers = staged(QueueUsers::host_and_kernels, QueueUsers::host);
  EXPECT_EQ(producers.code(), errc::unsupported);
  EXPECT_EQ(producers.call(), "P2PMessageQueue") << "refused by the queue, not by its ring's MpmcQueue";
  EXPECT_EQ(producers.device(), src) << "the producers' side is the source's";
  EXPECT_TRUE(mentions(producers, "producers = QueueUsers::host_and_kernels")) << producers.what();
  EXPECT_TRUE(mentions(producers, "no host-native atomics")) << producers.what();
  EXPECT_FALSE(mentions(producers, "adaptive")) << producers.what();
  const auto consumers = staged(QueueUsers::host, QueueUsers::host_and_kernels);
  EXPECT_EQ(consumers.code(), errc::unsupported);
  EXPECT_EQ(consumers.call(), "P2PMessageQueue") << consumers.what();
  EXPECT_EQ(consumers.device(), dst) << "the consumers' side is the destination's";
  EXPECT_TRUE(mentions(consumers, "consumers = QueueUsers::host_and_kernels")) << consumers.what();
  EXPECT_FALSE(mentions(consumers, "adaptive")) << consumers.what();
  // Adaptive mode (the default) wraps the same error after why direct_p2p was not taken either.
  const auto adaptive = error_of([&] {
    P2PMessageQueue<Tagged> q(peers, src, dst, P2PQueueOptions{.producers = QueueUsers::host_and_kernels,
                                                               .consumers = QueueUsers::host});
  });
  EXPECT_EQ(adaptive.code(), producers.code());
  const std::string tail = "; host_staged because " + producers.detail();
  ASSERT_GE(adaptive.detail().size(), tail.size()) << adaptive.what();
  EXPECT_EQ(adaptive.detail().substr(adaptive.detail().size() - tail.size()), tail) << adaptive.what();
  EXPECT_EQ(peers.live_mappings(), 0u);
  EXPECT_FALSE(peers.peer_access_enabled(src, dst));
}

TEST(QueueUsers, P2PKernelSidesMoveMessagesHostStaged) {
  HostMachine pcie(false);
  ringkernel::PeerMemory peers;
  P2PMessageQueue<Tagged> q(peers, pcie.ids[0], pcie.ids[1],
                            P2PQueueOptions{.capacity = 16, .producers = QueueUsers::kernels,
                                            .consumers = QueueUsers::kernels});
  constexpr std::uint32_t count = 2000, producers = 2;
  std::vector<std::thread> source;
  for (std::uint32_t p = 0; p < producers; ++p) {
    source.emplace_back([ring = q.source_ring(), p]() mutable {
      for (std::uint32_t i = 0; i < count; ++i) {
        while (!ring.try_push(Tagged{p, 0, i})) {
        }
      }
    });
  }
  std::vector<std::uint32_t> next(producers, 0);
  auto ring = q.destination_ring();
  for (std::uint32_t n = 0; n < count * producers; ++n) {
    Tagged t{};
    while (!ring.try_pop(t)) {
    }
    ASSERT_LT(t.producer, producers);
    ASSERT_EQ(t.index, next[t.producer]++) << "per-producer order";
  }
  for (auto& s : source) s.join();
  EXPECT_TRUE(q.is_empty());
  const auto send = error_of([&] { (void)q.try_send(Tagged{}); });
  EXPECT_EQ(send.call(), "P2PMessageQueue::try_send");
  EXPECT_TRUE(mentions(send, "producers are declared QueueUsers::kernels")) << send.what();
  const Tagged batch[2]{};
  EXPECT_EQ(error_of([&] { (void)q.try_send_batch(batch); }).call(), "P2PMessageQueue::try_send_batch");
  const auto receive = error_of([&] { (void)q.clear(); });
  EXPECT_EQ(receive.call(), "P2PMessageQueue::clear");
  EXPECT_EQ(receive.device(), pcie.ids[1]) << "the consumers' side is the destination's";
}

}  // namespace
