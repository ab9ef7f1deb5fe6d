// Copyright RingKernel authors.
// The GPU-memory path of P2PMessageQueue, without a GPU: the test seam of queue_memory_seam.h makes
// host-backend device memory GPU memory for the queues, so a direct_p2p queue keeps a bare ring in
// the destination's memory (kernels only; its host-side count, statistics and shutdown copy the
// control words on a stream), and host threads play the kernels on the ring's views. The same
// traffic on the MpmcQueue path (seam off) must give the same answers.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "queue_memory_seam_scope.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/stream.h"

namespace {

using ringkernel::P2PMessageQueue;
using ringkernel::P2PQueueOptions;
using ringkernel::P2PTransferMode;
using ringkernel::QueueMemory;
using ringkernel::QueueStorage;
using ringkernel::QueueUsers;
using ringkernel::test::DeviceMemoryAsGpuMemory;

struct Item {
  std::uint64_t index;
  std::uint64_t check;
};

/// Two linked host devices with native atomics; the default configuration again afterwards.
struct LinkedPair {
  LinkedPair() {
    ringkernel::configure_host_backend(ringkernel::HostBackendConfig{.device_count = 2});
    for (const auto& d : ringkernel::devices(ringkernel::Backend::host)) ids.push_back(d.id);
  }
  ~LinkedPair() { ringkernel::configure_host_backend(ringkernel::HostBackendConfig{}); }
  LinkedPair(const LinkedPair&) = delete;
  LinkedPair& operator=(const LinkedPair&) = delete;
  std::vector<int> ids;
};

/// What the host sees of a queue that kernels (host threads here) work, step by step. Every
/// kernel thread is joined before the host looks: the host backend copies the control words
/// with memcpy, which a concurrent atomic access would race with (a GPU copy does not).
struct Observed {
  std::vector<std::uint64_t> counts;      // count() after each step
  std::vector<std::uint64_t> statistics;  // statistics() after each step, every counter in order (fields each)
  std::vector<bool> flags;                // is_empty, is_full, is_shut_down, the kernels' closed()
  std::vector<std::uint64_t> popped;      // what the destination's kernel popped, in order
  bool operator==(const Observed&) const = default;
  static constexpr std::size_t fields = 18;  // the counters note() takes per step
};

void note(Observed& o, const P2PMessageQueue<Item>& q) {
  const auto s = q.statistics();
  o.counts.push_back(q.count());
  for (const std::uint64_t v : {s.sent, s.received, s.rejected_full, s.dropped_newest, s.dropped_oldest, s.cleared,
                                s.timed_out, s.stopped, s.rejected_closed, s.bytes_sent, s.bytes_received,
                                s.send_batches, s.receive_batches, std::uint64_t{s.detailed}, s.high_water_mark,
                                s.latency.samples, s.latency.stamped_ahead, s.latency.stamped_before_epoch}) {
    o.statistics.push_back(v);
  }
  o.flags.insert(o.flags.end(), {q.is_empty(), q.is_full(), q.is_shut_down()});
}

Observed kernels_at_both_ends(P2PMessageQueue<Item>& q, std::uint64_t total) {
  Observed o;
  note(o, q);
  auto source = q.source_ring();  // one view per kernel side (try_push / try_pop are not const)
  auto destination = q.destination_ring();
  {
    std::jthread producer([&] {
      for (std::uint64_t i = 0; i < total; ++i) {
        while (!source.try_push(Item{i, i * 7})) std::this_thread::yield();
      }
    });
    std::jthread consumer([&] {
      Item it{};
      for (std::uint64_t i = 0; i < total; ++i) {
        while (!destination.try_pop(it)) std::this_thread::yield();
        o.popped.push_back(it.check == it.index * 7 ? it.index : ~std::uint64_t{0});
      }
    });
  }
  note(o, q);
  std::jthread([&] {  // the source's kernel fills the ring
    while (source.try_push(Item{total, total * 7})) {
    }
  }).join();
  note(o, q);
  q.shutdown();
  std::jthread([&] { o.flags.insert(o.flags.end(), {source.closed(), destination.closed()}); }).join();
  note(o, q);
  std::jthread([&] {  // the destination's kernel drains it
    Item it{};
    while (destination.try_pop(it)) o.popped.push_back(it.index);
  }).join();
  note(o, q);
  return o;
}

/// `call` throws Error(unsupported) named `name`, of `device`, because the ring is GPU memory.
void expect_refused(const char* name, int device, const std::function<void()>& call) {
  try {
    call();
    ADD_FAILURE() << name << ": no error";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::unsupported) << e.what();
    EXPECT_EQ(e.call(), name) << e.what();
    EXPECT_EQ(e.device(), device) << e.what();
    EXPECT_NE(e.detail().find("host threads cannot access"), std::string::npos) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << name << ": not a ringkernel::Error: " << e.what();
  }
}

