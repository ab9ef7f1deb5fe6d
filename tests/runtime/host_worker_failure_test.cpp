// Copyright RingKernel authors.
// A host stream is a worker thread, which the process may have no room for (a pids limit in a
// container, little address space): starting it fails with std::system_error, which escaped every
// call that makes a stream (a Stream, a PeerMemory's internal stream or staging pipeline) instead of
// a ringkernel::Error with its code, call and device. The test seam of host_stream.h makes the next
// starts fail as std::thread does.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "expect_error.h"
#include "host_fixture.h"
#include "host_stream.h"
#include "ringkernel/peer_memory.h"

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

}  // namespace
}  // namespace ringkernel
