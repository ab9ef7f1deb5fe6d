// Copyright RingKernel authors.
// The generated registry's kernel_message_slot (messaging.registry.rk.h): several message types
// through one queue. A KernelMessage<T> of any message T of the registry goes into a slot with
// make_kernel_message_slot and comes out at the handler of T, equal, through
// dispatch_kernel_message(slot, visitor); the slot's size and alignment are the largest over the
// registry's KernelMessage<T> (computed by the compiler), so the queue's copy is never misaligned.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <thread>
#include <type_traits>
#include <vector>

#include "dispatch_test_support.h"
#include "messaging.registry.rk.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using messaging_test::blob;
using messaging_test::reading;
using messaging_test::stamped_aligned16;
using messaging_test::stamped_tick;
using messaging_test::tagged;
using messaging_test::Aligned16;
using messaging_test::Blob64;
using messaging_test::Reading;
using messaging_test::Tagged;
using messaging_test::Tick;
using ringkernel::codec_result;
using ringkernel::codec_status;
using ringkernel::KernelMessage;
namespace reg = ringkernel::registry::messaging;
using slot = reg::kernel_message_slot;

// The largest size and alignment over the registry's messages (Blob64's 96 bytes, Aligned16's 16:
// two different types), as the generated constants and the slot have them.
constexpr std::size_t largest_size =
    std::max({sizeof(KernelMessage<Tagged>), sizeof(KernelMessage<Tick>), sizeof(KernelMessage<Reading>),
              sizeof(KernelMessage<Aligned16>), sizeof(KernelMessage<Blob64>)});
constexpr std::size_t largest_alignment =
    std::max({alignof(KernelMessage<Tagged>), alignof(KernelMessage<Tick>), alignof(KernelMessage<Reading>),
              alignof(KernelMessage<Aligned16>), alignof(KernelMessage<Blob64>)});
static_assert(reg::message_count == 5, "the maxima above and the tests below cover every message of the registry");
static_assert(largest_size == 96 && largest_alignment == 16);
static_assert(reg::max_kernel_message_size == largest_size);
static_assert(reg::max_kernel_message_alignment == largest_alignment);
static_assert(sizeof(slot::bytes) == largest_size && alignof(slot) == largest_alignment && sizeof(slot) == 96);
static_assert(std::is_trivially_copyable_v<slot> && std::is_standard_layout_v<slot>);

// The causal messages, stamped once (on first use, inside a test).
const KernelMessage<Tick>& expected_tick() {
  static const KernelMessage<Tick> m = stamped_tick();
  return m;
}
const KernelMessage<Aligned16>& expected_aligned16() {
  static const KernelMessage<Aligned16> m = stamped_aligned16();
  return m;
}

/// One handler per type (no generic lambda): each message reaches its own, and is compared there.
struct Handlers {
  std::vector<std::uint32_t>* seen;
  int* unequal;
  void check(bool equal, std::uint32_t id) const {
    seen->push_back(id);
    if (!equal) ++*unequal;
  }
  void operator()(const KernelMessage<Tagged>& m) const { check(m == tagged, m.header.type_id); }
  void operator()(const KernelMessage<Tick>& m) const { check(m == expected_tick(), m.header.type_id); }
  void operator()(const KernelMessage<Reading>& m) const { check(m == reading, m.header.type_id); }
  void operator()(const KernelMessage<Aligned16>& m) const { check(m == expected_aligned16(), m.header.type_id); }
  void operator()(const KernelMessage<Blob64>& m) const { check(m == blob, m.header.type_id); }
};

template <class T>
constexpr std::uint32_t id_of = ringkernel::message_traits<T>::type_id;

std::vector<slot> mixed_slots() {
  return {reg::make_kernel_message_slot(tagged), reg::make_kernel_message_slot(expected_tick()),
          reg::make_kernel_message_slot(reading), reg::make_kernel_message_slot(blob),
          reg::make_kernel_message_slot(expected_aligned16()), reg::make_kernel_message_slot(tagged)};
}
const std::vector<std::uint32_t> mixed_ids{id_of<Tagged>, id_of<Tick>,      id_of<Reading>,
                                           id_of<Blob64>, id_of<Aligned16>, id_of<Tagged>};

TEST(KernelMessageSlot, HoldsTheMessageAtOffsetZeroAndZerosTheRest) {
  const slot s = reg::make_kernel_message_slot(tagged);
  EXPECT_EQ(s.type_id(), id_of<Tagged>);
  KernelMessage<Tagged> back{};
  std::memcpy(&back, s.bytes, sizeof back);
  EXPECT_TRUE(back == tagged);
  EXPECT_TRUE(std::all_of(s.bytes + sizeof back, s.bytes + sizeof s.bytes, [](unsigned char b) { return b == 0; }));
  EXPECT_EQ(slot{}.type_id(), 0u);
}

