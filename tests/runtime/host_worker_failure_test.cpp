// Copyright RingKernel authors.
// A host stream is a worker thread, which the process may have no room for (a pids limit in a
// container, little address space): starting it fails with std::system_error, which escaped every
// call that makes a stream (a Stream, a PeerMemory's internal stream or staging pipeline) instead of
// a ringkernel::Error with its code, call and device. The test seam of host_stream.h makes the next
// starts fail as std::thread does; that of queue_memory_seam.h makes host device memory GPU memory
// for the queues, whose copies to it make streams (as they do on CUDA).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "expect_error.h"
#include "host_fixture.h"
#include "host_stream.h"
#include "queue_memory_seam_scope.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/queue_storage.h"

namespace ringkernel {
namespace {

/// Ends the seam however a test ends.
struct FailWorkerStarts {
  explicit FailWorkerStarts(int count, int after = 0) { detail::fail_host_worker_starts_for_testing(count, after); }
  ~FailWorkerStarts() { detail::fail_host_worker_starts_for_testing(0); }
  FailWorkerStarts(const FailWorkerStarts&) = delete;
  FailWorkerStarts& operator=(const FailWorkerStarts&) = delete;
};

TEST(HostWorkerFailure, AStreamWhoseThreadCannotStartIsAnError) {
  const auto ids = test::use_host_devices(2, HostTopology::none);
  {
    const FailWorkerStarts fail(1);
    try {
      Stream s(ids[1]);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::out_of_memory);
      EXPECT_EQ(e.call(), "Stream::Stream");
      EXPECT_EQ(e.device(), ids[1]);
      EXPECT_NE(e.detail().find("cannot start the worker thread of a host stream: "), std::string::npos) << e.what();
      EXPECT_NE(e.detail().find("Resource temporarily unavailable"), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a ringkernel::Error: " << e.what();
    }
  }
  Stream s(ids[1]);  // the next one starts
  s.synchronize();
}

// A host-staged copy needs a pipeline of two streams: the user's call reports their failure, and a
// later copy makes the pipeline anew.
TEST(HostWorkerFailure, AStagingPipelineWhoseThreadsCannotStartIsTheCallsError) {
  const auto ids = test::use_host_devices(2, HostTopology::none);
  PeerMemory peers;
  DeviceBuffer a(ids[0], 256), b(ids[1], 256);
  Stream s(ids[0]);
  for (const int after : {0, 1}) {  // the pipeline's first stream, then its second
    const FailWorkerStarts fail(1, after);
    try {
      peers.copy_peer_async(b, 0, a, 0, 256, s);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
      EXPECT_EQ(e.call(), "PeerMemory::copy_peer_async");
      EXPECT_NE(e.detail().find("cannot start the worker thread of a host stream"), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a ringkernel::Error: " << e.what();
    }
  }
  const auto data = test::pattern(256, 7);
  a.upload(data.data(), data.size());
  EXPECT_EQ(peers.copy_peer_async(b, 0, a, 0, 256, s).path, CopyPath::host_staged);
  s.synchronize();
  std::vector<std::uint8_t> out(256);
  b.download(out.data(), out.size());
  EXPECT_EQ(out, data);
}

// A synchronous copy's internal stream: an Error too, named by the user's call (not by the
// Stream::Stream it used, which the detail names), and the PeerMemory stays usable.
TEST(HostWorkerFailure, AnInternalStreamWhoseThreadCannotStartIsTheCallsError) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  DeviceBuffer a(ids[0], 64), b(ids[1], 64);
  peers.enable_peer_access(ids[0], ids[1]);
  const std::vector<std::function<void()>> copies = {[&] { peers.copy_peer(b, 0, a, 0, 64); },
                                                       [&] { peers.copy_peer(b.data(), ids[1], a.data(), ids[0], 64); }};
  for (const auto& copy : copies) {
    const FailWorkerStarts fail(1);
    try {
      copy();
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
      EXPECT_EQ(e.call(), "PeerMemory::copy_peer") << e.what();
      EXPECT_EQ(e.device(), ids[0]) << e.what();
      EXPECT_NE(e.detail().find("starting the stream a synchronous copy runs on (Stream::Stream): "
                                "cannot start the worker thread of a host stream"),
                std::string::npos)
          << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a ringkernel::Error: " << e.what();
    }
  }
  EXPECT_EQ(peers.copy_peer(b, 0, a, 0, 64).path, CopyPath::direct_peer);
  peers.disable_peer_access(ids[0], ids[1]);
}

/// The ringkernel::Error `call` threw; none (and a test failure) if it threw none or another.
std::optional<Error> error_of(const std::function<void()>& call) {
  try {
    call();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a ringkernel::Error: " << e.what();
  }
  return std::nullopt;
}

// A copy to or from GPU memory without a stream of the caller's makes one: its failure is the
// copy's error (QueueStorage::upload / download, initialize_ring's upload), the stream's call in the
// detail; CUDA named it cudaStreamCreateWithFlags.
TEST(HostWorkerFailure, AQueueStorageCopysOwnStreamIsTheCallsError) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  const test::DeviceMemoryAsGpuMemory gpu_memory;
  QueueStorage storage(QueueMemory::device, ids[1], mpmc_ring<std::uint64_t>::bytes_for(4));
  ASSERT_FALSE(storage.host_accessible());
  std::uint64_t word = 5;
  const std::vector<std::pair<const char*, std::function<void()>>> copies = {
      {"QueueStorage::upload", [&] { storage.upload(&word, sizeof word, 8); }},
      {"QueueStorage::download", [&] { storage.download(&word, sizeof word, 8); }},
      {"QueueStorage::upload", [&] { (void)initialize_ring<mpmc_ring<std::uint64_t>>(storage, 4); }}};
  for (const auto& [call, copy] : copies) {
    const FailWorkerStarts fail(1);
    const auto error = error_of(copy);
    ASSERT_TRUE(error) << call;
    const Error& e = *error;
    EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
    EXPECT_EQ(e.call(), call) << e.what();
    EXPECT_EQ(e.device(), ids[1]) << e.what();
    EXPECT_NE(e.detail().find("starting the stream the copy runs on (Stream::Stream): "
                              "cannot start the worker thread of a host stream"),
              std::string::npos)
        << e.what();
  }
  storage.upload(&word, sizeof word, 8);  // the next stream starts
  word = 0;
  storage.download(&word, sizeof word, 8);
  EXPECT_EQ(word, 5u);
}

// A direct_p2p P2PMessageQueue with its ring in GPU memory keeps a stream for its control words:
// one that cannot start is the queue's error (not the stream's, nor a ring that did not fit), and
// the construction leaves nothing behind: the ring's memory is free again, peer access not enabled.
TEST(HostWorkerFailure, AP2PQueuesControlStreamIsTheQueuesError) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  const test::DeviceMemoryAsGpuMemory gpu_memory;
  PeerMemory peers;
  const P2PQueueOptions options{.capacity = 16, .mode = P2PTransferMode::direct_p2p,
                                .producers = QueueUsers::kernels, .consumers = QueueUsers::kernels};
  const std::size_t free_before = device(ids[1]).free_memory;
  {
    const FailWorkerStarts fail(1);
    const auto error = error_of([&] { P2PMessageQueue<std::uint64_t> q(peers, ids[0], ids[1], options); });
    ASSERT_TRUE(error);
    const Error& e = *error;
    EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
    EXPECT_EQ(e.call(), "P2PMessageQueue") << e.what();
    EXPECT_EQ(e.device(), ids[1]) << e.what();
    EXPECT_NE(e.detail().find("starting the stream the queue copies its ring's control words on (Stream::Stream): "
                              "cannot start the worker thread of a host stream"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(device(ids[1]).free_memory, free_before) << "the ring's memory is freed";
  EXPECT_FALSE(peers.peer_access_enabled(ids[0], ids[1])) << "a ring without its stream enables nothing";
  {
    // Writing the empty ring with that stream starts no further worker, so its error path
    // ("writing the empty ring into the destination's memory") cannot be injected on the host
    // backend: with the start after the control stream's failing, the construction succeeds.
    const FailWorkerStarts fail(1, 1);
    P2PMessageQueue<std::uint64_t> q(peers, ids[0], ids[1], options);
    EXPECT_EQ(q.count(), 0u);
  }
  P2PMessageQueue<std::uint64_t> q(peers, ids[0], ids[1], options);  // the next stream starts
  EXPECT_FALSE(q.host_endpoints());
  EXPECT_EQ(q.count(), 0u);
  EXPECT_FALSE(q.is_shut_down());
}

}  // namespace
}  // namespace ringkernel
