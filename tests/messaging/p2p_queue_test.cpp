// Copyright RingKernel authors.
// P2PMessageQueue on the host backend: the configured topology decides the transfer mode,
// direct_p2p places the ring in the destination's memory behind a real peer mapping, host_staged
// in pinned memory; messages flow between a source thread and a destination thread either way.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "host_devices.h"
#include "messaging_messages.rk.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/p2p_message_queue.h"

namespace {

using messaging_test::Tagged;
using ringkernel::P2PMessageQueue;
using ringkernel::P2PQueueOptions;
using ringkernel::P2PTransferMode;
using ringkernel::ReceiveStatus;
using Msg = ringkernel::KernelMessage<Tagged>;

using messaging_test::host_devices;

void exchange(P2PMessageQueue<Msg>& q, std::uint64_t count) {
  std::thread source([&] {
    for (std::uint64_t i = 0; i < count; ++i) {
      ASSERT_TRUE(q.send(Msg::create_data(q.source_device(), q.destination_device(), Tagged{0, 0, i})).ok());
    }
  });
  for (std::uint64_t i = 0; i < count; ++i) {
    Msg m{};
    ASSERT_EQ(q.receive(m), ReceiveStatus::ok);
    ASSERT_EQ(m.payload.index, i);
    ASSERT_EQ(m.header.receiver_id, q.destination_device());
  }
  source.join();
}

TEST(P2PMessageQueue, AdaptiveGoesDirectOverALinkedPairThroughAPeerMapping) {
  const auto ids = host_devices(ringkernel::HostTopology::all);
  ringkernel::PeerMemory peers;
  {
    P2PMessageQueue<Msg> q(peers, ids[0], ids[1], P2PQueueOptions{.capacity = 64});
    EXPECT_TRUE(q.direct_p2p_available());
    EXPECT_EQ(q.transfer_mode(), P2PTransferMode::direct_p2p);
    EXPECT_EQ(q.source_device(), ids[0]);
    EXPECT_EQ(q.destination_device(), ids[1]);
    EXPECT_TRUE(peers.peer_access_enabled(ids[0], ids[1]));
    EXPECT_EQ(peers.live_mappings(), 0u) << "the queue maps through a PeerMemory of its own";
    EXPECT_THROW(peers.disable_peer_access(ids[0], ids[1]), ringkernel::Error) << "the queue's mapping is live";
    EXPECT_EQ(q.capacity(), 64u);
    EXPECT_TRUE(q.is_empty());
    EXPECT_TRUE(q.host_endpoints()) << "host backend memory is host memory in every mode";
    exchange(q, 2000);
    const auto s = q.statistics();
    EXPECT_EQ(s.sent, 2000u);
    EXPECT_EQ(s.received, 2000u);
    EXPECT_EQ(s.bytes_sent, 2000u * sizeof(Msg));
    // The source's view and the destination's view are the same ring.
    ASSERT_TRUE(q.source_ring().try_push(Msg::create_data(0, 1, Tagged{0, 0, 77})));
    Msg peeked{};
    ASSERT_TRUE(q.try_peek(peeked));
    EXPECT_EQ(peeked.payload.index, 77u);
    EXPECT_EQ(q.count(), 1u);
    EXPECT_EQ(q.statistics().sent, 2001u) << "sent comes from the ring's indices: a kernel's push counts";
    EXPECT_EQ(q.clear(), 1u);
  }
  EXPECT_NO_THROW(peers.disable_peer_access(ids[0], ids[1])) << "the queue unmaps on destruction";
}

TEST(P2PMessageQueue, AdaptiveFallsBackToHostStagedWithoutALink) {
  const auto ids = host_devices(ringkernel::HostTopology::none);
  ringkernel::PeerMemory peers;
  P2PMessageQueue<Msg> q(peers, ids[0], ids[1], P2PQueueOptions{.capacity = 16});
  EXPECT_FALSE(q.direct_p2p_available());
  EXPECT_EQ(q.transfer_mode(), P2PTransferMode::host_staged);
  EXPECT_EQ(peers.live_mappings(), 0u);
  exchange(q, 1000);
  EXPECT_EQ(q.statistics().received, 1000u);
}

// A pairs topology: each queue goes direct exactly over its own pair's link (in either direction),
// staged elsewhere, and enables peer access for that direction only.
TEST(P2PMessageQueue, APairsTopologyDecidesEachPairsMode) {
  ringkernel::HostBackendConfig config;
  config.device_count = 4;
  config.topology = ringkernel::HostTopology::pairs;
  config.pairs = {{0, 1}, {2, 3}};
  ringkernel::configure_host_backend(config);
  std::vector<int> ids;
  for (const auto& d : ringkernel::devices(ringkernel::Backend::host)) ids.push_back(d.id);
  ASSERT_EQ(ids.size(), 4u);
  ringkernel::PeerMemory peers;
  struct Case {
    int source, destination;
    P2PTransferMode mode;
  };
  for (const Case c : {Case{0, 1, P2PTransferMode::direct_p2p}, Case{1, 0, P2PTransferMode::direct_p2p},
                       Case{0, 2, P2PTransferMode::host_staged}, Case{1, 3, P2PTransferMode::host_staged},
                       Case{3, 2, P2PTransferMode::direct_p2p}}) {
    P2PMessageQueue<Msg> q(peers, ids[c.source], ids[c.destination], P2PQueueOptions{.capacity = 32});
    EXPECT_EQ(q.transfer_mode(), c.mode) << c.source << " -> " << c.destination;
    EXPECT_EQ(q.direct_p2p_available(), c.mode == P2PTransferMode::direct_p2p) << c.source << " -> " << c.destination;
    EXPECT_EQ(peers.peer_access_enabled(ids[c.source], ids[c.destination]), c.mode == P2PTransferMode::direct_p2p)
        << c.source << " -> " << c.destination;
    exchange(q, 200);
  }
  EXPECT_FALSE(peers.peer_access_enabled(ids[2], ids[3])) << "only the queue's direction is enabled";
  try {
    P2PMessageQueue<Msg> q(peers, ids[1], ids[2], P2PQueueOptions{.mode = P2PTransferMode::direct_p2p});
    ADD_FAILURE() << "direct_p2p accepted between two pairs";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::peer_access_unsupported);
    EXPECT_NE(std::string(e.what()).find("device " + std::to_string(ids[1]) + " cannot access device " +
                                         std::to_string(ids[2])),
              std::string::npos)
        << e.what();
  }
  host_devices(ringkernel::HostTopology::all);  // leave the default for later tests
}