// Mixed types through one MpmcQueue<slot>, in order, each to its own handler, equal; the result's
// size is that message's sizeof(KernelMessage<T>).
TEST(KernelMessageSlot, MixedMessageTypesThroughOneMpmcQueueReachTheirOwnHandlersEqual) {
  ringkernel::MpmcQueue<slot> queue(ringkernel::QueueOptions{.capacity = 8});
  for (const slot& s : mixed_slots()) ASSERT_TRUE(queue.try_send(s).ok());
  std::vector<std::uint32_t> seen;
  std::vector<std::size_t> sizes;
  int unequal = 0;
  slot s{};
  while (queue.try_receive(s) == ringkernel::ReceiveStatus::ok) {
    const codec_result r = reg::dispatch_kernel_message(s, Handlers{&seen, &unequal});
    EXPECT_EQ(r.status, codec_status::ok) << ringkernel::to_string(r.status);
    sizes.push_back(r.size);
  }
  EXPECT_EQ(seen, mixed_ids);
  EXPECT_EQ(unequal, 0);
  EXPECT_EQ(sizes, (std::vector<std::size_t>{sizeof(KernelMessage<Tagged>), sizeof(KernelMessage<Tick>),
                                             sizeof(KernelMessage<Reading>), sizeof(KernelMessage<Blob64>),
                                             sizeof(KernelMessage<Aligned16>), sizeof(KernelMessage<Tagged>)}));
}

// The same through an SpscQueue between two threads, with the batch calls and try_peek.
TEST(KernelMessageSlot, MixedMessageTypesThroughAnSpscQueueBetweenThreadsInBatches) {
  ringkernel::SpscQueue<slot> queue(ringkernel::QueueOptions{.capacity = 4, .policy = ringkernel::FullPolicy::block});
  const std::vector<slot> sent = mixed_slots();
  constexpr int rounds = 50;
  std::jthread producer([&] {
    for (int i = 0; i < rounds; ++i) {
      if (queue.send_batch(std::span<const slot>(sent)).accepted != sent.size()) return;
    }
    queue.shutdown();
  });
  std::vector<std::uint32_t> seen;
  int unequal = 0;
  slot out[5] = {};
  for (;;) {
    slot first{};
    if (queue.try_peek(first)) {
      EXPECT_NE(first.type_id(), 0u);
    }
    const ringkernel::BatchReceiveResult r = queue.receive_batch(std::span<slot>(out));
    if (r.status != ringkernel::ReceiveStatus::ok) break;
    for (std::size_t i = 0; i < r.received; ++i) {
      EXPECT_EQ(reg::dispatch_kernel_message(out[i], Handlers{&seen, &unequal}).status, codec_status::ok);
    }
  }
  producer.join();
  ASSERT_EQ(seen.size(), mixed_ids.size() * rounds);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], mixed_ids[i % mixed_ids.size()]) << i;
  EXPECT_EQ(unequal, 0);
}

// The slot routes by T, whatever the header said: a KernelMessage<T> filled by hand with type id 0
// (which would read as an empty slot) or with another message's id (which would hand T's bytes to
// that message's handler) gets T's id in the slot and reaches T's handler, equal to the message
// with the right id.
TEST(KernelMessageSlot, RoutesByTWhateverTheHeaderTypeIdSaid) {
  ASSERT_EQ(tagged.header.type_id, id_of<Tagged>);
  for (const std::uint32_t wrong : {0u, id_of<Blob64>, id_of<Tick>, 7u}) {
    KernelMessage<Tagged> m = tagged;
    m.header.type_id = wrong;
    const slot s = reg::make_kernel_message_slot(m);
    EXPECT_EQ(s.type_id(), id_of<Tagged>) << wrong;
    std::vector<std::uint32_t> seen;
    int unequal = 0;
    const codec_result r = reg::dispatch_kernel_message(s, Handlers{&seen, &unequal});
    EXPECT_EQ(r.status, codec_status::ok) << wrong << ": " << ringkernel::to_string(r.status);
    EXPECT_EQ(r.size, sizeof(KernelMessage<Tagged>)) << wrong;
    EXPECT_EQ(seen, std::vector<std::uint32_t>{id_of<Tagged>}) << wrong;
    EXPECT_EQ(unequal, 0) << wrong;
    EXPECT_TRUE(std::all_of(s.bytes + sizeof m, s.bytes + sizeof s.bytes, [](unsigned char b) { return b == 0; }));
  }
}

// A slot that holds no message, or a type id the registry lacks: wrong_message_type at 16, no call.
TEST(KernelMessageSlot, AnEmptySlotOrAnUnknownTypeIdIsWrongMessageTypeWithoutACall) {
  slot unknown = reg::make_kernel_message_slot(blob);
  const std::uint32_t id = 7;
  std::memcpy(unknown.bytes + ringkernel::envelope_type_id_offset, &id, sizeof id);
  for (const slot& s : {slot{}, unknown}) {
    int calls = 0;
    const codec_result r = reg::dispatch_kernel_message(s, [&](const auto&) { ++calls; });
    EXPECT_EQ(r.status, codec_status::wrong_message_type);
    EXPECT_EQ(r.size, ringkernel::envelope_type_id_offset);
    EXPECT_EQ(calls, 0);
  }
}

}  // namespace
