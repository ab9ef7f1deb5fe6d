// Copyright RingKernel authors.
// DeviceBuffer and PinnedBuffer on the host backend: impossible sizes are refused, moved-from
// buffers say so, and a buffer outlives the work already queued on its device.
#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <vector>

#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/buffers.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/stream.h"

namespace ringkernel {
namespace {

constexpr std::size_t max_size = std::numeric_limits<std::size_t>::max();

// The aligned operator new rounds a size near SIZE_MAX up to its alignment, which wraps to a few
// bytes and succeeds: such a buffer claimed size() == SIZE_MAX over a tiny allocation.
TEST(Buffers, SizesNearSizeMaxAreOutOfMemory) {
  HostBackendConfig config;
  config.device_count = 1;
  config.memory_per_device = max_size;  // no capacity limit stops the allocation first
  configure_host_backend(config);
  const int id = devices(Backend::host).at(0).id;
  for (const std::size_t bytes : {max_size, max_size - 100}) {
    EXPECT_RK_ERROR(PinnedBuffer(id, bytes), errc::out_of_memory, "PinnedBuffer::PinnedBuffer");
    EXPECT_RK_ERROR(DeviceBuffer(id, bytes), errc::out_of_memory, "DeviceBuffer::DeviceBuffer");
  }
  test::use_host_devices(2, HostTopology::all);
}

TEST(Buffers, MovedFromBufferOwnsNothingAndSaysSo) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  DeviceBuffer a(ids[0], 16), b(ids[1], 16);
  DeviceBuffer taker = std::move(a);
  EXPECT_EQ(a.device(), -1);  // NOLINT(bugprone-use-after-move): the moved-from state is the test
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(taker.device(), ids[0]);
  std::vector<std::byte> host(16);
  EXPECT_RK_ERROR(a.upload(host.data(), 4), errc::invalid_state,
                  "DeviceBuffer::upload: invalid state: the buffer owns no memory");
  EXPECT_RK_ERROR(a.download(host.data(), 4), errc::invalid_state, "moved from");
  a.download(host.data(), 0);  // nothing to do is fine
  PeerMemory peers;
  EXPECT_RK_ERROR(peers.copy_peer(b, 0, a, 0, 4), errc::invalid_state,
                  "the source buffer owns no memory (default-constructed or moved from)");
  DeviceBuffer empty;
  EXPECT_RK_ERROR(peers.copy_peer(empty, 0, b, 0, 4), errc::invalid_state, "destination buffer owns no memory");
  b = std::move(taker);
  EXPECT_EQ(b.device(), ids[0]);
  EXPECT_EQ(taker.device(), -1);  // NOLINT(bugprone-use-after-move)
}

TEST(Buffers, PinnedBufferSaysItsDeviceUntilItOwnsNothing) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PinnedBuffer a(ids[1], 32);
  EXPECT_EQ(a.device(), ids[1]);
  const PinnedBuffer& view = a;
  EXPECT_EQ(static_cast<const void*>(view.bytes()), view.data());
  PinnedBuffer taker = std::move(a);
  EXPECT_EQ(taker.device(), ids[1]);
  EXPECT_EQ(a.device(), -1);  // NOLINT(bugprone-use-after-move): the moved-from state is the test
  EXPECT_EQ(PinnedBuffer().device(), -1);
  PinnedBuffer other(ids[0], 8);
  other = std::move(taker);
  EXPECT_EQ(other.device(), ids[1]);
  EXPECT_EQ(taker.device(), -1);  // NOLINT(bugprone-use-after-move)
}

// As cudaFree does, freeing waits for the work already queued on the device: the copy into the
// buffer must not write freed memory (AddressSanitizer saw a heap-use-after-free here).
TEST(Buffers, DestructionWaitsForQueuedWorkOnTheDevice) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  constexpr std::size_t n = std::size_t{32} << 20;
  const std::vector<std::byte> host(n, std::byte{7});
  Stream s(ids[0]);
  DeviceBuffer ahead(ids[0], n);
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 4; ++i) s.copy_async(ahead.data(), host.data(), n);  // keeps the stream busy
    {
      DeviceBuffer doomed(ids[0], n);
      s.copy_async(doomed.data(), host.data(), n);
    }
    EXPECT_TRUE(s.idle()) << "round " << round << ": the buffer was freed before the copy into it ran";
  }
  {
    PinnedBuffer staging(ids[0], n);
    for (int i = 0; i < 4; ++i) s.copy_async(ahead.data(), host.data(), n);
    s.copy_async(ahead.data(), staging.data(), n);
  }
  EXPECT_TRUE(s.idle()) << "the pinned buffer was freed before the copy from it ran";
}

// A direct peer copy runs on a stream of either device: freeing the buffer on the other device
// waits for it too (it waited for its own device's streams only: a heap-use-after-free).
TEST(Buffers, DestructionWaitsForPeerCopiesQueuedOnTheOtherDevice) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  peers.enable_peer_access(ids[0], ids[1]);
  constexpr std::size_t n = std::size_t{32} << 20;
  const std::vector<std::byte> host(n, std::byte{7});
  DeviceBuffer ahead(ids[0], n), source(ids[0], n);
  Stream s(ids[0]);
  for (int i = 0; i < 4; ++i) s.copy_async(ahead.data(), host.data(), n);  // keeps the stream busy
  {
    DeviceBuffer doomed(ids[1], n);
    EXPECT_EQ(peers.copy_peer_async(doomed.data(), ids[1], source.data(), ids[0], n, s).path,
              CopyPath::direct_peer);
  }
  EXPECT_TRUE(s.idle()) << "the buffer was freed before the peer copy into it ran";
  for (int i = 0; i < 4; ++i) s.copy_async(ahead.data(), host.data(), n);
  {
    DeviceBuffer doomed(ids[1], n);
    peers.copy_peer_async(source.data(), ids[0], doomed.data(), ids[1], n, s);
  }
  EXPECT_TRUE(s.idle()) << "the buffer was freed before the peer copy out of it ran";
}

}  // namespace
}  // namespace ringkernel