TEST(P2PMessageQueue, ExplicitModesAreHonouredOrRefusedWithTheReason) {
  auto ids = host_devices(ringkernel::HostTopology::all);
  ringkernel::PeerMemory peers;
  P2PMessageQueue<Msg> staged(peers, ids[0], ids[1], P2PQueueOptions{.mode = P2PTransferMode::host_staged});
  EXPECT_TRUE(staged.direct_p2p_available());
  EXPECT_EQ(staged.transfer_mode(), P2PTransferMode::host_staged);
  exchange(staged, 100);

  ids = host_devices(ringkernel::HostTopology::none);
  ringkernel::PeerMemory unlinked;
  try {
    P2PMessageQueue<Msg> q(unlinked, ids[0], ids[1], P2PQueueOptions{.mode = P2PTransferMode::direct_p2p});
    FAIL() << "direct_p2p accepted on an unlinked pair";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::peer_access_unsupported);
    EXPECT_NE(std::string(e.what()).find("cannot access device"), std::string::npos) << e.what();
  }
  try {
    P2PMessageQueue<Msg> q(unlinked, ids[0], ids[0]);
    FAIL() << "a queue from a device to itself accepted";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::invalid_argument);
    EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
    EXPECT_NE(std::string(e.what()).find("source and destination are the same device"), std::string::npos) << e.what();
  }
  host_devices(ringkernel::HostTopology::all);  // leave the default for later tests
}

