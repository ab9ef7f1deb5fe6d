// Copyright RingKernel authors.
// Raw device addresses on the host backend: a range past a buffer's end, one that starts in the
// padding of its block, and a "host" range that runs into device memory are refused
// (errc::out_of_range) by every call that takes raw pointers, before anything is copied; legal edge
// cases still copy. Also: 0-byte copies with null pointers, and what PeerMemory says of memory that
// is not the device's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/buffers.h"
#include "ringkernel/error.h"
#include "ringkernel/event.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/stream.h"

namespace ringkernel {
namespace {

std::string hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

bool all_equal(const std::vector<std::uint8_t>& v, std::uint8_t value) {
  return std::all_of(v.begin(), v.end(), [value](std::uint8_t b) { return b == value; });
}

class DeviceRanges : public ::testing::Test {
 protected:
  void SetUp() override { ids = test::use_host_devices(2, HostTopology::all); }
  std::vector<int> ids;
};

// The audit's repro: an off-by-stride write 8 bytes past a buffer's end, and one that starts in the
// gap before the next buffer of the device and runs into it. Both corrupted the heap (glibc aborted
// in free), and the neighbour's first bytes became 0xff.
TEST_F(DeviceRanges, WritePastEndIsRefusedAndLeavesTheNeighbour) {
  Stream s(ids[0]);
  DeviceBuffer d(ids[0], 1000), neighbour(ids[0], 1000);
  std::vector<std::uint8_t> h(64, 0xff), zeros(1000, 0), nb(1000, 0xee);
  d.upload(zeros.data(), zeros.size());
  neighbour.upload(zeros.data(), zeros.size());
  EXPECT_RK_ERROR(s.copy_async(d.bytes() + 1008, h.data(), 64), errc::out_of_range,
                  "Stream::copy_async (device " + std::to_string(ids[0]) + "): out of range: destination " +
                      hex(d.bytes() + 1008) + " starts 8 bytes past the end of its allocation of 1000 bytes at " + hex(d.data()));
  // Into whichever of the two lies above the other, from 16 bytes before it.
  DeviceBuffer& low = d.bytes() < neighbour.bytes() ? d : neighbour;
  DeviceBuffer& high = d.bytes() < neighbour.bytes() ? neighbour : d;
  std::byte* gap = high.bytes() - 16;
  EXPECT_RK_ERROR(s.copy_async(gap, h.data(), 64), errc::out_of_range, "Stream::copy_async");
  EXPECT_RK_ERROR(s.copy_async(gap, h.data(), 64), errc::out_of_range, "of 1000 bytes");
  s.synchronize();
  high.download(nb.data(), nb.size());
  EXPECT_TRUE(all_equal(nb, 0)) << "the neighbour was written";
  low.download(nb.data(), nb.size());
  EXPECT_TRUE(all_equal(nb, 0)) << "the buffer below was written";
}

// Every buffer's block keeps at least 256 bytes past its end: an overrun that starts up to 256 bytes
// past the end is refused whatever the size (rounding up alone left 0 to 255 bytes: for 255 or 511
// bytes the address past the end was already host memory, for 1016 a write 8 bytes past the end
// landed in the allocator's next chunk).
TEST_F(DeviceRanges, EveryBufferKeepsPaddingPastItsEnd) {
  Stream s(ids[0]);
  std::vector<std::uint8_t> h(8, 0xff), r(8, 0);
  for (const std::size_t n : {1u, 255u, 256u, 511u, 1016u, 1023u, 4096u}) {
    SCOPED_TRACE("buffer of " + std::to_string(n) + " bytes");
    DeviceBuffer b(ids[0], n), neighbour(ids[0], 256);
    const std::vector<std::uint8_t> zeros(std::max<std::size_t>(n, 256), 0);
    std::vector<std::uint8_t> back(n, 0xee);
    b.upload(zeros.data(), n);
    neighbour.upload(zeros.data(), 256);
    std::vector<std::size_t> starts{255, 256};  // past the end
    for (std::size_t k = 0; k <= 8; ++k) starts.push_back(k);
    for (const std::size_t k : starts) {
      SCOPED_TRACE("8 bytes from " + std::to_string(k) + " bytes past the end");
      std::byte* p = b.bytes() + n + k;
      EXPECT_RK_ERROR(s.copy_async(r.data(), p, 8), errc::out_of_range, "source ");
      EXPECT_RK_ERROR(s.copy_async(p, h.data(), 8), errc::out_of_range, "destination ");
      EXPECT_RK_ERROR(neighbour.download(p, 8), errc::out_of_range, "host pointer ");
      EXPECT_RK_ERROR(neighbour.upload(p, 8), errc::out_of_range, "host pointer ");
    }
    s.synchronize();
    b.download(back.data(), n);
    EXPECT_TRUE(all_equal(back, 0)) << "the buffer was written";
    back.assign(256, 0xee);
    neighbour.download(back.data(), 256);
    EXPECT_TRUE(all_equal(back, 0)) << "the neighbour was written";
  }
}

TEST_F(DeviceRanges, ReadPastEndIsRefused) {
  Stream s(ids[0]);
  DeviceBuffer d(ids[0], 1000);
  std::vector<std::uint8_t> r(64, 0);
  EXPECT_RK_ERROR(s.copy_async(r.data(), d.bytes() + 1008, 64), errc::out_of_range,
                  "source " + hex(d.bytes() + 1008) + " starts 8 bytes past the end of its allocation of 1000 bytes at " + hex(d.data()));
  // Starting in the block's padding, however short the range (an empty one too).
  EXPECT_RK_ERROR(s.copy_async(r.data(), d.bytes() + 1001, 7), errc::out_of_range, "starts 1 bytes past the end of its allocation of 1000 bytes");
  EXPECT_RK_ERROR(s.copy_async(d.bytes() + 1001, r.data(), 7), errc::out_of_range, "destination ");
  EXPECT_RK_ERROR(s.copy_async(d.bytes() + 1001, r.data(), 0), errc::out_of_range, "starts 1 bytes past the end of its allocation of 1000 bytes");
  // Starting inside and running past the end (already refused before).
  EXPECT_RK_ERROR(s.copy_async(r.data(), d.bytes() + 990, 11), errc::out_of_range,
                  "source range [990, 990 + 11) exceeds its allocation of 1000 bytes");
}

// Host memory right before a buffer (glibc's chunk header) whose range runs into the buffer.
TEST_F(DeviceRanges, HostRangeIntoDeviceMemoryIsRefused) {
  Stream s(ids[1]);
  DeviceBuffer d(ids[0], 1000);
  std::vector<std::uint8_t> r(64, 0), zeros(1000, 0), back(1000, 0xee);
  d.upload(zeros.data(), zeros.size());
  EXPECT_RK_ERROR(s.copy_async(r.data(), d.bytes() - 16, 64), errc::out_of_range,
                  "Stream::copy_async (device " + std::to_string(ids[0]) + "): out of range: source range [" +
                      hex(d.bytes() - 16) + ", " + hex(d.bytes() - 16) + " + 64) runs into the allocation of 1000 bytes at " +
                      hex(d.data()) + " of device " + std::to_string(ids[0]));
  std::vector<std::uint8_t> h(64, 0xff);
  EXPECT_RK_ERROR(s.copy_async(d.bytes() - 16, h.data(), 64), errc::out_of_range, "destination range [");
  s.synchronize();
  d.download(back.data(), back.size());
  EXPECT_TRUE(all_equal(back, 0));
}

TEST_F(DeviceRanges, BufferTransfersCheckTheHostPointer) {
  DeviceBuffer d(ids[0], 1000), other(ids[0], 1000);
  std::vector<std::uint8_t> h(64, 1);
  EXPECT_RK_ERROR(d.upload(other.bytes() + 1008, 64), errc::out_of_range,
                  "DeviceBuffer::upload (device " + std::to_string(ids[0]) + "): out of range: host pointer " +
                      hex(other.bytes() + 1008) + " starts 8 bytes past the end of its allocation of 1000 bytes at " + hex(other.data()));
  EXPECT_RK_ERROR(d.download(other.bytes() + 1001, 7), errc::out_of_range, "DeviceBuffer::download");
  // 16 bytes below `other` is host memory, or d's padding where the allocator put d's block right
  // below other's (ThreadSanitizer's allocator does): refused either way, each with its own words.
  try {
    d.download(other.bytes() - 16, 64);
    ADD_FAILURE() << "no ringkernel::Error from a host range running into another buffer";
  } catch (const ringkernel::Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.code(), errc::out_of_range) << m;
    EXPECT_TRUE(m.find("runs into the allocation of 1000 bytes at " + hex(other.data())) != std::string::npos ||
                m.find("past the end of its allocation of 1000 bytes at " + hex(d.data())) != std::string::npos)
        << m;
  }
  EXPECT_RK_ERROR(d.upload(other.bytes() + 990, 11), errc::out_of_range, "exceeds its allocation of 1000 bytes");
  other.upload(h.data(), 64);
  d.upload(other.bytes() + 936, 64);  // another buffer's last bytes are fine as the host side
  std::vector<std::uint8_t> back(1000, 0);
  d.download(back.data(), 1000);
}

TEST_F(DeviceRanges, PeerCopiesRefuseTheBlockPadding) {
  PeerMemory peers;
  DeviceBuffer a(ids[0], 1000), b(ids[1], 1000);
  EXPECT_RK_ERROR(peers.copy_peer(b.bytes() + 1008, ids[1], a.data(), ids[0], 8), errc::out_of_range,
                  "PeerMemory::copy_peer (device " + std::to_string(ids[1]) + "): out of range: destination " +
                      hex(b.bytes() + 1008) + " starts 8 bytes past the end of its allocation of 1000 bytes at " + hex(b.data()));
  EXPECT_RK_ERROR(peers.copy_peer(b.data(), ids[1], a.bytes() + 1001, ids[0], 0), errc::out_of_range, "source ");
  Stream s(ids[0]);
  EXPECT_RK_ERROR(peers.copy_peer_async(b.bytes() + 1008, ids[1], a.data(), ids[0], 8, s), errc::out_of_range,
                  "PeerMemory::copy_peer_async");
}

TEST_F(DeviceRanges, LegalEdgesStillCopy) {
  PeerMemory peers;
  Stream s(ids[0]);
  DeviceBuffer d(ids[0], 1000), e(ids[1], 1000);
  const auto h = test::pattern(64, 3);
  std::vector<std::uint8_t> r(64, 0);
  s.copy_async(d.bytes() + 936, h.data(), 64);  // ends exactly at the end
  s.copy_async(r.data(), d.bytes() + 936, 64);
  s.copy_async(d.bytes() + 1000, h.data(), 0);  // empty, at the end
  s.copy_async(r.data(), d.bytes() + 1000, 0);
  s.synchronize();
  EXPECT_EQ(r, h);
  d.upload(h.data(), 64, 936);
  d.download(r.data(), 0, 1000);
  EXPECT_EQ(peers.copy_peer(e.bytes() + 936, ids[1], d.bytes() + 936, ids[0], 64).bytes, 64u);
  EXPECT_EQ(peers.copy_peer(e.bytes() + 1000, ids[1], d.bytes() + 1000, ids[0], 0).bytes, 0u);
  std::fill(r.begin(), r.end(), 0);
  e.download(r.data(), 64, 936);
  EXPECT_EQ(r, h);
  // Host memory right after a buffer and right before one: adjacent_heap_test.cpp (it needs an
  // allocator that puts host memory there).
}

// An empty DeviceBuffer's data() is null: copying 0 bytes of it is a no-op everywhere (as upload
// and cudaMemcpyAsync already did); devices, streams and non-empty ranges are still checked.
TEST_F(DeviceRanges, ZeroBytesWithNullPointersAreNoOps) {
  PeerMemory peers;
  Stream s(ids[0]);
  DeviceBuffer empty(ids[0], 0), a(ids[0], 16);
  ASSERT_EQ(empty.data(), nullptr);
  std::vector<float> none;
  s.copy_async(empty.data(), none.data(), 0);
  s.copy_async(nullptr, nullptr, 0);
  s.copy_async(a.data(), nullptr, 0);
  s.copy_async(nullptr, a.data(), 0);
  s.synchronize();
  empty.upload(none.data(), 0);
  empty.download(nullptr, 0);
  EXPECT_EQ(peers.copy_peer(nullptr, ids[1], nullptr, ids[0], 0).bytes, 0u);
  EXPECT_EQ(peers.copy_peer(nullptr, ids[0], a.data(), ids[0], 0).bytes, 0u);
  EXPECT_EQ(peers.copy_peer_async(nullptr, ids[1], nullptr, ids[0], 0, s).bytes, 0u);
  // Still checked: the device ids, the stream, a non-empty range, the other pointer.
  EXPECT_RK_ERROR(peers.copy_peer(nullptr, device_count(), nullptr, ids[0], 0), errc::invalid_device, "device id");
  Stream moved = std::move(s);
  EXPECT_RK_ERROR(s.copy_async(nullptr, nullptr, 0), errc::invalid_state, "moved from");
  EXPECT_RK_ERROR(moved.copy_async(nullptr, a.data(), 1), errc::invalid_argument, "destination is null");
  EXPECT_RK_ERROR(peers.copy_peer(nullptr, ids[1], a.data(), ids[0], 1), errc::invalid_argument, "destination is null");
  EXPECT_RK_ERROR(peers.copy_peer(nullptr, ids[1], a.bytes() + 17, ids[0], 0), errc::out_of_range,
                  "source " + hex(a.bytes() + 17) + " starts 1 bytes past the end");
}

// "is not memory of device 1" did not say whose it is, nor what to do.
TEST_F(DeviceRanges, PeerCopySaysWhoseMemoryItIs) {
  PeerMemory peers;
  DeviceBuffer a(ids[0], 64), b(ids[1], 64);
  EXPECT_RK_ERROR(peers.copy_peer(a.data(), ids[1], a.bytes() + 8, ids[0], 8), errc::invalid_argument,
                  "destination " + hex(a.data()) + " is memory of device " + std::to_string(ids[0]) +
                      ", not of device " + std::to_string(ids[1]) + " (pass " + std::to_string(ids[0]) +
                      " as its device)");
  PinnedBuffer pinned(ids[0], 64);
  EXPECT_RK_ERROR(peers.copy_peer(pinned.data(), ids[1], a.data(), ids[0], 8), errc::invalid_argument,
                  "destination " + hex(pinned.data()) + " is pinned host memory, not memory of device " +
                      std::to_string(ids[1]) + "; copy between host and device memory with Stream::copy_async");
  int on_stack = 0;
  EXPECT_RK_ERROR(peers.copy_peer(b.data(), ids[1], &on_stack, ids[0], 4), errc::invalid_argument,
                  "source " + hex(&on_stack) + " is not memory of device " + std::to_string(ids[0]) +
                      " (host memory, or memory RingKernel does not know); copy between host and device memory with Stream::copy_async");
}

// Objects of an older host configuration: one code (invalid_argument) for every call.
TEST(DeviceRangesReconfigured, OlderConfigurationIsInvalidArgumentEverywhere) {
  const auto before = test::use_host_devices(2, HostTopology::all);
  Stream old_stream(before[0]);
  Event old_event(before[0]);
  DeviceBuffer old_a(before[0], 16), old_b(before[1], 16);
  const auto now = test::use_host_devices(2, HostTopology::all);
  Stream stream(now[0]);
  Event event(now[0]);
  DeviceBuffer a(now[0], 16), b(now[1], 16);
  std::vector<std::uint8_t> host(16, 1);
  PeerMemory peers;
  EXPECT_RK_ERROR(old_event.record(stream), errc::invalid_argument, "Event::record");
  EXPECT_RK_ERROR(event.record(old_stream), errc::invalid_argument, "Event::record");
  EXPECT_RK_ERROR(stream.wait(old_event), errc::invalid_argument, "Stream::wait");
  EXPECT_RK_ERROR(old_stream.wait(event), errc::invalid_argument, "Stream::wait");
  EXPECT_RK_ERROR(old_stream.copy_async(a.data(), host.data(), 16), errc::invalid_argument, "Stream::copy_async");
  EXPECT_RK_ERROR(peers.copy_peer(b.data(), now[1], old_a.data(), now[0], 16), errc::invalid_argument,
                  "PeerMemory::copy_peer");
  EXPECT_RK_ERROR(peers.copy_peer_async(b.data(), now[1], a.data(), now[0], 16, old_stream), errc::invalid_argument,
                  "PeerMemory::copy_peer_async");
  // The host side of an upload or download too: the current configuration knows nothing of the
  // old buffer's range (nor would it of a CUDA buffer, which a host-backend upload read as host memory).
  EXPECT_RK_ERROR(a.upload(old_a.data(), 16), errc::invalid_argument,
                  "DeviceBuffer::upload (device " + std::to_string(now[0]) + "): invalid argument: host pointer " +
                      hex(old_a.data()) + " is memory of a host device of an earlier host configuration");
  EXPECT_RK_ERROR(a.download(old_b.data(), 16), errc::invalid_argument, "DeviceBuffer::download");
}

}  // namespace
}  // namespace ringkernel
