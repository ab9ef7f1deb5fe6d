// Copyright RingKernel authors.
// An MpmcQueue or SpscQueue in memory host threads cannot reach (CUDA device memory; here the host
// backend's device memory under the test seam of queue_memory_seam.h): the constructor refuses it
// with Error(unsupported) named BasicMessageQueue before it allocates anything, so a ring too large
// for the device is refused for what it is too, not reported as out of memory.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "error_capture.h"
#include "host_fixture.h"
#include "queue_memory_seam_scope.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using messaging_test::error_of;
using messaging_test::mentions;
using ringkernel::QueueMemory;
using ringkernel::QueueOptions;

template <class Queue>
class QueueInGpuMemory : public ::testing::Test {};
using Queues = ::testing::Types<ringkernel::MpmcQueue<std::uint64_t>, ringkernel::SpscQueue<std::uint64_t>>;
TYPED_TEST_SUITE(QueueInGpuMemory, Queues);

TYPED_TEST(QueueInGpuMemory, IsRefusedBeforeAnythingIsAllocated) {
  using Ring = typename TypeParam::ring_type;
  ringkernel::test::RestoreHostConfig restore;
  constexpr std::size_t memory_per_device = std::size_t{1} << 20;
  const int device = ringkernel::test::use_small_host_devices(memory_per_device).at(1);
  const ringkernel::test::DeviceMemoryAsGpuMemory seam(true);
  // A ring that fits, and one that does not (the second was out_of_memory).
  for (const std::uint64_t capacity : {std::uint64_t{8}, std::uint64_t{1} << 20}) {
    SCOPED_TRACE(capacity);
    ASSERT_EQ(Ring::bytes_for(capacity) > memory_per_device, capacity != 8);
    const ringkernel::Error e = error_of([&] {
      TypeParam q(QueueOptions{.capacity = capacity, .memory = QueueMemory::device, .device = device});
    });
    EXPECT_EQ(e.code(), ringkernel::errc::unsupported) << e.what();
    EXPECT_EQ(e.call(), "BasicMessageQueue") << e.what();
    EXPECT_EQ(e.device(), device) << e.what();
    EXPECT_TRUE(mentions(e, "host threads cannot access CUDA device memory: use QueueMemory::pinned")) << e.what();
  }
}

}  // namespace
