// Copyright RingKernel authors.
// The raw rings refuse memory they cannot work with, before writing anything (docs/messaging.md §3,
// "Creating a ring"): mpmc_ring::initialize / spsc_ring::initialize refuse a capacity the ring
// cannot work with (mpmc: 1, 3, 6 looped forever; spsc: 3, 6 lost and duplicated messages, 0 wrote
// past the memory), with the queues' rule and wording; initialize_ring refuses storage smaller than
// the ring, on host-accessible memory (which it overflowed) and on GPU memory (the host backend's
// device memory under the test seam of runtime/src/queue_memory_seam.h). Every refusal leaves a
// pattern in the memory untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "queue_memory_seam_scope.h"
#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/queue_storage.h"
#include "ringkernel/queue/spsc_ring.h"

namespace {

using ringkernel::atomic_scope;
using ringkernel::errc;
using ringkernel::Error;
namespace detail = ringkernel::detail;

using Mpmc = ringkernel::mpmc_ring<std::uint64_t, atomic_scope::system>;
using Ticketed = ringkernel::mpmc_ring<std::uint64_t, atomic_scope::device>;
using Spsc = ringkernel::spsc_ring<std::uint64_t, atomic_scope::system>;

constexpr unsigned char pattern = 0xA5;

/// Aligned memory for a ring of `capacity` slots, every byte `pattern`.
class Memory {
 public:
  explicit Memory(std::size_t bytes)
      : bytes_(bytes),
        data_(static_cast<unsigned char*>(::operator new(bytes, std::align_val_t{detail::queue_line_bytes}))) {
    std::fill_n(data_, bytes_, pattern);
  }
  ~Memory() { ::operator delete(data_, std::align_val_t{detail::queue_line_bytes}); }
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  void* data() const { return data_; }
  bool untouched() const { return std::all_of(data_, data_ + bytes_, [](unsigned char b) { return b == pattern; }); }

