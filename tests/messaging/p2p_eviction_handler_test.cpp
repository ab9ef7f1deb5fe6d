// Copyright RingKernel authors.
// P2PMessageQueue::set_eviction_handler on a queue whose producers are kernels only: the handler
// could never run (only host sends evict; kernels' pushes apply no policy), so it is refused with
// the same error on every path: the MpmcQueue path (host backend, direct_p2p and host_staged) and
// the GPU-memory path of CUDA direct_p2p (the host backend under the test seam of
// queue_memory_seam.h). With host producers the handler is accepted and sees each eviction.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "queue_memory_seam_scope.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/p2p_message_queue.h"

namespace {

using ringkernel::FullPolicy;
using ringkernel::P2PMessageQueue;
using ringkernel::P2PQueueOptions;
using ringkernel::P2PTransferMode;
using ringkernel::QueueUsers;
using ringkernel::test::DeviceMemoryAsGpuMemory;

struct Item {
  std::uint64_t index;
};

/// Two linked host devices, atomics native or not; the default configuration again afterwards.
struct HostPair {
  explicit HostPair(bool native) {
    ringkernel::HostBackendConfig config;
    config.device_count = 2;
    config.native_atomics = native;
    ringkernel::configure_host_backend(config);
    for (const auto& d : ringkernel::devices(ringkernel::Backend::host)) ids.push_back(d.id);
  }
  ~HostPair() { ringkernel::configure_host_backend(ringkernel::HostBackendConfig{}); }
  HostPair(const HostPair&) = delete;
  HostPair& operator=(const HostPair&) = delete;
  std::vector<int> ids;
};

/// The error set_eviction_handler throws on `q` (an empty Error and a test failure if none).
ringkernel::Error handler_error(P2PMessageQueue<Item>& q) {
  try {
    q.set_eviction_handler([](const Item&) {});
  } catch (const ringkernel::Error& e) {
    return e;
  }
  ADD_FAILURE() << "set_eviction_handler was accepted on a queue whose producers are kernels";
  return ringkernel::Error(ringkernel::errc::invalid_state, "none", ringkernel::no_device, "none");
}

void expect_refused(const ringkernel::Error& e, int source) {
  EXPECT_EQ(e.code(), ringkernel::errc::unsupported) << e.what();
  EXPECT_EQ(e.call(), "P2PMessageQueue::set_eviction_handler");
  EXPECT_EQ(e.device(), source) << "the producers' side is the source's";
  EXPECT_NE(e.detail().find("producers are declared QueueUsers::kernels"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("never run"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("Declare producers = QueueUsers::host or host_and_kernels"), std::string::npos)
      << e.what();
}

TEST(P2PEvictionHandler, RefusedWithKernelProducersInEveryModeAndOnTheGpuMemoryPath) {
  const HostPair pair(true);
  ringkernel::PeerMemory peers;
  std::vector<std::string> details;
  for (const P2PTransferMode mode : {P2PTransferMode::direct_p2p, P2PTransferMode::host_staged}) {
    for (const QueueUsers consumers : {QueueUsers::host, QueueUsers::kernels}) {
      P2PMessageQueue<Item> q(peers, pair.ids[0], pair.ids[1],
                              P2PQueueOptions{.capacity = 8, .policy = FullPolicy::drop_oldest, .mode = mode,
                                              .producers = QueueUsers::kernels, .consumers = consumers});
      ASSERT_TRUE(q.host_endpoints());
      const ringkernel::Error e = handler_error(q);
      expect_refused(e, pair.ids[0]);
      details.push_back(e.detail());
    }
  }
  {
    const DeviceMemoryAsGpuMemory seam(true);  // CUDA direct_p2p: the ring in GPU memory
    P2PMessageQueue<Item> q(peers, pair.ids[0], pair.ids[1],
                            P2PQueueOptions{.capacity = 8, .mode = P2PTransferMode::direct_p2p,
                                            .producers = QueueUsers::kernels, .consumers = QueueUsers::kernels});
    ASSERT_FALSE(q.host_endpoints());
    const ringkernel::Error e = handler_error(q);
    expect_refused(e, pair.ids[0]);
    details.push_back(e.detail());
  }
  for (const std::string& d : details) EXPECT_EQ(d, details.front()) << "one error, whatever the path";
}

TEST(P2PEvictionHandler, AcceptedWithHostProducersAndSeesEachEviction) {
  const HostPair pcie(false);
  ringkernel::PeerMemory peers;
  P2PMessageQueue<Item> q(peers, pcie.ids[0], pcie.ids[1],
                          P2PQueueOptions{.capacity = 2, .policy = FullPolicy::drop_oldest,
                                          .producers = QueueUsers::host, .consumers = QueueUsers::host});
  std::vector<std::uint64_t> evicted;
  q.set_eviction_handler([&](const Item& it) { evicted.push_back(it.index); });
  for (std::uint64_t i = 0; i < 4; ++i) ASSERT_TRUE(q.try_send(Item{i}).ok());
  EXPECT_EQ(evicted, (std::vector<std::uint64_t>{0, 1}));
}

}  // namespace