/// `call` throws Error(`code`) named QueueStorage::host_accessible_memory, of `device`.
void expect_host_accessible_memory_error(ringkernel::errc code, int device, const std::function<void()>& call) {
  try {
    call();
    ADD_FAILURE() << "no error";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_EQ(e.call(), "QueueStorage::host_accessible_memory") << e.what();
    EXPECT_EQ(e.device(), device) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a ringkernel::Error: " << e.what();
  }
}

TEST(P2PMessageQueueGpuPath, KernelsMoveMessagesAndTheHostSeesWhatTheMpmcQueuePathShows) {
  const LinkedPair pair;
  ringkernel::PeerMemory peers;
  const P2PQueueOptions options{.capacity = 16, .mode = P2PTransferMode::direct_p2p,
                                .producers = QueueUsers::kernels, .consumers = QueueUsers::kernels};
  Observed seen[2];
  for (const bool gpu_memory : {false, true}) {
    const DeviceMemoryAsGpuMemory seam(gpu_memory);
    const std::size_t free_before = ringkernel::device(pair.ids[1]).free_memory;
    {
      P2PMessageQueue<Item> q(peers, pair.ids[0], pair.ids[1], options);
      EXPECT_EQ(q.transfer_mode(), P2PTransferMode::direct_p2p);
      EXPECT_EQ(q.host_endpoints(), !gpu_memory) << "the seam puts the ring in \"GPU memory\": kernels only";
      EXPECT_LT(ringkernel::device(pair.ids[1]).free_memory, free_before) << "the ring is the destination's memory";
      if (gpu_memory) {  // host calls are refused, each named by its own call
        Item it{};
        expect_refused("P2PMessageQueue::try_send", pair.ids[1], [&] { (void)q.try_send(Item{}); });
        const Item batch[2]{};
        expect_refused("P2PMessageQueue::try_send_batch", pair.ids[1], [&] { (void)q.try_send_batch(batch); });
        expect_refused("P2PMessageQueue::try_receive", pair.ids[1], [&] { (void)q.try_receive(it); });
        expect_refused("P2PMessageQueue::clear", pair.ids[1], [&] { (void)q.clear(); });
      }
      seen[gpu_memory ? 1 : 0] = kernels_at_both_ends(q, 1000);
    }
    EXPECT_EQ(ringkernel::device(pair.ids[1]).free_memory, free_before) << "the queue frees its ring";
  }
  const Observed& mpmc = seen[0];
  EXPECT_EQ(seen[1], mpmc) << "the GPU-memory path answers as the MpmcQueue path does";
  // And what both answer: 1000 through, 16 queued, closed, 16 drained.
  EXPECT_EQ(mpmc.counts, (std::vector<std::uint64_t>{0, 0, 16, 16, 0}));
  ASSERT_EQ(mpmc.statistics.size(), 5u * Observed::fields);
  EXPECT_EQ(mpmc.statistics[4 * Observed::fields + 0], 1016u);  // sent
  EXPECT_EQ(mpmc.statistics[4 * Observed::fields + 1], 1016u);  // received
  EXPECT_EQ(mpmc.statistics[4 * Observed::fields + 9], 1016u * sizeof(Item));
  EXPECT_EQ(mpmc.statistics[3 * Observed::fields + 1], 1000u);  // received before the drain
  EXPECT_EQ(mpmc.statistics[3 * Observed::fields + 13], 0u) << "detailed is off on both paths";
  EXPECT_EQ(mpmc.flags, (std::vector<bool>{true, false, false, true, false, false, false, true, false, true, true,
                                           false, true, true, true, false, true}));
  ASSERT_EQ(mpmc.popped.size(), 1016u);
  for (std::uint64_t i = 0; i < 1000; ++i) ASSERT_EQ(mpmc.popped[i], i);
}

// A kernel that closes the ring: is_shut_down() downloads the word on the GPU-memory path.
TEST(P2PMessageQueueGpuPath, AKernelClosingTheRingIsSeenByTheHost) {
  const LinkedPair pair;
  const DeviceMemoryAsGpuMemory seam(true);
  ringkernel::PeerMemory peers;
  P2PMessageQueue<Item> q(peers, pair.ids[0], pair.ids[1],
                          P2PQueueOptions{.capacity = 8, .producers = QueueUsers::kernels,
                                          .consumers = QueueUsers::kernels});
  ASSERT_FALSE(q.host_endpoints());
  EXPECT_FALSE(q.is_shut_down());
  std::jthread([&] { q.destination_ring().close(); }).join();
  EXPECT_TRUE(q.is_shut_down());
}

