// Copyright RingKernel authors.
// Host memory that an allocator puts right after (or right before) a host device's allocation is
// host memory, not the end of that allocation (nor its start). glibc's chunk headers keep objects apart; allocators with size
// classes (jemalloc, tcmalloc, the sanitizers') put them side by side. This binary replaces the
// aligned operator new (which host device memory comes from) with such an allocator: a bump
// allocator without headers. Its own executable: the replacement is program-wide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/buffers.h"
#include "ringkernel/error.h"
#include "ringkernel/stream.h"

namespace {

alignas(256) unsigned char arena[std::size_t{4} << 20];
std::size_t arena_used = 0;
std::mutex arena_mutex;

void* bump(std::size_t bytes, std::align_val_t align) noexcept {
  const auto a = static_cast<std::size_t>(align);
  std::lock_guard lock(arena_mutex);
  const std::size_t start = (arena_used + a - 1) / a * a;
  if (bytes > sizeof arena - start) return nullptr;
  arena_used = start + bytes;
  return arena + start;
}

}  // namespace

// Freed memory is not reused: the arena is large enough for this test.
void* operator new(std::size_t bytes, std::align_val_t align) {
  if (void* p = bump(bytes, align)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t bytes, std::align_val_t align, const std::nothrow_t&) noexcept {
  return bump(bytes, align);
}
void operator delete(void*, std::align_val_t) noexcept {}
void operator delete(void*, std::size_t, std::align_val_t) noexcept {}
void operator delete(void*, std::align_val_t, const std::nothrow_t&) noexcept {}

namespace ringkernel {
namespace {

TEST(HostMemoryNextToDeviceMemory, IsHostMemoryToCopies) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  constexpr std::size_t n = 4096;
  DeviceBuffer device(ids[0], n);
  auto* host = static_cast<std::uint8_t*>(::operator new(n, std::align_val_t{256}));
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::uint8_t>(i * 7);
  Stream s(ids[0]);
  s.copy_async(device.data(), host, n);  // was: out of range, "source range [4096, 4096 + 4096)"
  s.synchronize();
  std::vector<std::uint8_t> back(n);
  device.download(back.data(), n);
  EXPECT_TRUE(std::equal(back.begin(), back.end(), host));
  s.copy_async(host, device.data(), n);  // and as destination
  s.synchronize();
  ::operator delete(host, std::align_val_t{256});
}

// And host memory right before a buffer's block: a host range that ends exactly where the block
// starts is host memory; one byte more runs into the buffer (the reviewer's case: `other.bytes() - 16`
// with 16 and 17 bytes, here on memory the program owns rather than glibc's chunk header).
TEST(HostMemoryNextToDeviceMemory, RangeEndingAtABlockIsHostMemoryOneByteMoreIsNot) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  constexpr std::size_t n = 4096;
  Stream s(ids[0]);
  auto* host = static_cast<std::uint8_t*>(::operator new(n, std::align_val_t{256}));
  DeviceBuffer device(ids[0], 64);
  ASSERT_EQ(device.bytes(), reinterpret_cast<std::byte*>(host + n)) << "the arena put something between them";
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::uint8_t>(i * 7);
  std::vector<std::uint8_t> back(n, 0);
  s.copy_async(back.data(), host, n);  // the whole host block, up to the buffer's first byte
  s.copy_async(device.data(), host + n - 16, 16);
  s.synchronize();
  EXPECT_TRUE(std::equal(back.begin(), back.end(), host));
  device.upload(host + n - 16, 16);
  device.download(host + n - 16, 16);
  EXPECT_RK_ERROR(s.copy_async(back.data(), host, n + 1), ringkernel::errc::out_of_range,
                  "runs into the allocation of 64 bytes");
  EXPECT_RK_ERROR(s.copy_async(host + n - 16, device.data(), 17), ringkernel::errc::out_of_range, "destination range [");
  EXPECT_RK_ERROR(device.upload(host + n - 16, 17), ringkernel::errc::out_of_range, "host pointer range [");
  EXPECT_RK_ERROR(device.download(host + n - 16, 17), ringkernel::errc::out_of_range, "host pointer range [");
  s.synchronize();
  ::operator delete(host, std::align_val_t{256});
}

}  // namespace
}  // namespace ringkernel
