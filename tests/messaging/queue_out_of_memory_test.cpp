// Copyright RingKernel authors.
// A queue whose ring its memory cannot hold: the constructor of MpmcQueue and SpscQueue throws
// Error(out_of_memory) named BasicMessageQueue (the call the user made, not the allocation inside
// it), on the device whose memory it is, saying which ring (slots, bytes) in which memory and then
// the allocation's own call and reason; for each QueueMemory. detail::ring_storage, which words it
// (P2PMessageQueue's too, p2p_queue_test.cpp), lets every other error through unchanged.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "error_capture.h"
#include "host_fixture.h"
#include "messaging_messages.rk.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using messaging_test::error_of;
using messaging_test::Tagged;
using ringkernel::errc;
using ringkernel::QueueMemory;
using ringkernel::QueueOptions;
using Msg = ringkernel::KernelMessage<Tagged>;

template <class Queue>
class QueueOutOfMemory : public ::testing::Test {};
using Queues = ::testing::Types<ringkernel::MpmcQueue<Msg>, ringkernel::SpscQueue<Msg>>;
TYPED_TEST_SUITE(QueueOutOfMemory, Queues);

// The largest capacity the ring type allows: its bytes are beyond what any host allocation gives
// (over PTRDIFF_MAX, refused before the allocator is asked, so sanitizer builds do not abort).
template <class Ring>
std::uint64_t largest_capacity() {
  std::uint64_t capacity = 1;
  while (capacity <= Ring::max_capacity / 2) capacity *= 2;
  return capacity;
}

// The queue's error for a ring of `capacity` slots (`bytes`) in `memory`, on `device`, whose
// allocation failed with `reason` (its own call and detail).
void expect_ring_out_of_memory(const ringkernel::Error& e, int device, std::uint64_t capacity, std::size_t bytes,
                               const std::string& memory, const std::string& reason) {
  EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
  EXPECT_EQ(e.call(), "BasicMessageQueue") << e.what();
  EXPECT_EQ(e.device(), device);
  const std::string on = device == ringkernel::no_device ? "" : " (device " + std::to_string(device) + ")";
  EXPECT_EQ(std::string(e.what()), "ringkernel: BasicMessageQueue" + on + ": out of memory: the ring of " +
                                       std::to_string(capacity) + " slots (" + std::to_string(bytes) + " bytes) in " +
                                       memory + ": " + reason);
}

TYPED_TEST(QueueOutOfMemory, DeviceMemoryThatDoesNotFitNamesTheQueueAndTheRing) {
  using Ring = typename TypeParam::ring_type;
  ringkernel::test::RestoreHostConfig restore;
  constexpr std::size_t memory_per_device = std::size_t{1} << 20;
  const int device = ringkernel::test::use_small_host_devices(memory_per_device).at(1);
  constexpr std::uint64_t capacity = std::uint64_t{1} << 16;
  const std::size_t bytes = Ring::bytes_for(capacity);
  ASSERT_GT(bytes, memory_per_device);
  const ringkernel::Error e = error_of([&] {
    TypeParam q(QueueOptions{.capacity = capacity, .memory = QueueMemory::device, .device = device});
  });
  expect_ring_out_of_memory(e, device, capacity, bytes, "device memory (QueueMemory::device)",
                            "DeviceBuffer::DeviceBuffer: cannot allocate " + std::to_string(bytes) +
                                " bytes: 1048576 of 1048576 bytes free");
}

TYPED_TEST(QueueOutOfMemory, PinnedMemoryThatCannotBeAllocatedNamesTheQueueAndTheRing) {
  using Ring = typename TypeParam::ring_type;
  const int device = ringkernel::test::host_device_ids().at(0);
  const std::uint64_t capacity = largest_capacity<Ring>();
  const std::size_t bytes = Ring::bytes_for(capacity);
  const ringkernel::Error e = error_of([&] {
    TypeParam q(QueueOptions{.capacity = capacity, .memory = QueueMemory::pinned, .device = device});
  });
  expect_ring_out_of_memory(e, device, capacity, bytes, "pinned host memory (QueueMemory::pinned)",
                            "PinnedBuffer::PinnedBuffer: host allocation of " + std::to_string(bytes) + " bytes failed");
}

TYPED_TEST(QueueOutOfMemory, HostMemoryThatCannotBeAllocatedNamesTheQueueAndTheRing) {
  using Ring = typename TypeParam::ring_type;
  const std::uint64_t capacity = largest_capacity<Ring>();
  const std::size_t bytes = Ring::bytes_for(capacity);
  const ringkernel::Error e = error_of([&] { TypeParam q(QueueOptions{.capacity = capacity}); });
  expect_ring_out_of_memory(e, ringkernel::no_device, capacity, bytes, "host memory (QueueMemory::host)",
                            "QueueStorage: host allocation of " + std::to_string(bytes) + " bytes for a queue failed");
}

// Only out_of_memory is reworded: the storage's other errors keep their call and text.
TEST(QueueRingStorage, PassesErrorsOtherThanOutOfMemoryThrough) {
  const ringkernel::Error e =
      error_of([] { (void)ringkernel::detail::ring_storage("BasicMessageQueue", static_cast<QueueMemory>(7), 0, 8, 4096); });
  EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  EXPECT_EQ(e.call(), "QueueStorage") << e.what();
  EXPECT_EQ(e.detail(), "memory 7 is no QueueMemory (host, pinned, device)");
}

}  // namespace
