// Copyright RingKernel authors.
// The ThreadSanitizer fence model of detail/atomic_word.h (RINGKERNEL_TSAN_FENCE_MODEL): a release
// fence publishes only what comes BEFORE it. A payload written, or read, after the fence and before
// the relaxed store that publishes (frees) it is a race on a GPU, and x86 hides it from every host
// run; ThreadSanitizer with this model is the only host check that sees it (the batch calls of
// warp_enqueue.h place their fences by this rule). The death tests are the misplaced fences, each
// with its mirror image, the correct placement, which must report nothing (no false positive).
// Built in every configuration; the tests exist only under ThreadSanitizer, and CMakeLists.txt
// runs them with halt_on_error=1, so that a report ends the process.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <thread>

#include "ringkernel/detail/atomic_word.h"

namespace {

#if defined(RINGKERNEL_TSAN_FENCE_MODEL)

using ringkernel::atomic_scope;
using ringkernel::detail::atomic_fence;
using ringkernel::detail::atomic_word;
using ringkernel::detail::order;

void release_fence() { atomic_fence<atomic_scope::system>(order::release); }
void acquire_fence() { atomic_fence<atomic_scope::system>(order::acquire); }

/// What the two threads share, fresh from the heap and one word per line: ThreadSanitizer keeps
/// only a few accesses per 8 bytes of memory, and on a reused stack a later access to a neighbour
/// can push out the one access that makes the race (seen in the death tests' re-executed child).
struct shared {
  alignas(64) std::uint64_t word = 0;
  alignas(64) int payload = 0;
  alignas(64) int seen = 0;
};

/// A producer thread writes the payload before or after its release fence, then publishes with a
/// relaxed store; this thread waits for the publication (relaxed), then acquires with a fence
/// (`acquire_by_fence`) or with an acquire load, and reads the payload.
void publish(bool payload_after_fence, bool acquire_by_fence) {
  const auto s = std::make_unique<shared>();
  const atomic_word<> f(s->word);
  std::thread producer([&] {
    if (!payload_after_fence) s->payload = 1;
    release_fence();
    if (payload_after_fence) s->payload = 1;  // not ordered before the store below
    f.store(1, order::relaxed);
  });
  if (acquire_by_fence) {
    while (f.load(order::relaxed) != 1) {
    }
    acquire_fence();
  } else {
    while (f.load(order::acquire) != 1) {
    }
  }
  s->seen = s->payload;
  producer.join();
  EXPECT_EQ(s->seen, 1);
}

/// A consumer thread reads the payload before or after its release fence, then frees the slot with
/// a relaxed store; this thread waits for that (relaxed), acquire fence, and overwrites the payload.
void free_slot(bool read_after_fence) {
  const auto s = std::make_unique<shared>();
  s->payload = 1;
  const atomic_word<> f(s->word);
  std::thread consumer([&] {
    if (!read_after_fence) s->seen = s->payload;
    release_fence();
    if (read_after_fence) s->seen = s->payload;  // may still be reading when the slot is reused
    f.store(1, order::relaxed);
  });
  while (f.load(order::relaxed) != 1) {
  }
  acquire_fence();
  s->payload = 2;
  consumer.join();
  EXPECT_EQ(s->seen, 1);
}

TEST(TsanFenceModelDeathTest, PayloadWrittenAfterTheReleaseFenceIsARace) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(publish(true, true), "ThreadSanitizer: data race");
  EXPECT_DEATH(publish(true, false), "ThreadSanitizer: data race");  // read by an acquire load
}

TEST(TsanFenceModelDeathTest, PayloadReadAfterTheReleaseFenceIsARace) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(free_slot(true), "ThreadSanitizer: data race");
}

// The mirror images: the same programs with the payload access before the fence report nothing.
TEST(TsanFenceModel, PayloadWrittenBeforeTheReleaseFenceIsPublished) {
  publish(false, true);
  publish(false, false);
}

TEST(TsanFenceModel, PayloadReadBeforeTheReleaseFenceIsDoneBeforeTheSlotIsReused) { free_slot(false); }

// A read-modify-write by a thread without a release fence continues the fenced store it read (C++'s
// release sequence): a reader of its value still synchronises with the first thread's fence.
TEST(TsanFenceModel, AReadModifyWriteWithoutAFenceKeepsTheFenceOfTheStoreItContinues) {
  const auto s = std::make_unique<shared>();
  const atomic_word<> f(s->word);
  std::thread producer([&] {
    s->payload = 1;
    release_fence();
    f.store(1, order::relaxed);
  });
  std::thread relay([&] {
    std::uint64_t expected = 1;
    while (!f.compare_exchange_weak(expected, 2, order::relaxed)) expected = 1;
  });
  while (f.load(order::acquire) != 2) {
  }
  EXPECT_EQ(s->payload, 1);
  producer.join();
  relay.join();
}

#else

TEST(TsanFenceModel, NeedsThreadSanitizer) { GTEST_SKIP() << "the fence model exists only under ThreadSanitizer"; }

#endif

}  // namespace