TEST(P2PMessageQueue, BadOptionsAreRefusedBeforePeerAccessIsEnabled) {
  const auto ids = host_devices(ringkernel::HostTopology::all);
  ringkernel::PeerMemory peers;
  try {
    P2PMessageQueue<Msg> q(peers, ids[0], ids[1], P2PQueueOptions{.capacity = 3});
    FAIL() << "capacity 3 accepted";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::invalid_argument);
    EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
    EXPECT_NE(std::string(e.what()).find("P2PQueueOptions: capacity 3 is not a power of two (2, 4, 8, ..."),
              std::string::npos)
        << e.what() << " (an MPMC ring refuses 1)";
  }
  // drop_oldest evicts on the sending host thread, so the consumers must include the host: refused
  // before the mode is resolved (it was refused by the queue underneath, after peer access was enabled).
  try {
    P2PMessageQueue<Msg> q(peers, ids[0], ids[1],
                           P2PQueueOptions{.policy = ringkernel::FullPolicy::drop_oldest,
                                           .producers = ringkernel::QueueUsers::host,
                                           .consumers = ringkernel::QueueUsers::kernels});
    FAIL() << "drop_oldest with kernel-only consumers accepted";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::invalid_argument);
    EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
    EXPECT_NE(std::string(e.what()).find("drop_oldest"), std::string::npos) << e.what();
  }
  // A capacity whose bytes overflow std::size_t (it crashed in the ring's initialisation).
  try {
    P2PMessageQueue<Msg> q(peers, ids[0], ids[1], P2PQueueOptions{.capacity = std::size_t{1} << 62});
    FAIL() << "capacity 2^62 accepted";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("P2PQueueOptions: capacity 4611686018427387904 is too large"),
              std::string::npos) << e.what();
  }
  EXPECT_FALSE(peers.peer_access_enabled(ids[0], ids[1])) << "nothing changed by a refused construction";
}

TEST(P2PMessageQueue, AnInvalidDeviceIdIsNamedAsTheQueuesSourceOrDestination) {
  const auto ids = host_devices(ringkernel::HostTopology::all);
  ringkernel::PeerMemory peers;
  for (const bool bad_source : {true, false}) {
    try {
      P2PMessageQueue<Msg> q(peers, bad_source ? 99 : ids[0], bad_source ? ids[1] : 99);
      FAIL() << "device 99 accepted";
    } catch (const ringkernel::Error& e) {
      EXPECT_EQ(e.code(), ringkernel::errc::invalid_device);
      EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what() << " (it used to name PeerMemory::can_access_peer)";
      EXPECT_EQ(e.device(), 99);
      EXPECT_NE(std::string(e.what()).find(bad_source ? "source device: " : "destination device: "), std::string::npos)
          << e.what();
    }
  }
}

// An error about one side names that side's device: the producers' is the source.
TEST(P2PMessageQueue, ABadSideIsNamedWithItsOwnDevice) {
  const auto ids = host_devices(ringkernel::HostTopology::all);
  ringkernel::PeerMemory peers;
  for (const bool producers : {true, false}) {
    const auto bad = static_cast<ringkernel::QueueUsers>(9);
    try {
      P2PMessageQueue<Msg> q(peers, ids[0], ids[1],
                             producers ? P2PQueueOptions{.producers = bad} : P2PQueueOptions{.consumers = bad});
      FAIL() << "QueueUsers 9 accepted";
    } catch (const ringkernel::Error& e) {
      EXPECT_EQ(e.code(), ringkernel::errc::invalid_argument);
      EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
      EXPECT_EQ(e.device(), producers ? ids[0] : ids[1]) << e.what();
      EXPECT_NE(std::string(e.what()).find(producers ? "producers = 9" : "consumers = 9"), std::string::npos) << e.what();
    }
  }
}

