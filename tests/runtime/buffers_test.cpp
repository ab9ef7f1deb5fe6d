// Copyright RingKernel authors.
// DeviceBuffer and PinnedBuffer on the host backend: impossible sizes are refused, moved-from
// buffers say so, and a buffer outlives the work already queued on its device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
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
  const test::RestoreHostConfig restore;
  HostBackendConfig config;
  config.device_count = 1;
  config.memory_per_device = max_size;  // no capacity limit stops the allocation first
  configure_host_backend(config);
  const int id = devices(Backend::host).at(0).id;
  for (const std::size_t bytes : {max_size, max_size - 100}) {
    EXPECT_RK_ERROR(PinnedBuffer(id, bytes), errc::out_of_memory, "PinnedBuffer::PinnedBuffer");
    EXPECT_RK_ERROR(DeviceBuffer(id, bytes), errc::out_of_memory, "DeviceBuffer::DeviceBuffer");
  }
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

// The argument checks of upload and download: a null host pointer with bytes to copy, and a range
// past the end of the buffer (also one whose offset + bytes wraps around SIZE_MAX) are refused, and
// the buffer is left as it was.
TEST(Buffers, UploadDownloadRefuseNullAndRangesBeyondTheBuffer) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  const std::string dev = std::to_string(ids[0]);
  const auto initial = test::pattern(64, 5);
  DeviceBuffer b(ids[0], 64);
  b.upload(initial.data(), 64);
  EXPECT_RK_ERROR(b.upload(nullptr, 4), errc::invalid_argument,
                  "DeviceBuffer::upload (device " + dev + "): invalid argument: host pointer is null");
  EXPECT_RK_ERROR(b.download(nullptr, 4), errc::invalid_argument,
                  "DeviceBuffer::download (device " + dev + "): invalid argument: host pointer is null");
  // Null comes first, before the range (the backend's own check of the host range would only see
  // the null pointer of a range that fits).
  EXPECT_RK_ERROR(b.upload(nullptr, 8, 60), errc::invalid_argument, "host pointer is null");
  EXPECT_RK_ERROR(b.download(nullptr, 2, max_size), errc::invalid_argument, "host pointer is null");
  b.upload(nullptr, 0);  // nothing to copy: a null pointer is fine
  std::vector<std::uint8_t> host(64, 0xee);
  EXPECT_RK_ERROR(b.upload(host.data(), 0, 65), errc::out_of_range,
                  "DeviceBuffer::upload (device " + dev +
                      "): out of range: range [65, 65 + 0) exceeds the buffer of 64 bytes");
  EXPECT_RK_ERROR(b.upload(host.data(), 8, 60), errc::out_of_range, "range [60, 60 + 8) exceeds the buffer of 64 bytes");
  EXPECT_RK_ERROR(b.upload(host.data(), 65), errc::out_of_range, "range [0, 0 + 65) exceeds the buffer of 64 bytes");
  EXPECT_RK_ERROR(b.download(host.data(), 2, max_size), errc::out_of_range,
                  "DeviceBuffer::download (device " + dev + "): out of range: range [" + std::to_string(max_size) + ", " +
                      std::to_string(max_size) + " + 2) exceeds the buffer of 64 bytes");
  EXPECT_RK_ERROR(b.upload(host.data(), max_size, 1), errc::out_of_range, "exceeds the buffer of 64 bytes");
  EXPECT_EQ(host, std::vector<std::uint8_t>(64, 0xee)) << "a refused download wrote the host memory";
  b.upload(host.data(), 0, 64);  // an empty range at the end is fine
  std::vector<std::uint8_t> back(64);
  b.download(back.data(), 64);
  EXPECT_EQ(back, initial) << "a refused upload changed the buffer";
  b.download(back.data() + 60, 4, 60);  // the last bytes exactly
  EXPECT_EQ(back, initial);
}

// A pinned buffer of 0 bytes owns no memory but says its device and size; size() is the size asked
// for. Moving a buffer into itself (through a reference, as a swap may) keeps it as it was.
TEST(Buffers, EmptyPinnedBufferAndSelfMoveAssignment) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PinnedBuffer empty(ids[1], 0);
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.device(), ids[1]);
  PinnedBuffer pinned(ids[0], 48);
  EXPECT_EQ(pinned.size(), 48u);
  EXPECT_EQ(PinnedBuffer().size(), 0u);
  std::memset(pinned.data(), 0x3c, 48);
  void* const pinned_data = pinned.data();
  PinnedBuffer& pinned_alias = pinned;
  pinned = std::move(pinned_alias);
  EXPECT_EQ(pinned.data(), pinned_data);
  EXPECT_EQ(pinned.size(), 48u);
  EXPECT_EQ(pinned.device(), ids[0]);
  EXPECT_EQ(static_cast<const unsigned char*>(pinned.data())[47], 0x3c);

  const auto initial = test::pattern(64, 9);
  DeviceBuffer device_buffer(ids[1], 64);
  device_buffer.upload(initial.data(), 64);
  void* const device_data = device_buffer.data();
  DeviceBuffer& device_alias = device_buffer;
  device_buffer = std::move(device_alias);
  EXPECT_EQ(device_buffer.data(), device_data);
  EXPECT_EQ(device_buffer.size(), 64u);
  EXPECT_EQ(device_buffer.device(), ids[1]);
  std::vector<std::uint8_t> back(64);
  device_buffer.download(back.data(), 64);
  EXPECT_EQ(back, initial);
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