 private:
  std::size_t bytes_;
  unsigned char* data_;
};

/// Runs `call`, which must throw an Error of `code` from `call_name` whose what() contains `text`.
template <class F>
void expect_error(F&& call, errc code, const std::string& call_name, const std::string& text) {
  try {
    call();
    ADD_FAILURE() << "accepted; expected: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_EQ(e.call(), call_name) << e.what();
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what() << "\nexpected: " << text;
  }
}

/// initialize(memory, capacity) on memory for 8 slots: refused with `text`, nothing written.
template <class Ring>
void expect_refused(const char* name, std::uint64_t capacity, const std::string& text) {
  SCOPED_TRACE(std::string(name) + " capacity " + std::to_string(capacity));
  EXPECT_FALSE(Ring::valid_capacity(capacity));
  const Memory memory(Ring::bytes_for(8));
  expect_error([&] { (void)Ring::initialize(memory.data(), capacity, 0); }, errc::invalid_argument,
               std::string(name) + "::initialize", text);
  EXPECT_TRUE(memory.untouched());
}

std::string not_a_power_of_two(std::uint64_t capacity, bool multi_consumer) {
  return "capacity " + std::to_string(capacity) + " is not a power of two (" +
         (multi_consumer ? "2, 4, 8, ... for a multi-consumer ring)" : "1, 2, 4, ...)");
}

const std::string mpmc_one = "capacity 1: a multi-producer/multi-consumer ring needs at least 2 slots";

template <class Ring>
std::uint64_t beyond_max() {
  const std::uint64_t c = std::bit_ceil(Ring::max_capacity);  // max_capacity is no power of two
  EXPECT_GT(c, Ring::max_capacity);
  EXPECT_TRUE(Ring::valid_capacity(std::bit_floor(Ring::max_capacity))) << "the capacity the error quotes";
  return c;
}

// The capacity quoted is the largest valid one (a power of two), not max_capacity (none).
std::string too_large(std::uint64_t capacity, std::uint64_t max) {
  return "capacity " + std::to_string(capacity) +
         " is too large: the ring's bytes would exceed what std::size_t counts (the largest valid capacity for "
         "this message type is " + std::to_string(std::bit_floor(max)) + " slots)";
}

TEST(RingInitialize, MpmcRefusesCapacitiesItCannotWorkWith) {
  for (const std::uint64_t c : {0u, 3u, 6u, 12u}) expect_refused<Mpmc>("mpmc_ring", c, not_a_power_of_two(c, true));
  expect_refused<Mpmc>("mpmc_ring", 1, mpmc_one);
  expect_refused<Mpmc>("mpmc_ring", beyond_max<Mpmc>(), too_large(beyond_max<Mpmc>(), Mpmc::max_capacity));
}

TEST(RingInitialize, TicketedMpmcRefusesCapacitiesItCannotWorkWith) {
  for (const std::uint64_t c : {0u, 3u, 6u}) expect_refused<Ticketed>("mpmc_ring", c, not_a_power_of_two(c, true));
  expect_refused<Ticketed>("mpmc_ring", 1, mpmc_one);
  expect_refused<Ticketed>("mpmc_ring", beyond_max<Ticketed>(),
                           too_large(beyond_max<Ticketed>(), Ticketed::max_capacity));
}

TEST(RingInitialize, SpscRefusesCapacitiesItCannotWorkWith) {
  for (const std::uint64_t c : {0u, 3u, 6u, 12u}) expect_refused<Spsc>("spsc_ring", c, not_a_power_of_two(c, false));
  expect_refused<Spsc>("spsc_ring", beyond_max<Spsc>(), too_large(beyond_max<Spsc>(), Spsc::max_capacity));
}

// The smallest capacities each ring works with, and what initialize() records for the views' checks.
TEST(RingInitialize, TheSmallestCapacitiesWorkAndTheSlotSizeIsRecorded) {
  static_assert(Spsc::valid_capacity(1) && !Mpmc::valid_capacity(1) && Mpmc::valid_capacity(2));
  const Memory spsc_memory(Spsc::bytes_for(1));
  Spsc one = Spsc::initialize(spsc_memory.data(), 1);
  EXPECT_EQ(one.control()->slot_bytes, sizeof(std::uint64_t));
  EXPECT_EQ(one.control()->kind, ringkernel::detail::ring_kind_spsc);
  EXPECT_TRUE(one.try_push(7));
  EXPECT_FALSE(one.try_push(8));
  std::uint64_t v = 0;
  ASSERT_TRUE(one.try_pop(v));
  EXPECT_EQ(v, 7u);

  const Memory mpmc_memory(Mpmc::bytes_for(2));
  Mpmc two = Mpmc::initialize(mpmc_memory.data(), 2);
  EXPECT_EQ(two.control()->slot_bytes, sizeof(std::uint64_t));  // the element, not the 16-byte slot
  EXPECT_EQ(two.control()->kind, Mpmc::kind);
  EXPECT_TRUE(two.try_push(1));
  EXPECT_TRUE(two.try_push(2));
  EXPECT_FALSE(two.try_push(3));
  for (std::uint64_t want : {1u, 2u}) {
    ASSERT_TRUE(two.try_pop(v));
    EXPECT_EQ(v, want);
  }
  EXPECT_FALSE(two.try_pop(v));
}

// A bad capacity is refused by initialize_ring too, under its own name, before any size check.
TEST(InitializeRing, RefusesABadCapacityBeforeWriting) {
  ringkernel::QueueStorage storage(ringkernel::QueueMemory::host, -1, Mpmc::bytes_for(8));
  std::fill_n(static_cast<unsigned char*>(storage.data()), storage.size(), pattern);
  expect_error([&] { (void)ringkernel::initialize_ring<Mpmc>(storage, 3); }, errc::invalid_argument, "initialize_ring",
               not_a_power_of_two(3, true));
  expect_error([&] { (void)ringkernel::initialize_ring<Spsc>(storage, 0); }, errc::invalid_argument, "initialize_ring",
               not_a_power_of_two(0, false));
  const auto* bytes = static_cast<const unsigned char*>(storage.data());
  EXPECT_TRUE(std::all_of(bytes, bytes + storage.size(), [](unsigned char b) { return b == pattern; }));
}

std::string too_small(std::uint64_t capacity, std::size_t needed, std::size_t held) {
  return "a ring of " + std::to_string(capacity) + " slots needs " + std::to_string(needed) +
         " bytes (Ring::bytes_for), the storage holds " + std::to_string(held);
}

// Host-accessible storage smaller than the ring: initialize_ring wrote 16 KiB past it.
TEST(InitializeRing, RefusesHostStorageSmallerThanTheRing) {
  ringkernel::QueueStorage storage(ringkernel::QueueMemory::host, -1, Mpmc::bytes_for(16));
  ASSERT_TRUE(storage.host_accessible());
  std::fill_n(static_cast<unsigned char*>(storage.data()), storage.size(), pattern);
  expect_error([&] { (void)ringkernel::initialize_ring<Mpmc>(storage, 1024); }, errc::out_of_range, "initialize_ring",
               too_small(1024, Mpmc::bytes_for(1024), storage.size()));
  expect_error([&] { (void)ringkernel::initialize_ring<Spsc>(storage, 2048); }, errc::out_of_range, "initialize_ring",
               too_small(2048, Spsc::bytes_for(2048), storage.size()));
  const auto* bytes = static_cast<const unsigned char*>(storage.data());
  EXPECT_TRUE(std::all_of(bytes, bytes + storage.size(), [](unsigned char b) { return b == pattern; }));
  // Exactly the ring's size is enough.
  ringkernel::QueueStorage exact(ringkernel::QueueMemory::host, -1, Mpmc::bytes_for(16));
  EXPECT_EQ(ringkernel::initialize_ring<Mpmc>(exact, 16).capacity(), 16u);
}

// GPU memory (host-backend device memory under the seam): refused by initialize_ring itself, naming
// both sizes and the device, before the upload (whose own range check named neither ring nor sizes).
TEST(InitializeRing, RefusesGpuStorageSmallerThanTheRing) {
  ringkernel::HostBackendConfig config;
  config.device_count = 1;
  ringkernel::configure_host_backend(config);
  const int id = ringkernel::devices(ringkernel::Backend::host).at(0).id;
  const ringkernel::test::DeviceMemoryAsGpuMemory seam(true);
  ringkernel::QueueStorage storage(ringkernel::QueueMemory::device, id, Spsc::bytes_for(16));
  ASSERT_FALSE(storage.host_accessible());
  const std::vector<unsigned char> filled(storage.size(), pattern);
  storage.upload(filled.data(), filled.size());
  expect_error([&] { (void)ringkernel::initialize_ring<Spsc>(storage, 64); }, errc::out_of_range, "initialize_ring",
               too_small(64, Spsc::bytes_for(64), storage.size()));
  try {
    (void)ringkernel::initialize_ring<Mpmc>(storage, 64);
    ADD_FAILURE() << "a ring of 64 slots accepted in " << storage.size() << " bytes";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::out_of_range) << e.what();
    EXPECT_EQ(e.device(), id) << e.what();
  }
  std::vector<unsigned char> after(storage.size());
  storage.download(after.data(), after.size());
  EXPECT_EQ(after, filled);
  EXPECT_EQ(ringkernel::initialize_ring<Spsc>(storage, 16).capacity(), 16u);
}

}  // namespace