// Host users rule out a ring in "GPU memory" as they do on CUDA: direct_p2p is refused, adaptive
// stages through pinned memory. (The mode used to be chosen by the backend, not by the memory: under
// the seam direct_p2p was granted and every host call on the queue threw.)
TEST(P2PMessageQueueGpuPath, HostUsersRuleOutTheRingInGpuMemory) {
  const LinkedPair pair;
  const DeviceMemoryAsGpuMemory seam(true);
  ringkernel::PeerMemory peers;
  try {
    P2PMessageQueue<Item> q(peers, pair.ids[0], pair.ids[1],
                            P2PQueueOptions{.capacity = 8, .mode = P2PTransferMode::direct_p2p});
    ADD_FAILURE() << "direct_p2p with host users was granted";
  } catch (const ringkernel::Error& e) {
    EXPECT_EQ(e.code(), ringkernel::errc::unsupported) << e.what();
    EXPECT_EQ(e.call(), "P2PMessageQueue");
    EXPECT_NE(e.detail().find("GPU memory, which host threads cannot access"), std::string::npos) << e.what();
  }
  P2PMessageQueue<Item> q(peers, pair.ids[0], pair.ids[1],
                          P2PQueueOptions{.capacity = 8, .mode = P2PTransferMode::adaptive});
  EXPECT_EQ(q.transfer_mode(), P2PTransferMode::host_staged);
  EXPECT_TRUE(q.host_endpoints());
  ASSERT_TRUE(q.try_send(Item{3, 21}).ok());
  Item it{};
  ASSERT_EQ(q.try_receive(it), ringkernel::ReceiveStatus::ok);
  EXPECT_EQ(it.index, 3u);
  EXPECT_EQ(it.check, 21u);
}

// host_accessible_memory checks the device of pinned and device memory, and the memory itself,
// naming itself (not the device lookup) in its errors.
TEST(P2PMessageQueueGpuPath, HostAccessibleMemoryChecksItsArguments) {
  const LinkedPair pair;
  const int none = ringkernel::device_count();
  for (const QueueMemory memory : {QueueMemory::pinned, QueueMemory::device}) {
    for (const int bad : {-1, none}) {
      expect_host_accessible_memory_error(ringkernel::errc::invalid_device, bad,
                                          [&] { (void)QueueStorage::host_accessible_memory(memory, bad); });
    }
  }
  expect_host_accessible_memory_error(ringkernel::errc::invalid_argument, pair.ids[0], [&] {
    (void)QueueStorage::host_accessible_memory(static_cast<QueueMemory>(7), pair.ids[0]);
  });
  EXPECT_TRUE(QueueStorage::host_accessible_memory(QueueMemory::device, pair.ids[0])) << "the seam is off";
}

// QueueStorage of device memory under the seam copies on streams (its own, or the caller's).
TEST(P2PMessageQueueGpuPath, DeviceStorageCopiesOnStreams) {
  const LinkedPair pair;
  const DeviceMemoryAsGpuMemory seam(true);
  EXPECT_FALSE(QueueStorage::host_accessible_memory(QueueMemory::device, pair.ids[0]));
  EXPECT_TRUE(QueueStorage::host_accessible_memory(QueueMemory::pinned, pair.ids[0]));
  EXPECT_TRUE(QueueStorage::host_accessible_memory(QueueMemory::host, -1)) << "host memory names no device";
  QueueStorage storage(QueueMemory::device, pair.ids[0], 256);
  EXPECT_FALSE(storage.host_accessible());
  const std::vector<std::uint64_t> in{1, 2, 3, 4};
  std::vector<std::uint64_t> out(4);
  storage.upload(in.data(), 32, 64);
  storage.download(out.data(), 32, 64);
  EXPECT_EQ(out, in);
  ringkernel::Stream own(pair.ids[0]), other(pair.ids[1]);
  const std::vector<std::uint64_t> again{5, 6, 7, 8};
  storage.upload(again.data(), 32, 0, own);
  storage.download(out.data(), 32, 0, own);
  EXPECT_EQ(out, again);
  EXPECT_THROW(storage.download(out.data(), 32, 0, other), ringkernel::Error) << "a stream of another device";
  ringkernel::detail::treat_host_device_memory_as_gpu_memory_for_testing(false);
  EXPECT_FALSE(storage.host_accessible()) << "storage keeps what it was made with";
  EXPECT_TRUE(QueueStorage(QueueMemory::device, pair.ids[0], 64).host_accessible());
}

}  // namespace