/// An address as the runtime's messages print it.
std::string hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

/// "[p, p + n)" as the runtime's messages print a range.
std::string range(const void* p, std::size_t n) { return "[" + hex(p) + ", " + hex(p) + " + " + std::to_string(n) + ")"; }

// The host side of an upload or download that overlaps the buffer's own range is refused, as
// Stream::copy_async and PeerMemory::copy_peer refuse overlap on one device: it was accepted and
// copied with memcpy (AddressSanitizer: memcpy-param-overlap; cudaMemcpy forbids it too).
TEST(Buffers, HostSideOverlappingTheBufferRangeIsRefused) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  constexpr std::size_t n = 1000;
  const auto initial = test::pattern(n, 3);
  DeviceBuffer a(ids[0], n);
  a.upload(initial.data(), n);
  const std::string dev = std::to_string(ids[0]);
  EXPECT_RK_ERROR(a.upload(a.bytes(), n - 4, 4), errc::overlapping_ranges,
                  "DeviceBuffer::upload (device " + dev + "): overlapping ranges: source (the host pointer) " +
                      range(a.bytes(), n - 4) + " and destination (offset 4 of this buffer) " +
                      range(a.bytes() + 4, n - 4) + " overlap on device " + dev);
  EXPECT_RK_ERROR(a.upload(a.bytes() + 1, n - 1, 0), errc::overlapping_ranges, "DeviceBuffer::upload");
  EXPECT_RK_ERROR(a.upload(a.data(), 16), errc::overlapping_ranges, "DeviceBuffer::upload");
  EXPECT_RK_ERROR(a.download(a.bytes() + 1, n - 1), errc::overlapping_ranges,
                  "DeviceBuffer::download (device " + dev + "): overlapping ranges: source (offset 0 of this buffer) " +
                      range(a.bytes(), n - 1) + " and destination (the host pointer) " +
                      range(a.bytes() + 1, n - 1) + " overlap on device " + dev);
  EXPECT_RK_ERROR(a.download(a.bytes() + 10, 20, 15), errc::overlapping_ranges, "DeviceBuffer::download");
  std::vector<std::uint8_t> back(n);
  a.download(back.data(), n);
  EXPECT_EQ(back, initial) << "a refused transfer changed the buffer";

  // Adjacent and disjoint ranges of one buffer are not overlap: copied as memcpy would.
  auto expected = initial;
  a.upload(a.bytes(), 500, 500);  // [500, 1000) = [0, 500)
  std::memcpy(expected.data() + 500, expected.data(), 500);
  a.download(a.bytes() + 100, 100, 0);  // [100, 200) = [0, 100)
  std::memcpy(expected.data() + 100, expected.data(), 100);
  a.upload(a.bytes() + 900, 50, 300);  // [300, 350) = [900, 950)
  std::memcpy(expected.data() + 300, expected.data() + 900, 50);
  a.download(back.data(), n);
  EXPECT_EQ(back, expected);

  // Another buffer, of this device or another device of the backend, is a host side as before.
  DeviceBuffer b(ids[0], 64), c(ids[1], 64);
  b.upload(a.data(), 64);
  c.upload(a.bytes() + 64, 64);
  b.download(a.bytes() + 128, 64);
  std::memcpy(expected.data() + 128, expected.data(), 64);
  std::vector<std::uint8_t> small(64);
  c.download(small.data(), 64);
  EXPECT_TRUE(std::equal(small.begin(), small.end(), expected.begin() + 64));
  a.download(back.data(), n);
  EXPECT_EQ(back, expected);
}

// A buffer made before configure_host_backend() given memory of a buffer made after it: the error
// named one id for both devices ("is memory of device 0, which device 0 cannot use").
TEST(Buffers, HostSideOfAnotherHostConfigurationSaysWhichIsOlder) {
  const test::RestoreHostConfig restore;
  const auto before = test::use_host_devices(1, HostTopology::none);
  DeviceBuffer old_buffer(before[0], 64);
  const auto now = test::use_host_devices(1, HostTopology::none);
  DeviceBuffer new_buffer(now[0], 64);
  const std::string newer = " is memory of device " + std::to_string(now[0]) +
                            " of the current host configuration, but this buffer of device " +
                            std::to_string(before[0]) + " is of an earlier one (created before configure_host_backend())";
  EXPECT_RK_ERROR(old_buffer.upload(new_buffer.data(), 16), errc::invalid_argument,
                  "DeviceBuffer::upload (device " + std::to_string(before[0]) + "): invalid argument: host pointer " +
                      hex(new_buffer.data()) + newer);
  EXPECT_RK_ERROR(old_buffer.download(new_buffer.data(), 16), errc::invalid_argument,
                  "DeviceBuffer::download (device " + std::to_string(before[0]) + "): invalid argument: host pointer " +
                      hex(new_buffer.data()) + newer);
  EXPECT_RK_ERROR(new_buffer.upload(old_buffer.data(), 16), errc::invalid_argument,
                  "host pointer " + hex(old_buffer.data()) +
                      " is memory of a host device of an earlier host configuration, which this buffer of device " +
                      std::to_string(now[0]) + " cannot use");
}

}  // namespace
}  // namespace ringkernel
