// Copyright RingKernel authors.
// P2PMessageQueue when the direct ring does not fit the destination's memory, or enabling peer
// access fails (docs/messaging.md §5; the refusal through a test seam of host_backend_seams.h):
// adaptive mode stages it in pinned host memory instead, on the MpmcQueue path and on the
// GPU-memory path (the test seam of queue_memory_seam.h); where pinned memory cannot serve the
// declared sides, or cannot hold the ring either, the error says why neither placement was taken
// and nothing is left behind. An explicit direct_p2p stays out_of_memory, naming host_staged, or
// names the refusal.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "host_backend_seams.h"
#include "queue_memory_seam_scope.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/p2p_message_queue.h"

namespace {

using ringkernel::P2PMessageQueue;
using ringkernel::P2PQueueOptions;
using ringkernel::P2PTransferMode;
using ringkernel::QueueUsers;
using ringkernel::errc;

struct Item {
  std::uint64_t index;
  std::uint64_t check;
};
using Queue = P2PMessageQueue<Item>;
using Ring = ringkernel::mpmc_ring<Item>;

constexpr std::size_t device_memory = std::size_t{1} << 20;
constexpr std::uint64_t too_large = std::uint64_t{1} << 17;  // 2 MiB of slots: more than a device holds
static_assert(Ring::bytes_for(too_large) > device_memory);

std::string str(std::uint64_t v) { return std::to_string(v); }

// "the ring of N slots (B bytes) in <where>: ", as detail::ring_storage words a ring that did not fit.
std::string ring_of(std::uint64_t capacity, const std::string& where) {
  return "the ring of " + str(capacity) + " slots (" + str(Ring::bytes_for(capacity)) + " bytes) in " + where + ": ";
}

class P2PQueueFallback : public ::testing::Test {
 protected:
  /// Two linked devices of 1 MiB each (the configuration before the test is restored after it).
  std::vector<int> configure(bool native_atomics = true) {
    ringkernel::configure_host_backend(ringkernel::HostBackendConfig{.device_count = 2,
                                                                     .topology = ringkernel::HostTopology::all,
                                                                     .memory_per_device = device_memory,
                                                                     .native_atomics = native_atomics});
    std::vector<int> ids;
    for (const auto& d : ringkernel::devices(ringkernel::Backend::host)) ids.push_back(d.id);
    free_before_ = ringkernel::device(ids.at(1)).free_memory;
    return ids;
  }
  void TearDown() override { ringkernel::configure_host_backend(saved_); }

  /// The destination's memory is as it was, and peer access was never enabled.
  void expect_nothing_left(const std::vector<int>& ids) {
    EXPECT_EQ(ringkernel::device(ids[1]).free_memory, free_before_) << "destination memory held";
    EXPECT_FALSE(peers_.peer_access_enabled(ids[0], ids[1])) << "peer access enabled";
  }

  ringkernel::HostBackendConfig saved_ = ringkernel::host_backend_config();
  ringkernel::PeerMemory peers_;
  std::size_t free_before_ = 0;
};

// A seam of host_backend_seams.h on while it lives, off however the scope ends.
class Refusal {
 public:
  explicit Refusal(void (*seam)(bool) noexcept) : seam_(seam) { seam_(true); }
  ~Refusal() { seam_(false); }
  Refusal(const Refusal&) = delete;
  Refusal& operator=(const Refusal&) = delete;