// A ring the destination's memory cannot hold: out_of_memory from the queue, saying which ring.
TEST(P2PMessageQueue, ARingTooLargeForTheDestinationIsOutOfMemoryNamingTheQueue) {
  ringkernel::HostBackendConfig config;
  config.device_count = 2;
  config.topology = ringkernel::HostTopology::all;
  config.memory_per_device = std::size_t{1} << 20;
  ringkernel::configure_host_backend(config);
  const auto host = ringkernel::devices(ringkernel::Backend::host);
  ringkernel::PeerMemory peers;
  try {
    P2PMessageQueue<Msg> q(peers, host[0].id, host[1].id,
                           P2PQueueOptions{.capacity = std::size_t{1} << 16, .mode = P2PTransferMode::direct_p2p});
    ADD_FAILURE() << "a ring larger than the device accepted";  // and go on: the configuration is restored below
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::out_of_memory);
    EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
    EXPECT_EQ(e.device(), host[1].id);
    using ring = ringkernel::mpmc_ring<Msg>;
    const std::string ring_of = "the ring of 65536 slots (" + std::to_string(ring::bytes_for(65536)) +
                                " bytes) in device memory (QueueMemory::device): DeviceBuffer::DeviceBuffer: cannot allocate ";
    EXPECT_NE(std::string(e.what()).find(ring_of), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("BasicMessageQueue"), std::string::npos) << "named twice: " << e.what();
  }
  EXPECT_FALSE(peers.peer_access_enabled(host[0].id, host[1].id)) << "peer access left behind by a failed construction";
  (void)host_devices(ringkernel::HostTopology::all);  // the other tests' configuration again
}

// The same for a host-staged ring, in pinned host memory (which no device's capacity limits: the
// largest ring a std::size_t counts); a capacity refused by rule says nothing of a ring's memory.
TEST(P2PMessageQueue, AStagedRingTooLargeForPinnedMemoryIsOutOfMemoryNamingIt) {
  const auto ids = host_devices(ringkernel::HostTopology::none);
  ringkernel::PeerMemory peers;
  using ring = ringkernel::mpmc_ring<Msg>;
  std::uint64_t capacity = 1;
  while (capacity <= ring::max_capacity / 2) capacity *= 2;  // the largest power of two allowed
  try {
    P2PMessageQueue<Msg> q(peers, ids[0], ids[1],
                           P2PQueueOptions{.capacity = capacity, .mode = P2PTransferMode::host_staged});
    ADD_FAILURE() << "a ring of " << ring::bytes_for(capacity) << " bytes was allocated";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::out_of_memory) << e.what();
    EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
    EXPECT_EQ(e.device(), ids[1]);
    const std::string ring_of = "the ring of " + std::to_string(capacity) + " slots (" +
                                std::to_string(ring::bytes_for(capacity)) +
                                " bytes) in pinned host memory (QueueMemory::pinned): PinnedBuffer::PinnedBuffer: ";
    EXPECT_NE(std::string(e.what()).find(ring_of), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("BasicMessageQueue"), std::string::npos) << "named twice: " << e.what();
  }
  for (const auto mode : {P2PTransferMode::host_staged, P2PTransferMode::direct_p2p}) {
    try {
      P2PMessageQueue<Msg> q(peers, ids[0], ids[1], P2PQueueOptions{.capacity = 6, .mode = mode});
      ADD_FAILURE() << "capacity 6 accepted";
    } catch (const ringkernel::Error& e) {
      EXPECT_EQ(e.code(), ringkernel::errc::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find("capacity 6 is not a power of two"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find("the ring of"), std::string::npos) << e.what();
    }
  }
}

