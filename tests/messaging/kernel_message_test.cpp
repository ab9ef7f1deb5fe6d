// Copyright RingKernel authors.
// KernelMessage<T>: layout, factories, equality, stamping.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <limits>
#include <thread>
#include <string_view>
#include <utility>
#include <vector>

#include "hlc_test_support.h"
#include "messaging_messages.rk.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message_stamper.h"

namespace {

using messaging_test::Aligned16;
using messaging_test::Blob64;
using messaging_test::Reading;
using messaging_test::Tagged;
using messaging_test::Tick;
using ringkernel::KernelMessage;
using ringkernel::MessageType;

static_assert(sizeof(KernelMessage<Tagged>) == 32 + 16);
static_assert(offsetof(KernelMessage<Tagged>, payload) == 32);
static_assert(sizeof(KernelMessage<Tick>) == 40 + 24 && offsetof(KernelMessage<Tick>, payload) == 40);
static_assert(offsetof(KernelMessage<Tick>, header.hlc) == 32);
static_assert(sizeof(KernelMessage<Blob64>) == 96);
static_assert(ringkernel::kernel_message_layout_ok<Tagged> && ringkernel::kernel_message_layout_ok<Tick>);
static_assert(!KernelMessage<Tagged>::causal && KernelMessage<Tick>::causal);
static_assert(ringkernel::is_kernel_message_v<KernelMessage<Tick>> && !ringkernel::is_kernel_message_v<Tick>);

// A causal payload aligned to 16: the 40-byte header rounded up to 16 (payload_offset_v's rounding,
// kernel_message_layout_ok's alignof(T) > 8 branch).
static_assert(alignof(Aligned16) == 16 && sizeof(Aligned16) == 16 && KernelMessage<Aligned16>::causal);
static_assert(offsetof(KernelMessage<Aligned16>, payload) == 48 && ringkernel::payload_offset_v<Aligned16> == 48);
static_assert(sizeof(KernelMessage<Aligned16>) == 64 && alignof(KernelMessage<Aligned16>) == 16);
static_assert(ringkernel::kernel_message_layout_ok<Aligned16>);

// == and != are constant expressions (fields found by index, not by byte offset), also through a
// nested message, arrays, a char array and floating-point fields.
static_assert(KernelMessage<Tagged>::create_data(1, 2, Tagged{1, 0, 2}) ==
              KernelMessage<Tagged>::create_data(1, 2, Tagged{1, 0, 2}));
static_assert(KernelMessage<Tagged>::create_data(1, 2, Tagged{1, 0, 2}) !=
              KernelMessage<Tagged>::create_data(1, 2, Tagged{1, 0, 3}));
static_assert(KernelMessage<Tagged>::create_data(1, 2, Tagged{1, 0, 2}) !=
              KernelMessage<Tagged>::create_data(1, 3, Tagged{1, 0, 2}));
constexpr auto reading_of = [](std::uint64_t index, double last) {
  return KernelMessage<Reading>::create_data(4, 5, Reading{Tagged{1, 0, index}, {0.5, -1.0, last}});
};
static_assert(reading_of(2, 3.0) == reading_of(2, 3.0));
static_assert(reading_of(2, 3.0) != reading_of(7, 3.0));   // a field of the nested message
static_assert(reading_of(2, 3.0) != reading_of(2, -3.0));  // an array element
static_assert(reading_of(2, 0.0) == reading_of(2, -0.0));  // values, not bits
constexpr auto tick_of = [](char second, float weight) {
  return KernelMessage<Tick>::create_data(1, 2, Tick{5, weight, {'h', second}});
};
static_assert(tick_of('i', 1.5f) == tick_of('i', 1.5f) && tick_of('i', 1.5f) != tick_of('o', 1.5f) &&
              tick_of('i', 1.5f) != tick_of('i', 2.5f));
static_assert(KernelMessage<Aligned16>::create_data(1, 2, Aligned16{3, 0.5}) ==
                  KernelMessage<Aligned16>::create_data(1, 2, Aligned16{3, 0.5}) &&
              KernelMessage<Aligned16>::create_data(1, 2, Aligned16{3, 0.5}) !=
                  KernelMessage<Aligned16>::create_data(1, 2, Aligned16{4, 0.5}));
// Every header field takes part: messages differing in one header field only are unequal.
template <class Change>
constexpr KernelMessage<Tick> tick_with(Change change) {
  auto m = tick_of('i', 1.5f);
  change(m.header);
  return m;
}
static_assert(tick_with([](auto&) {}) == tick_of('i', 1.5f));
static_assert(tick_with([](auto& h) { h.sequence = 1; }) != tick_of('i', 1.5f));
static_assert(tick_with([](auto& h) { h.timestamp_us = -1; }) != tick_of('i', 1.5f));
static_assert(tick_with([](auto& h) { h.type_id += 1; }) != tick_of('i', 1.5f));
static_assert(tick_with([](auto& h) { h.sender_id = 2; }) != tick_of('i', 1.5f));
static_assert(tick_with([](auto& h) { h.receiver_id = ringkernel::broadcast_receiver; }) != tick_of('i', 1.5f));
static_assert(tick_with([](auto& h) { h.type = MessageType::control; }) != tick_of('i', 1.5f));
static_assert(tick_with([](auto& h) { h.flags = 1; }) != tick_of('i', 1.5f));
static_assert(tick_with([](auto& h) { h.reserved = 0x100; }) != tick_of('i', 1.5f));
static_assert(tick_with([](auto& h) { h.hlc.bits = 1; }) != tick_of('i', 1.5f));

TEST(KernelMessage, FactoriesFillTheHeader) {
  const auto data = KernelMessage<Tagged>::create_data(3, 9, Tagged{1, 0, 42});
  EXPECT_EQ(data.header.type, MessageType::data);
  EXPECT_EQ(data.header.sender_id, 3);
  EXPECT_EQ(data.header.receiver_id, 9);
  EXPECT_EQ(data.header.type_id, ringkernel::message_traits<Tagged>::type_id);
  EXPECT_EQ(data.header.sequence, 0u);
  EXPECT_EQ(data.header.timestamp_us, 0);
  EXPECT_EQ(data.payload.index, 42u);
  EXPECT_FALSE(data.is_broadcast());

  EXPECT_EQ(KernelMessage<Tagged>::create_control(1, 2, Tagged{}).header.type, MessageType::control);
  const auto stop = KernelMessage<Tagged>::create_terminate(0, ringkernel::broadcast_receiver);
  EXPECT_EQ(stop.header.type, MessageType::terminate);
  EXPECT_TRUE(stop.is_broadcast());
  EXPECT_EQ(stop.payload.index, 0u);
  EXPECT_EQ(KernelMessage<Tagged>::create(1, 2, MessageType::heartbeat, Tagged{}).header.type, MessageType::heartbeat);
  EXPECT_STREQ(ringkernel::to_string(MessageType::ack), "ack");
  EXPECT_FALSE(ringkernel::is_valid(static_cast<MessageType>(ringkernel::message_type_count)));
}

// The name of every MessageType, and "invalid" for a value past them (what a bad wire byte holds).
TEST(KernelMessage, EveryMessageTypeHasItsName) {
  const std::pair<MessageType, const char*> names[] = {
      {MessageType::data, "data"},          {MessageType::control, "control"}, {MessageType::terminate, "terminate"},
      {MessageType::ack, "ack"},            {MessageType::error, "error"},     {MessageType::heartbeat, "heartbeat"},
      {static_cast<MessageType>(ringkernel::message_type_count), "invalid"},
      {static_cast<MessageType>(255), "invalid"}};
  for (const auto& [type, name] : names) EXPECT_STREQ(ringkernel::to_string(type), name) << static_cast<int>(type);
  static_assert(std::string_view(ringkernel::to_string(MessageType::heartbeat)) == "heartbeat");
}

TEST(KernelMessage, EqualityComparesEveryHeaderFieldAndThePayloadFields) {
  Tick tick{5, 1.5f, "hi"};
  const auto a = KernelMessage<Tick>::create_data(1, 2, tick);
  auto b = a;
  EXPECT_EQ(a, b);
  // Padding bytes do not matter: scribble over the whole copy and restore the fields.
  std::memset(static_cast<void*>(&b), 0xab, sizeof b);
  b.header = a.header;
  b.payload.value = tick.value;
  b.payload.weight = tick.weight;
  std::memcpy(b.payload.note, tick.note, sizeof tick.note);
  EXPECT_EQ(a, b);
  auto c = a;
  c.header.hlc.bits = 1;
  EXPECT_NE(a, c);
  c = a;
  c.header.sequence = 1;
  EXPECT_NE(a, c);
  c = a;
  c.payload.note[11] = 'x';
  EXPECT_NE(a, c);
  c = a;
  c.header.receiver_id = ringkernel::broadcast_receiver;
  EXPECT_NE(a, c);
}

TEST(KernelMessage, FloatFieldsCompareAsValuesNotBits) {
  using messaging_test::Reading;
  auto a = KernelMessage<Tick>::create_data(1, 2, Tick{5, 0.0f, "zero"});
  auto b = a;
  b.payload.weight = -0.0f;  // other bits, equal value
  EXPECT_EQ(a, b);
  b.payload.weight = 1.0e-45f;  // the smallest denormal: a different value
  EXPECT_NE(a, b);
  a.payload.weight = b.payload.weight = std::numeric_limits<float>::quiet_NaN();  // same bits, no value
  EXPECT_NE(a, b);
  EXPECT_NE(a, a);

  const auto r = KernelMessage<Reading>::create_data(1, 2, Reading{Tagged{1, 0, 2}, {0.5, -0.0, 2.0}});
  auto s = r;
  s.payload.samples[1] = 0.0;
  EXPECT_EQ(r, s);
  s.payload.samples[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(r, s);
}

// == follows the fields' own == (docs/messaging.md §1), as std::pair's does: the copy of a message
// whose payload holds a NaN (an element of an array here) is unequal to the original, everything
// else being equal; a constant expression says the same.
constexpr double a_nan = std::numeric_limits<double>::quiet_NaN();
static_assert(reading_of(2, a_nan) != reading_of(2, a_nan) && !(reading_of(2, a_nan) == reading_of(2, a_nan)));
TEST(KernelMessage, APayloadHoldingANaNIsUnequalToItsOwnCopy) {
  const auto original = KernelMessage<Reading>::create_data(4, 5, Reading{Tagged{1, 0, 2}, {0.5, a_nan, 2.0}});
  const auto copy = original;
  EXPECT_NE(copy, original);
  EXPECT_FALSE(copy == original);
  EXPECT_NE(original, original);
  EXPECT_EQ(std::memcmp(&copy.header, &original.header, sizeof copy.header), 0);
  EXPECT_EQ(std::memcmp(&copy.payload, &original.payload, sizeof copy.payload), 0) << "the same bits";
  auto a = original, b = copy;
  a.payload.samples[1] = b.payload.samples[1] = 1.0;  // the NaN alone made them unequal
  EXPECT_EQ(a, b);
  const auto tick = KernelMessage<Tick>::create_data(1, 2, Tick{5, std::numeric_limits<float>::quiet_NaN(), "nan"});
  const auto tick_copy = tick;
  EXPECT_NE(tick_copy, tick) << "a causal message, a float field";
}

TEST(MessageStamper, AssignsSenderSequenceTimestampAndHlc) {
  ringkernel::HybridLogicalClock clock;
  ringkernel::MessageStamper stamper(7, &clock);
  auto m = KernelMessage<Tick>::create_data(0, 1, Tick{});
  const auto before = static_cast<std::int64_t>(ringkernel::wall_clock_us());
  ASSERT_TRUE(stamper.stamp(m));
  EXPECT_EQ(m.header.sender_id, 7);
  EXPECT_EQ(m.header.sequence, 0u);
  EXPECT_GE(m.header.timestamp_us, before);
  EXPECT_EQ(m.header.hlc, clock.last());
  auto n = m;
  ASSERT_TRUE(stamper.stamp(n));
  EXPECT_EQ(n.header.sequence, 1u);
  EXPECT_GT(n.header.hlc, m.header.hlc);

  // A refused stamp leaves the message as it was and uses up no sequence number: the sender's
  // sequence stays 0, 1, 2, ... without a gap its receiver would take for a lost message.
  ringkernel::MessageStamper no_clock(8);
  auto causal = KernelMessage<Tick>::create_data(0, 1, Tick{});
  const auto unstamped = causal;
  EXPECT_FALSE(no_clock.stamp(causal)) << "a causal message needs a clock";
  EXPECT_EQ(causal, unstamped) << "a refused stamp changed the message";
  EXPECT_EQ(no_clock.next_sequence(), 0u) << "a refused stamp used up a sequence number";
  auto plain = KernelMessage<Tagged>::create_data(0, 1, Tagged{});
  EXPECT_TRUE(no_clock.stamp(plain));
  EXPECT_EQ(plain.header.sequence, 0u);
  EXPECT_EQ(no_clock.next_sequence(), 1u);
}

// A clock that has issued its largest stamp gives the empty stamp 0 (hlc.h): the stamper refuses
// the causal message as it does without a clock, instead of sending it unstamped (a wall time out
// of range: StampAtTakesTheCallersWallTime...).
TEST(MessageStamper, AnExhaustedClockIsARefusedStampThatUsesUpNoSequenceNumber) {
  ringkernel::HybridLogicalClock clock;
  ASSERT_NO_FATAL_FAILURE(hlc_test_support::set_last_stamp(clock, ringkernel::hlc_timestamp{~std::uint64_t{0}}));
  ringkernel::MessageStamper stamper(3, &clock);
  auto causal = KernelMessage<Tick>::create_data(0, 1, Tick{});
  const auto unstamped = causal;
  EXPECT_FALSE(stamper.stamp(causal)) << "a causal message would go out with the empty clock stamp";
  EXPECT_EQ(causal, unstamped) << "a refused stamp changed the message";
  EXPECT_EQ(stamper.next_sequence(), 0u) << "a refused stamp used up a sequence number";
  EXPECT_EQ(clock.exhaustions(), 1u);
  auto plain = KernelMessage<Tagged>::create_data(0, 1, Tagged{});
  EXPECT_TRUE(stamper.stamp(plain)) << "payloads that are not causal need no clock stamp";
  EXPECT_EQ(plain.header.sequence, 0u);
}

// stamp_at(m, wall_us) stamps at the caller's wall time (a device clock corrected by its measured
// offset, docs/messaging.md §2): header.timestamp_us is that time and the clock stamp is
// now_at(wall_us); stamp(m) is stamp_at with one wall_clock_us() reading, so a fresh clock's first
// stamp has the timestamp as its physical part. A wall time the clock refuses (nanoseconds: beyond
// max_remote_physical_us) refuses a causal stamp, with the message, the sequence and the clock
// unchanged and the refusal counted; a plain message needs no clock stamp and takes the time as is.
TEST(MessageStamper, StampAtTakesTheCallersWallTimeAndARefusedWallTimeUsesUpNothing) {
  ringkernel::HybridLogicalClock clock;
  ringkernel::MessageStamper stamper(4, &clock);
  const std::uint64_t wall = 1'800'000'000'000'000;  // 2027-01-15, in microseconds
  auto m = KernelMessage<Tick>::create_data(0, 1, Tick{});
  ASSERT_TRUE(stamper.stamp_at(m, wall));
  EXPECT_EQ(m.header.timestamp_us, static_cast<std::int64_t>(wall));
  EXPECT_EQ(m.header.hlc, ringkernel::hlc_timestamp::from_parts(wall, 0));
  EXPECT_EQ(m.header.sequence, 0u);

  auto refused = KernelMessage<Tick>::create_data(0, 1, Tick{});
  const auto unstamped = refused;
  EXPECT_FALSE(stamper.stamp_at(refused, wall * 1000)) << "a wall time in nanoseconds was taken";
  EXPECT_EQ(refused, unstamped) << "a refused stamp changed the message";
  EXPECT_EQ(stamper.next_sequence(), 1u) << "a refused stamp used up a sequence number";
  EXPECT_EQ(clock.last(), m.header.hlc) << "a refused wall time moved the clock";
  EXPECT_EQ(clock.wall_rejections(), 1u);

  auto later = KernelMessage<Tick>::create_data(0, 1, Tick{});
  ASSERT_TRUE(stamper.stamp_at(later, wall)) << "the clock stays usable after a refused wall time";
  EXPECT_GT(later.header.hlc, m.header.hlc);
  EXPECT_EQ(later.header.sequence, 1u);

  auto plain = KernelMessage<Tagged>::create_data(0, 1, Tagged{});
  ASSERT_TRUE(stamper.stamp_at(plain, 42));
  EXPECT_EQ(plain.header.timestamp_us, 42);

  ringkernel::HybridLogicalClock fresh;
  ringkernel::MessageStamper now_stamper(5, &fresh);
  auto now = KernelMessage<Tick>::create_data(0, 1, Tick{});
  ASSERT_TRUE(now_stamper.stamp(now));
  EXPECT_EQ(now.header.hlc.physical_us(), static_cast<std::uint64_t>(now.header.timestamp_us))
      << "stamp() read the wall clock twice";
}

// A plain (non-causal) message has no clock range to refuse a wall time by: stamp_at refuses only
// one header.timestamp_us cannot hold (above INT64_MAX, which would read as a negative stamp, one
// no MessageStamper writes), leaving the message and the sequence as they were; INT64_MAX itself
// is written as given.
TEST(MessageStamper, APlainStampRefusesAWallTimeTheTimestampCannotHold) {
  ringkernel::MessageStamper stamper(4);
  constexpr auto largest = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  for (const std::uint64_t wall : {largest + 1, std::uint64_t{1} << 63, std::numeric_limits<std::uint64_t>::max()}) {
    auto m = KernelMessage<Tagged>::create_data(0, 1, Tagged{});
    const auto unstamped = m;
    EXPECT_FALSE(stamper.stamp_at(m, wall)) << wall;
    EXPECT_EQ(m, unstamped) << "a refused stamp changed the message";
    EXPECT_EQ(stamper.next_sequence(), 0u) << "a refused stamp used up a sequence number";
  }
  auto m = KernelMessage<Tagged>::create_data(0, 1, Tagged{});
  ASSERT_TRUE(stamper.stamp_at(m, largest));
  EXPECT_EQ(m.header.timestamp_us, std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(m.header.sequence, 0u);
}

// A negative sender id is never valid (-1 is broadcast, a receiver id): a stamper constructed with
// one at run time (a constant expression refuses it: messaging.stamper_sender_id.*) refuses every
// stamp, plain or causal, leaving the message, its sequence counter and its clock as they were.
TEST(MessageStamper, ANegativeSenderIdRefusesEveryStamp) {
  for (const std::int32_t sender : {-1, std::numeric_limits<std::int32_t>::min()}) {
    ringkernel::HybridLogicalClock clock;
    ringkernel::MessageStamper stamper(sender, &clock);
    EXPECT_EQ(stamper.sender_id(), sender);
    auto plain = KernelMessage<Tagged>::create_data(5, 1, Tagged{});
    const auto plain_before = plain;
    EXPECT_FALSE(stamper.stamp(plain)) << "sender " << sender;
    EXPECT_EQ(plain, plain_before) << "a refused stamp changed the message";
    auto causal = KernelMessage<Tick>::create_data(5, 1, Tick{});
    const auto causal_before = causal;
    EXPECT_FALSE(stamper.stamp(causal)) << "sender " << sender;
    EXPECT_EQ(causal, causal_before) << "a refused stamp changed the message";
    EXPECT_EQ(stamper.next_sequence(), 0u) << "a refused stamp used up a sequence number";
    EXPECT_EQ(clock.last(), ringkernel::hlc_timestamp{}) << "a refused stamp took a clock stamp";
  }
  ringkernel::MessageStamper zero(0);
  auto m = KernelMessage<Tagged>::create_data(5, 1, Tagged{});
  EXPECT_TRUE(zero.stamp(m)) << "0 is a sender id";
  EXPECT_EQ(m.header.sender_id, 0);
}

TEST(MessageStamper, ConcurrentStampsGiveEverySequenceNumberOnce) {
  ringkernel::MessageStamper stamper(1);
  constexpr int threads = 4;
  constexpr int per_thread = 5000;
  std::vector<std::vector<std::uint64_t>> seen(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) {
        auto m = KernelMessage<Tagged>::create_data(0, 1, Tagged{});
        EXPECT_TRUE(stamper.stamp(m));
        seen[t].push_back(m.header.sequence);
      }
    });
  }
  for (auto& w : workers) w.join();
  std::vector<bool> hit(threads * per_thread, false);
  for (const auto& s : seen) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      ASSERT_LT(s[i], hit.size());
      ASSERT_FALSE(hit[s[i]]) << "sequence " << s[i] << " given twice";
      hit[s[i]] = true;
      if (i > 0) {
        ASSERT_LT(s[i - 1], s[i]);
      }
    }
  }
}

}  // namespace