 private:
  void (*seam_)(bool) noexcept;
};

// "enabling peer access from device A to device B failed (...)", as the refusal of the seam reads.
std::string refused_enable(const std::vector<int>& ids) {
  return "enabling peer access from device " + std::to_string(ids[0]) + " to device " + std::to_string(ids[1]) +
         " failed (PeerMemory::enable_peer_access: refused by the test seam (refuse_host_peer_access_for_testing))";
}

ringkernel::Error error_of(ringkernel::PeerMemory& peers, const std::vector<int>& ids, const P2PQueueOptions& o) {
  try {
    Queue q(peers, ids[0], ids[1], o);
  } catch (const ringkernel::Error& e) {
    return e;
  }
  ADD_FAILURE() << "a ring of " << Ring::bytes_for(o.capacity) << " bytes was placed";
  return ringkernel::Error(errc::invalid_state, "none", ringkernel::no_device, "nothing thrown");
}

TEST_F(P2PQueueFallback, AdaptiveStagesARingTooLargeForTheDestinationAndMessagesFlow) {
  const auto ids = configure();
  Queue q(peers_, ids[0], ids[1], P2PQueueOptions{.capacity = too_large});  // it was out_of_memory
  EXPECT_EQ(q.transfer_mode(), P2PTransferMode::host_staged);
  EXPECT_TRUE(q.direct_p2p_available());
  EXPECT_TRUE(q.host_endpoints());
  expect_nothing_left(ids);  // the ring is in pinned memory
  constexpr std::uint64_t count = 5000;
  std::thread source([&] {
    for (std::uint64_t i = 0; i < count; ++i) ASSERT_TRUE(q.send(Item{i, ~i}).ok());
  });
  for (std::uint64_t i = 0; i < count; ++i) {
    Item m{};
    ASSERT_EQ(q.receive(m), ringkernel::ReceiveStatus::ok);
    ASSERT_EQ(m.index, i);
    ASSERT_EQ(m.check, ~i);
  }
  source.join();
  EXPECT_EQ(q.statistics().received, count);
}

// The CUDA path (the ring would be a bare ring in GPU memory): the staged ring's kernel_ring() serves.
TEST_F(P2PQueueFallback, AdaptiveStagesAGpuMemoryRingTooLargeForTheDestination) {
  const auto ids = configure();
  const ringkernel::test::DeviceMemoryAsGpuMemory gpu_memory;
  Queue q(peers_, ids[0], ids[1],
          P2PQueueOptions{.capacity = too_large, .producers = QueueUsers::kernels, .consumers = QueueUsers::kernels});
  EXPECT_EQ(q.transfer_mode(), P2PTransferMode::host_staged);
  expect_nothing_left(ids);
  auto ring = q.kernel_ring();
  ASSERT_TRUE(ring.try_push(Item{7, 8}));
  EXPECT_EQ(q.count(), 1u);
  Item out{};
  ASSERT_TRUE(ring.try_pop(out));
  EXPECT_EQ(out.index, 7u);
}

// Without host-native atomics pinned memory cannot serve host_and_kernels consumers: neither fits.
TEST_F(P2PQueueFallback, AdaptiveWhereStagingCannotServeTheSidesSaysWhyNeitherPlacementWasTaken) {
  const auto ids = configure(false);
  const auto e = error_of(peers_, ids, P2PQueueOptions{.capacity = too_large, .producers = QueueUsers::host});
  EXPECT_EQ(e.code(), errc::unsupported) << e.what();
  EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
  EXPECT_EQ(e.device(), ids[1]) << e.what();
  const std::string why = "adaptive mode found neither placement possible: direct_p2p because the ring did not fit "
                          "device " + std::to_string(ids[1]) + "'s memory (" +
                          ring_of(too_large, "device memory (QueueMemory::device)") +
                          "DeviceBuffer::DeviceBuffer: cannot allocate ";
  EXPECT_NE(e.detail().find(why), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("); host_staged because consumers = QueueUsers::host_and_kernels on pinned host memory, "
                            "but device " + std::to_string(ids[1])),
            std::string::npos)
      << e.what();
  expect_nothing_left(ids);
}

// A ring too large for any memory: both refusals in one out_of_memory, nothing held.
TEST_F(P2PQueueFallback, AdaptiveWhoseStagedRingDoesNotFitPinnedMemoryEitherSaysBoth) {
  const auto ids = configure();
  std::uint64_t capacity = 1;
  while (capacity <= Ring::max_capacity / 2) capacity *= 2;  // the largest power of two allowed
  const auto e = error_of(peers_, ids, P2PQueueOptions{.capacity = capacity});
  EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
  EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
  EXPECT_EQ(e.device(), ids[1]) << e.what();
  const std::string direct = "direct_p2p because the ring did not fit device " + std::to_string(ids[1]) +
                             "'s memory (" + ring_of(capacity, "device memory (QueueMemory::device)") +
                             "DeviceBuffer::DeviceBuffer: cannot allocate ";
  const std::string staged = "; host_staged because the ring did not fit pinned host memory either (" +
                             ring_of(capacity, "pinned host memory (QueueMemory::pinned)") +
                             "PinnedBuffer::PinnedBuffer: ";
  EXPECT_NE(e.detail().find("adaptive mode found neither placement possible: " + direct), std::string::npos)
      << e.what();
  EXPECT_NE(e.detail().find(staged), std::string::npos) << e.what();
  expect_nothing_left(ids);
}

// An explicit direct_p2p is not moved: out_of_memory as before, its detail naming the alternative.
TEST_F(P2PQueueFallback, ExplicitDirectStaysOutOfMemoryNamingHostStaged) {
  const auto ids = configure();
  const std::string hint =
      "; P2PTransferMode::host_staged (or adaptive, which falls back to it) places the ring in pinned host memory "
      "instead";
  for (const bool gpu : {false, true}) {
    const ringkernel::test::DeviceMemoryAsGpuMemory gpu_memory(gpu);
    const auto e = error_of(peers_, ids,
                            P2PQueueOptions{.capacity = too_large, .mode = P2PTransferMode::direct_p2p,
                                            .producers = QueueUsers::kernels, .consumers = QueueUsers::kernels});
    EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
    EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
    EXPECT_EQ(e.device(), ids[1]) << e.what();
    EXPECT_EQ(e.detail().find(ring_of(too_large, "device memory (QueueMemory::device)")), 0u) << e.what();
    ASSERT_GT(e.detail().size(), hint.size()) << e.what();
    EXPECT_EQ(e.detail().substr(e.detail().size() - hint.size()), hint) << "gpu " << gpu << ": " << e.what();
    expect_nothing_left(ids);
  }
  Queue staged(peers_, ids[0], ids[1], P2PQueueOptions{.capacity = too_large, .mode = P2PTransferMode::host_staged});
  EXPECT_EQ(staged.transfer_mode(), P2PTransferMode::host_staged) << "as the hint says";
}

// Enabling peer access refused after the direct ring was allocated (CUDA: cudaDeviceEnablePeerAccess,
// e.g. too many peers): adaptive mode frees it and stages the ring, on both paths; nothing is held
// on the destination and peer access stays off.
TEST_F(P2PQueueFallback, AdaptiveWherePeerAccessIsRefusedStagesTheRing) {
  const auto ids = configure();
  const Refusal refusal(ringkernel::detail::refuse_host_peer_access_for_testing);
  {
    Queue q(peers_, ids[0], ids[1], P2PQueueOptions{.capacity = 64});
    EXPECT_EQ(q.transfer_mode(), P2PTransferMode::host_staged);
    expect_nothing_left(ids);
    ASSERT_TRUE(q.send(Item{1, 2}).ok());
    Item m{};
    ASSERT_EQ(q.receive(m), ringkernel::ReceiveStatus::ok);
    EXPECT_EQ(m.index, 1u);
    EXPECT_EQ(m.check, 2u);
  }
  const ringkernel::test::DeviceMemoryAsGpuMemory gpu_memory;
  Queue q(peers_, ids[0], ids[1],
          P2PQueueOptions{.capacity = 64, .producers = QueueUsers::kernels, .consumers = QueueUsers::kernels});
  EXPECT_EQ(q.transfer_mode(), P2PTransferMode::host_staged);
  expect_nothing_left(ids);
  auto ring = q.kernel_ring();
  ASSERT_TRUE(ring.try_push(Item{3, 4}));
  Item out{};
  ASSERT_TRUE(ring.try_pop(out));
  EXPECT_EQ(out.index, 3u);
}

// An explicit direct_p2p is not moved: the refusal, named, with the alternatives; nothing held.
TEST_F(P2PQueueFallback, ExplicitDirectWherePeerAccessIsRefusedSaysWhy) {
  const auto ids = configure();
  const Refusal refusal(ringkernel::detail::refuse_host_peer_access_for_testing);
  const auto e = error_of(peers_, ids, P2PQueueOptions{.capacity = 64, .mode = P2PTransferMode::direct_p2p});
  EXPECT_EQ(e.code(), errc::backend_failure) << e.what();
  EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
  EXPECT_EQ(e.device(), ids[0]) << e.what();
  EXPECT_EQ(e.detail(), "direct_p2p requested but " + refused_enable(ids) +
                            "; use P2PTransferMode::host_staged or adaptive");
  expect_nothing_left(ids);
}

// Refused peer access and a staged ring that does not fit pinned memory: one out_of_memory saying
// both (the refusal was left out: only the pinned failure was reported), nothing held.
TEST_F(P2PQueueFallback, AdaptiveWherePeerAccessIsRefusedAndPinnedMemoryTooSaysBoth) {
  const auto ids = configure();
  const Refusal refusal(ringkernel::detail::refuse_host_peer_access_for_testing);
  const Refusal no_pinned(ringkernel::detail::refuse_host_pinned_memory_for_testing);
  const auto e = error_of(peers_, ids, P2PQueueOptions{.capacity = 64});
  EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
  EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
  EXPECT_EQ(e.device(), ids[1]) << e.what();
  const std::string both = "adaptive mode found neither placement possible: direct_p2p because " + refused_enable(ids) +
                           "; host_staged because the ring did not fit pinned host memory either (" +
                           ring_of(64, "pinned host memory (QueueMemory::pinned)") + "PinnedBuffer::PinnedBuffer: ";
  EXPECT_EQ(e.detail().find(both), 0u) << e.what();
  EXPECT_NE(e.detail().find("refused by the test seam (refuse_host_pinned_memory_for_testing)"), std::string::npos)
      << e.what();
  expect_nothing_left(ids);
}

}  // namespace
