// Copyright RingKernel authors.
// The views' debug checks (asserts in host code without NDEBUG; docs/messaging.md §3, "Creating a
// ring"): the constructor that reads the memory, ring(void*), refuses a view of another element
// type than initialize() recorded (ring_control::slot_bytes: an spsc_ring<KernelMessage<A>> over an
// SpscQueue<KernelMessage<B>>'s memory went unnoticed) and a capacity no ring works with; the one
// that takes the capacity, ring(memory, capacity), refuses such a capacity. A view of the ring's own
// type passes in every build.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <new>

#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/spsc_ring.h"

namespace {

using ringkernel::atomic_scope;
namespace detail = ringkernel::detail;

struct Small {
  std::uint64_t a;
  std::uint64_t b;
};
struct Large {
  std::uint64_t a;
  std::uint64_t b;
  std::uint64_t c;
};

/// Memory holding an initialised Ring of `capacity` slots.
template <class Ring>
class Initialized {
 public:
  explicit Initialized(std::uint64_t capacity)
      : memory_(::operator new(Ring::bytes_for(capacity), std::align_val_t{detail::queue_line_bytes})) {
    (void)Ring::initialize(memory_, capacity);
  }
  ~Initialized() { ::operator delete(memory_, std::align_val_t{detail::queue_line_bytes}); }
  Initialized(const Initialized&) = delete;
  Initialized& operator=(const Initialized&) = delete;
  void* memory() const { return memory_; }
  detail::ring_control* control() const { return static_cast<detail::ring_control*>(memory_); }

 private:
  void* memory_;
};

using SpscSmall = ringkernel::spsc_ring<Small, atomic_scope::system>;
using SpscLarge = ringkernel::spsc_ring<Large, atomic_scope::system>;
using MpmcSmall = ringkernel::mpmc_ring<Small, atomic_scope::system>;
using MpmcLarge = ringkernel::mpmc_ring<Large, atomic_scope::system>;

TEST(RingViewCheck, AViewOfTheRingsOwnTypeIsAccepted) {
  const Initialized<SpscSmall> spsc(8);
  const Initialized<MpmcSmall> mpmc(8);
  EXPECT_EQ(SpscSmall(spsc.memory()).capacity(), 8u);
  EXPECT_EQ(MpmcSmall(mpmc.memory()).capacity(), 8u);
  // Views that differ in IndexScope only share the slot type.
  EXPECT_EQ((ringkernel::mpmc_ring<Small, atomic_scope::system, atomic_scope::device>(mpmc.memory()).capacity()), 8u);
  EXPECT_EQ(SpscSmall(spsc.memory(), 8).capacity(), 8u);
  EXPECT_EQ(MpmcSmall(mpmc.memory(), 8).capacity(), 8u);
}

#if defined(NDEBUG)
TEST(RingViewCheck, AViewOfAnotherElementTypeIsRefusedInDebugBuilds) {
  GTEST_SKIP() << "the check is an assert: debug builds only";
}
TEST(RingViewCheck, AViewOfABadCapacityIsRefusedInDebugBuilds) {
  GTEST_SKIP() << "the check is an assert: debug builds only";
}
#else
TEST(RingViewCheck, AViewOfAnotherElementTypeIsRefusedInDebugBuilds) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Initialized<SpscSmall> spsc(8);
  const Initialized<MpmcSmall> mpmc(8);
  const char* fix = "view a queue's memory as its own ring_type";
  EXPECT_DEATH((void)SpscLarge{spsc.memory()}, fix);
  EXPECT_DEATH((void)MpmcLarge{mpmc.memory()}, fix);
  // Elements of 8 bytes or less all have 16-byte mpmc slots: the element size is what is recorded.
  const Initialized<ringkernel::mpmc_ring<std::uint64_t, atomic_scope::system>> words(8);
  EXPECT_DEATH((void)(ringkernel::mpmc_ring<std::uint32_t, atomic_scope::system>{words.memory()}), fix);
  // The other ring design over the memory, with the same element: the kind tells them apart.
  EXPECT_DEATH((void)SpscSmall{mpmc.memory()}, "an spsc_ring view of an mpmc_ring's memory");
  EXPECT_DEATH((void)MpmcSmall{spsc.memory()}, "an mpmc_ring view of an spsc_ring's memory");
}

TEST(RingViewCheck, AViewOfABadCapacityIsRefusedInDebugBuilds) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Initialized<SpscSmall> spsc(8);
  const Initialized<MpmcSmall> mpmc(8);
  EXPECT_DEATH((void)SpscSmall(spsc.memory(), 3), "a capacity no spsc_ring works with");
  EXPECT_DEATH((void)SpscSmall(spsc.memory(), 0), "a capacity no spsc_ring works with");
  EXPECT_DEATH((void)MpmcSmall(mpmc.memory(), 1), "a capacity no mpmc_ring works with");
  EXPECT_DEATH((void)MpmcSmall(mpmc.memory(), 6), "a capacity no mpmc_ring works with");
  // Memory whose capacity word no initialize() wrote (here: overwritten).
  spsc.control()->capacity = 6;
  mpmc.control()->capacity = 1;
  EXPECT_DEATH((void)SpscSmall{spsc.memory()}, "ring_control::capacity is no valid capacity");
  EXPECT_DEATH((void)MpmcSmall{mpmc.memory()}, "ring_control::capacity is no valid capacity");
}
#endif

}  // namespace
