// Copyright RingKernel authors.
// The CUDA backend's allocation table (runtime/src/cuda_allocations.h) on addresses it was told of,
// which are never dereferenced: so it runs without a GPU (label unit), where the driver, asked about
// them, knows none, as it knows none of these low addresses on a GPU machine. What the driver adds
// there (the device of memory RingKernel did not allocate, blocks that start at an aligned end) is
// the gpu-labelled CudaBackend tests' part, on real allocations, and the part of the tests below that
// give the table their own driver answers (FakeDriver).
#include "cuda_allocations.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "expect_error.h"

namespace {

using ringkernel::errc;
using ringkernel::detail::CudaAllocations;

// Every address the real driver is asked about lies below 0x1400, far below vm.mmap_min_addr's
// defaults (64 KiB on x86-64, 32 KiB on arm64), where nothing can be mapped: neither host nor device
// memory. Host pages are 4 KiB at least: all of them lie in the page of `block`.
const void* at(std::uintptr_t address) { return reinterpret_cast<const void*>(address); }
constexpr std::uintptr_t block = 0x1000;  // 256-byte aligned, as cudaMalloc's blocks are

TEST(CudaAllocations, OwnerIsTheTablesUntilRemovedThenTheDriversAnswer) {
  CudaAllocations table;
  EXPECT_EQ(table.owner_of(at(block)), -1);
  table.add(at(block), 1, 100);
  EXPECT_EQ(table.owner_of(at(block)), 1);
  EXPECT_EQ(table.owner_of(at(block + 99)), 1);
  EXPECT_EQ(table.owner_of(at(block + 100)), 1) << "one past the end is the allocation's (an empty range there)";
  EXPECT_EQ(table.owner_of(at(block + 101)), 1) << "padding: the block's device, for check_range to refuse";
  EXPECT_EQ(table.owner_of(at(block + 255)), 1);
  EXPECT_EQ(table.owner_of(at(block + 256)), 1) << "in the block's host page, where the driver knows no block";
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
  // none here, in the host page of the block, where no host memory can lie either.
  EXPECT_RK_ERROR(table.check_range(0, at(block + 256), 8, "copy", "destination", 0), errc::out_of_range,
                  "starts 156 bytes past the end of its allocation of 100 bytes");
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

// The driver's answers, given by the test: what cudaPointerGetAttributes says (the device of the
// memory, -1 for an error or a memory type other than device) and what cuMemGetAddressRange says
// (the start of the block holding the address, 0 for none).
struct FakeDriver {
  int device = -1;
  std::uintptr_t block_start = 0;
};
constexpr std::size_t page = 4096;
FakeDriver fake;

CudaAllocations table_with_fake_driver(FakeDriver answers) {
  fake = answers;
  return CudaAllocations(CudaAllocations::Driver{[](const void*) noexcept { return fake.device; },
                                                 [](const void*, int) noexcept { return fake.block_start; }, page});
}

// What Stream::copy_async does with a pointer: the range check of the owner's device, none for
// host memory (owner -1), which the CUDA copy then reads or writes on the host.
void expect_overrun(const CudaAllocations& table, std::uintptr_t address, const char* message) {
  const int owner = table.owner_of(at(address));
  ASSERT_EQ(owner, 0) << "taken for host memory: the copy would touch device memory on the host";
  EXPECT_RK_ERROR(table.check_range(owner, at(address), 8, "copy", "destination", 0), errc::out_of_range, message);
}

// On an H200 (driver 13.0) cudaPointerGetAttributes took 150 and 200 bytes past a buffer of 100
// for host memory, and the copy faulted on the host. Whatever the driver says of a padding byte,
// it is the block's and an overrun.
TEST(CudaAllocations, PaddingIsTheBlocksWhateverTheDriverSaysOfIt) {
  for (const int device : {-1, 0})
    for (const std::uintptr_t start : {std::uintptr_t{0}, block, block + 128}) {
      SCOPED_TRACE("driver: device " + std::to_string(device) + ", block start " + std::to_string(start));
      auto table = table_with_fake_driver({device, start});
      table.add(at(block), 0, 100);
      expect_overrun(table, block + 101, "starts 1 bytes past the end of its allocation of 100 bytes");
      expect_overrun(table, block + 150, "starts 50 bytes past the end of its allocation of 100 bytes");
      expect_overrun(table, block + 200, "starts 100 bytes past the end of its allocation of 100 bytes");
      expect_overrun(table, block + 255, "starts 155 bytes past the end of its allocation of 100 bytes");
    }
}

// Past the next 256-byte boundary the driver decides: where it calls the address device memory and
// says the block still runs there (a block it rounded further), an overrun, also past the block's
// region; where it calls it no device memory, an overrun in that region, host memory past it.
TEST(CudaAllocations, PaddingPastTheBoundaryIsTheBlocksWhereTheDriverSaysItRuns) {
  auto runs = table_with_fake_driver({0, block});
  runs.add(at(block), 0, 100);
  expect_overrun(runs, block + 0x300, "starts 668 bytes past the end of its allocation of 100 bytes");
  expect_overrun(runs, block + 2 * page, "starts 8092 bytes past the end of its allocation of 100 bytes");
  auto host = table_with_fake_driver({-1, block});
  host.add(at(block), 0, 100);
  expect_overrun(host, block + 0x300, "starts 668 bytes past the end of its allocation of 100 bytes");
  EXPECT_EQ(host.owner_of(at(block + 2 * page)), -1) << "what no answer tells from host memory";
}

// In the region of the block's last byte (the fake's: one 4 KiB page), where the driver knows no
// device memory, there is no host memory either: an address of the device that nothing was
// allocated at, refused. (An H200 with
// driver 13.0 placed blocks of 100 bytes 512 bytes apart and knew nothing of the bytes between.)
TEST(CudaAllocations, InTheBlocksHostPageAnAddressNoBlockHoldsIsAnOverrun) {
  auto table = table_with_fake_driver({-1, 0});
  table.add(at(block), 0, 100);
  expect_overrun(table, block + 300, "starts 200 bytes past the end of its allocation of 100 bytes");
  expect_overrun(table, block + page - 1, "starts 3995 bytes past the end of its allocation of 100 bytes");
  EXPECT_EQ(table.owner_of(at(block + page)), -1) << "the next page may be host memory: the driver's answer";
}

// The real table's regions are 2 MiB (Driver::device_region_bytes): the rest of a large block's
// rounding, which the H200's driver (13.0) knew nothing of, is the block's too. The fake driver's
// regions are the 4 KiB `page` above; here as the real ones.
TEST(CudaAllocations, TheRestOfTheBlocksTwoMebibyteRegionIsAnOverrun) {
  constexpr std::size_t region = std::size_t{2} << 20;
  fake = {-1, 0};
  CudaAllocations table(CudaAllocations::Driver{[](const void*) noexcept { return fake.device; },
                                                [](const void*, int) noexcept { return fake.block_start; }, region});
  table.add(at(block), 0, 100);
  expect_overrun(table, block + 8192, "starts 8092 bytes past the end of its allocation of 100 bytes");
  expect_overrun(table, region - 1, "starts 2092955 bytes past the end of its allocation of 100 bytes");
  EXPECT_EQ(table.owner_of(at(region)), -1) << "the next region may be host memory: the driver's answer";
  CudaAllocations real;  // the driver's own answers, and its regions: none of these low addresses is known
  real.add(at(block), 0, 100);
  EXPECT_EQ(real.owner_of(at(block + 8192)), 0) << "past the host page, inside the block's 2 MiB region";
}

// Where the driver says another block holds it (either call), the address is that block's device's.
TEST(CudaAllocations, PastTheBoundaryAnotherBlockIsTheDriversToName) {
  for (const std::uintptr_t start : {std::uintptr_t{0}, block + 0x200}) {
    SCOPED_TRACE("cuMemGetAddressRange: block start " + std::to_string(start));
    auto table = table_with_fake_driver({0, start});
    table.add(at(block), 0, 100);
    EXPECT_EQ(table.owner_of(at(block + 0x300)), 0);
    table.check_range(0, at(block + 0x300), 8, "copy", "destination", 0);
  }
}

// A block the driver says starts right at an aligned end is its own (another device's here); where
// it says none does, the end is the buffer's and a range there overruns it.
TEST(CudaAllocations, AnAlignedEndIsTheNextBlocksOnlyWhereTheDriverSaysOneStartsThere) {
  auto next = table_with_fake_driver({1, block + 256});
  next.add(at(block), 0, 256);
  EXPECT_EQ(next.owner_of(at(block + 256)), 1);
  next.check_range(1, at(block + 256), 8, "copy", "source", 1);
  auto none = table_with_fake_driver({-1, 0});
  none.add(at(block), 0, 256);
  EXPECT_EQ(none.owner_of(at(block + 256)), 0);
  EXPECT_RK_ERROR(none.check_range(0, at(block + 256), 8, "copy", "source", 0), errc::out_of_range,
                  "source range [256, 256 + 8) exceeds its allocation of 256 bytes");
}

// Memory the driver says is another device's is named as that device's (it said "is not memory of
// device 0"), with the fix; host memory keeps "is not memory of device N".
TEST(CudaAllocations, TheDriversOtherDeviceIsNamed) {
  auto other = table_with_fake_driver({3, 0});
  EXPECT_RK_ERROR(other.check_range(0, at(block), 4, "copy", "destination", 0), errc::invalid_argument,
                  "destination 0x1000 is memory of device 3, not of device 0 (pass 3 as its device)");
  auto host = table_with_fake_driver({-1, 0});
  EXPECT_RK_ERROR(host.check_range(0, at(block), 4, "copy", "destination", 0), errc::invalid_argument,
                  "destination 0x1000 is not memory of device 0");
}

// A range from host memory (owner -1) that runs into one of the table's allocations is an overrun
// (as on the host backend); one that ends where the allocation starts is fine.
TEST(CudaAllocations, HostRangesIntoAnAllocationAreRefused) {
  CudaAllocations table;
  table.add(at(block), 1, 100);
  table.check_host_range(at(block - 64), 64, "copy", "source", 0);
  table.check_host_range(at(block - 64), 0, "copy", "source", 0);
  table.check_host_range(at(block + 0x1000), 64, "copy", "source", 0);
  EXPECT_RK_ERROR(table.check_host_range(at(block - 64), 65, "Stream::copy_async", "source", 5), errc::out_of_range,
                  "Stream::copy_async (device 6): out of range: source range [0xfc0, 0xfc0 + 65) runs into the "
                  "allocation of 100 bytes at 0x1000 of device 6");
  // A range that wraps around the top of the address space, into the allocation or not.
  const std::uintptr_t top = UINTPTR_MAX - 0xfff;
  table.check_host_range(at(top), 0x1000, "copy", "source", 0);  // ends exactly at the top
  EXPECT_RK_ERROR(table.check_host_range(at(top), 0x1001, "Stream::copy_async", "source", 5), errc::out_of_range,
                  "Stream::copy_async: out of range: source range [0xfffffffffffff000, 0xfffffffffffff000 + 4097) "
                  "wraps around the end of the address space");
  EXPECT_RK_ERROR(table.check_host_range(at(top), 0x2000 + 1, "copy", "source", 0), errc::out_of_range, "wraps around");
}

TEST(CudaAllocations, NullAndUnknownAddressesAreRefused) {
  CudaAllocations table;
  EXPECT_RK_ERROR(table.check_range(0, nullptr, 0, "copy", "source", 0), errc::invalid_argument, "source is null");
  EXPECT_RK_ERROR(table.check_range(2, at(block), 4, "fill", "buffer", 2), errc::invalid_argument,
                  "is not memory of device 2");
}

}  // namespace
