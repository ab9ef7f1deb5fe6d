// Copyright RingKernel authors.
// The CUDA backend's allocation table (runtime/src/cuda_allocations.h) on addresses it was told of,
// which are never dereferenced: so it runs without a GPU (label unit), where the driver, asked about
// them, knows none, as it knows none of these low addresses on a GPU machine. What the driver adds
// there (the device of memory RingKernel did not allocate, blocks that start at an aligned end) is
// the gpu-labelled CudaBackend tests' part, on real allocations.
#include "cuda_allocations.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "expect_error.h"

namespace {

using ringkernel::errc;
using ringkernel::detail::CudaAllocations;

// Every address used lies below 0x1400, far below vm.mmap_min_addr's defaults (64 KiB on x86-64,
// 32 KiB on arm64), where nothing can be mapped: neither host nor device memory.
const void* at(std::uintptr_t address) { return reinterpret_cast<const void*>(address); }
constexpr std::uintptr_t block = 0x1000;  // 256-byte aligned, as cudaMalloc's blocks are

TEST(CudaAllocations, OwnerIsTheTablesUntilRemovedThenTheDriversAnswer) {
  CudaAllocations table;
  EXPECT_EQ(table.owner_of(at(block)), -1);
  table.add(at(block), 1, 100);
  EXPECT_EQ(table.owner_of(at(block)), 1);
  EXPECT_EQ(table.owner_of(at(block + 99)), 1);
  EXPECT_EQ(table.owner_of(at(block + 100)), 1) << "one past the end is the allocation's (an empty range there)";
  EXPECT_EQ(table.owner_of(at(block + 101)), -1) << "padding is nobody's";
  EXPECT_EQ(table.owner_of(at(block - 1)), -1);
  table.remove(at(block));
  EXPECT_EQ(table.owner_of(at(block)), -1);
  table.remove(at(block));  // twice: nothing to remove, no effect
  EXPECT_EQ(table.owner_of(at(block + 50)), -1);
}

TEST(CudaAllocations, RangesInsideAnAllocationPassUpToItsEnd) {
  CudaAllocations table;
  table.add(at(block), 0, 100);
  table.check_range(0, at(block), 100, "copy", "source", 0);
  table.check_range(0, at(block + 40), 60, "copy", "source", 0);
  table.check_range(0, at(block + 100), 0, "copy", "source", 0);  // empty, at the end
  EXPECT_RK_ERROR(table.check_range(0, at(block + 8), 93, "copy", "source", 0), errc::out_of_range,
                  "source range [8, 8 + 93) exceeds its allocation of 100 bytes");
  EXPECT_RK_ERROR(table.check_range(0, at(block + 100), 1, "copy", "source", 0), errc::out_of_range,
                  "source range [100, 100 + 1) exceeds its allocation of 100 bytes");
}

TEST(CudaAllocations, AnotherDevicesMemoryIsNamed) {
  CudaAllocations table;
  table.add(at(block), 1, 256);
  EXPECT_RK_ERROR(table.check_range(0, at(block + 16), 16, "copy", "destination", 0), errc::invalid_argument,
                  "is memory of device 1, not of device 0");
  table.check_range(1, at(block + 16), 16, "copy", "destination", 1);
}

TEST(CudaAllocations, ARangeStartingInTheBlocksPaddingIsAnOverrun) {
  CudaAllocations table;
  table.add(at(block), 0, 100);
  EXPECT_RK_ERROR(table.check_range(0, at(block + 150), 8, "copy", "destination", 0), errc::out_of_range,
                  "starts 50 bytes past the end of its allocation of 100 bytes");
  EXPECT_RK_ERROR(table.check_range(0, at(block + 255), 0, "copy", "destination", 0), errc::out_of_range,
                  "starts 155 bytes past the end of its allocation of 100 bytes");
  // From the next 256-byte boundary on, another block may lie: the driver's to say, and it knows
  // none here.
  EXPECT_RK_ERROR(table.check_range(0, at(block + 256), 8, "copy", "destination", 0), errc::invalid_argument,
                  "is not memory of device 0");
}

TEST(CudaAllocations, BlocksBackToBackEachKeepTheirOwnBytes) {
  CudaAllocations table;
  table.add(at(block), 0, 256);
  table.add(at(block + 256), 1, 512);
  EXPECT_EQ(table.owner_of(at(block + 255)), 0);
  EXPECT_EQ(table.owner_of(at(block + 256)), 1) << "the address where one block ends and the next starts";
  table.check_range(1, at(block + 256), 512, "copy", "source", 1);
  EXPECT_RK_ERROR(table.check_range(0, at(block + 128), 256, "copy", "source", 0), errc::out_of_range,
                  "source range [128, 128 + 256) exceeds its allocation of 256 bytes");
  table.remove(at(block + 256));
  EXPECT_EQ(table.owner_of(at(block + 256)), 0) << "the end of the first, once the second is gone";
}

TEST(CudaAllocations, NullAndUnknownAddressesAreRefused) {
  CudaAllocations table;
  EXPECT_RK_ERROR(table.check_range(0, nullptr, 0, "copy", "source", 0), errc::invalid_argument, "source is null");
  EXPECT_RK_ERROR(table.check_range(2, at(block), 4, "fill", "buffer", 2), errc::invalid_argument,
                  "is not memory of device 2");
}

}  // namespace
