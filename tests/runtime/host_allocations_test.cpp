// Copyright RingKernel authors.
// The host backend's allocation table (runtime/src/host_allocations.h) on addresses it was told of,
// which it never dereferences: the size of a block, which addresses a block's padding gives its
// owner, and host ranges that wrap around the address space.
#include "host_allocations.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "expect_error.h"

namespace {

using ringkernel::errc;
using ringkernel::detail::HostAllocations;

const void* at(std::uintptr_t address) { return reinterpret_cast<const void*>(address); }
constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
constexpr std::uintptr_t block = 0x10000;  // 256-byte aligned, as the backend's blocks are

// At least 256 bytes past every buffer's end (rounding up alone left 0 bytes for 255, 511, ...).
TEST(HostAllocations, EveryBlockKeepsMoreThan256BytesPastTheEnd) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{256},
                              std::size_t{511}, std::size_t{1016}, std::size_t{1023}, std::size_t{4096}}) {
    const std::size_t b = HostAllocations::block_bytes(n);
    EXPECT_EQ(b % 256, 0u) << n;
    EXPECT_GT(b - n, 256u) << n;
    EXPECT_LT(b - n, 513u) << n;
  }
  EXPECT_EQ(HostAllocations::block_bytes(255), 512u);
  EXPECT_EQ(HostAllocations::block_bytes(256), 768u);
}

// Near SIZE_MAX the size is refused (0), never wrapped to a small block.
TEST(HostAllocations, BlockSizeNearTheLargestSizeIsRefusedNotWrapped) {
  EXPECT_EQ(HostAllocations::block_bytes(max - 512), max - 255);
  EXPECT_EQ(HostAllocations::block_bytes(max - 511), 0u);
  EXPECT_EQ(HostAllocations::block_bytes(max - 256), 0u);
  EXPECT_EQ(HostAllocations::block_bytes(max - 255), 0u);
  EXPECT_EQ(HostAllocations::block_bytes(max), 0u);
}

// The padding is the owner's: owner_of names it, check_range refuses a range that starts there (for
// the owner and for any other device), and the first byte past the block is no one's.
TEST(HostAllocations, PaddingBelongsToItsBlock) {
  HostAllocations table;
  table.add(at(block), 1, 100);
  const std::size_t end = HostAllocations::block_bytes(100);
  EXPECT_EQ(table.owner_of(at(block - 1)), -1);
  EXPECT_EQ(table.owner_of(at(block)), 1);
  EXPECT_EQ(table.owner_of(at(block + 100)), 1);
  EXPECT_EQ(table.owner_of(at(block + 100 + 256)), 1);
  EXPECT_EQ(table.owner_of(at(block + end - 1)), 1);
  EXPECT_EQ(table.owner_of(at(block + end)), -1);
  table.check_range(1, at(block + 100), 0, "copy", "destination", 5);  // empty, at the end
  EXPECT_RK_ERROR(table.check_range(1, at(block + 100 + 256), 8, "Stream::copy_async", "destination", 5),
                  errc::out_of_range,
                  "Stream::copy_async (device 5): out of range: destination 0x10164 starts 256 bytes past the end "
                  "of its allocation of 100 bytes at 0x10000");
  EXPECT_RK_ERROR(table.check_range(0, at(block + 101), 0, "copy", "source", 4), errc::out_of_range,
                  "source 0x10065 starts 1 bytes past the end");
  EXPECT_RK_ERROR(table.check_range(0, at(block + 8), 8, "copy", "source", 4), errc::invalid_argument,
                  "source 0x10008 is memory of device 5, not of device 4 (pass 5 as its device)");
  EXPECT_EQ(table.remove(at(block), 0), std::nullopt);  // not device 0's
  EXPECT_EQ(table.remove(at(block), 1), 100u);
  EXPECT_EQ(table.owner_of(at(block + 100)), -1);
}

// A host range whose end wraps past the top of the address space is refused, whether or not a block
// lies in the part past the wrap; one that ends exactly at the top is checked as any other.
TEST(HostAllocations, HostRangesThatWrapAreRefused) {
  HostAllocations table;
  table.add(at(block), 0, 100);
  const std::uintptr_t top = std::numeric_limits<std::uintptr_t>::max() - 0xfff;  // 0xff...f000
  table.check_host_range(at(top), 0x1000, "copy", "source", 0);  // [top, 2^64): ends at the top
  EXPECT_RK_ERROR(table.check_host_range(at(top), 0x1001, "Stream::copy_async", "source", 3), errc::out_of_range,
                  "Stream::copy_async: out of range: source range [0xfffffffffffff000, 0xfffffffffffff000 + 4097) "
                  "wraps around the end of the address space");
  EXPECT_RK_ERROR(table.check_host_range(at(top), 0x1000 + block + 1, "copy", "destination", 3), errc::out_of_range,
                  "wraps around");
  EXPECT_RK_ERROR(table.check_host_range(at(block - 16), max, "copy", "source", 3), errc::out_of_range,
                  "wraps around");
  // Not wrapping: below the block, into it, and past its padding.
  table.check_host_range(at(block - 64), 64, "copy", "source", 3);
  EXPECT_RK_ERROR(table.check_host_range(at(block - 64), 65, "copy", "source", 3), errc::out_of_range,
                  "runs into the allocation of 100 bytes at 0x10000 of device 3");
  table.check_host_range(at(block + HostAllocations::block_bytes(100)), 64, "copy", "source", 3);
}

}  // namespace