// Peer access is process-wide: a second PeerMemory may not switch off what a live queue's mapping uses.
TEST(P2PMessageQueue, AnotherPeerMemoryCannotDisableTheAccessALiveQueueMaps) {
  const auto ids = host_devices(ringkernel::HostTopology::all);
  ringkernel::PeerMemory peers, other;
  {
    P2PMessageQueue<Msg> q(peers, ids[0], ids[1], P2PQueueOptions{.capacity = 64});
    ASSERT_EQ(q.transfer_mode(), P2PTransferMode::direct_p2p);
    try {
      other.disable_peer_access(ids[0], ids[1]);
      FAIL() << "another PeerMemory disabled the access of a live mapping";
    } catch (const ringkernel::Error& e) {
      EXPECT_EQ(e.code(), ringkernel::errc::invalid_state);
      EXPECT_NE(std::string(e.what()).find("by another PeerMemory"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(peers.peer_access_enabled(ids[0], ids[1]));
    EXPECT_EQ(other.live_mappings(), 0u);
    EXPECT_EQ(peers.live_mappings(), 0u) << "the queue's mapping is its own PeerMemory's";
  }
  other.disable_peer_access(ids[0], ids[1]);  // the queue is gone: nothing uses it
  EXPECT_FALSE(peers.peer_access_enabled(ids[0], ids[1]));
}

TEST(P2PMessageQueue, AFailedConstructionLeavesPeerAccessAsItWas) {
  ringkernel::HostBackendConfig config;
  config.device_count = 2;
  config.topology = ringkernel::HostTopology::all;
  config.memory_per_device = std::size_t{1} << 20;
  ringkernel::configure_host_backend(config);
  std::vector<int> ids;
  for (const auto& d : ringkernel::devices(ringkernel::Backend::host)) ids.push_back(d.id);
  ringkernel::PeerMemory peers;
  ASSERT_FALSE(peers.peer_access_enabled(ids[0], ids[1]));
  // Direct placement is asked for, then the ring does not fit the device's memory: access is
  // enabled only once the ring is allocated, so it never was (adaptive would stage the ring).
  const P2PQueueOptions too_large{.capacity = std::size_t{1} << 20, .mode = P2PTransferMode::direct_p2p};
  EXPECT_THROW((P2PMessageQueue<Msg>(peers, ids[0], ids[1], too_large)), ringkernel::Error);
  EXPECT_FALSE(peers.peer_access_enabled(ids[0], ids[1])) << "the failed construction left peer access enabled";
  peers.enable_peer_access(ids[0], ids[1]);  // enabled before: stays enabled
  EXPECT_THROW((P2PMessageQueue<Msg>(peers, ids[0], ids[1], too_large)), ringkernel::Error);
  EXPECT_TRUE(peers.peer_access_enabled(ids[0], ids[1]));
  try {
    P2PMessageQueue<Msg> q(peers, ids[0], ids[1], P2PQueueOptions{.mode = static_cast<P2PTransferMode>(7)});
    FAIL() << "mode 7 accepted";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("is no P2PTransferMode"), std::string::npos) << e.what();
  }
}

TEST(P2PMessageQueue, FullPoliciesAndShutdownApply) {
  const auto ids = host_devices(ringkernel::HostTopology::all);
  ringkernel::PeerMemory peers;
  P2PMessageQueue<Msg> q(peers, ids[0], ids[1],
                         P2PQueueOptions{.capacity = 2, .policy = ringkernel::FullPolicy::drop_newest});
  EXPECT_EQ(q.policy(), ringkernel::FullPolicy::drop_newest);
  Msg batch[2]{};
  const auto none = q.try_receive_batch(batch);
  EXPECT_EQ(none.status, ReceiveStatus::empty);
  EXPECT_EQ(none.received, 0u);
  ASSERT_TRUE(q.try_send(Msg{}).ok());
  ASSERT_TRUE(q.try_send(Msg{}).ok());
  EXPECT_TRUE(q.is_full());
  EXPECT_EQ(q.send(Msg{}).status, ringkernel::SendStatus::dropped_newest);
  EXPECT_EQ(q.statistics().dropped_newest, 1u);
  EXPECT_EQ(q.receive_batch(batch).received, 2u);
  EXPECT_FALSE(q.is_shut_down());
  q.shutdown();
  EXPECT_TRUE(q.is_shut_down());
  EXPECT_EQ(q.send(Msg{}).status, ringkernel::SendStatus::closed);
  Msg m{};
  EXPECT_EQ(q.receive(m), ReceiveStatus::closed);
}

}  // namespace
