// Copyright RingKernel authors.
// peek_envelope_type_id: the type id of an envelope read from its bytes without knowing T (to route
// it to its decoder). Valid envelopes of every payload kind, every integer width of the id, every
// truncation, hostile bytes, agreement with decode_envelope, and routing envelopes of mixed types.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "envelope_test_support.h"
#include "messaging_messages.rk.h"
#include "ringkernel/envelope_codec.h"

namespace {

using messaging_test::envelope_bytes;
using messaging_test::stamped;
using messaging_test::Reading;
using messaging_test::Tagged;
using messaging_test::Tick;
using ringkernel::codec_status;
using ringkernel::KernelMessage;
using bytes = std::vector<std::uint8_t>;

constexpr std::uint32_t untouched = 0xdeadbeef;

template <class T>
constexpr std::uint32_t id_of = ringkernel::message_traits<T>::type_id;

KernelMessage<Tick> stamped_tick() {
  return stamped(KernelMessage<Tick>::create_data(2, 3, Tick{-7, 2.5f, "peek"}), 2);
}

// One valid envelope of each payload kind: array, causal, map.
std::vector<std::pair<std::uint32_t, bytes>> envelopes() {
  const Reading reading{Tagged{1, 0, 2}, {0.5, 1.0, 2.0}};
  return {{id_of<Tagged>, envelope_bytes(KernelMessage<Tagged>::create_data(1, 2, Tagged{3, 0, 42}))},
          {id_of<Tick>, envelope_bytes(stamped_tick())},
          {id_of<Reading>, envelope_bytes(KernelMessage<Reading>::create_control(4, -1, reading))}};
}

struct peeked {
  ringkernel::codec_result result;
  std::uint32_t type_id;
};

peeked peek(const bytes& in) {
  const bytes exact(in);  // exact-size heap copy: ASan sees any overread
  std::uint32_t type_id = untouched;
  const auto r = ringkernel::peek_envelope_type_id(exact.data(), exact.size(), type_id);
  EXPECT_LE(r.size, exact.size());
  if (r.status != codec_status::ok) {
    EXPECT_EQ(type_id, untouched) << "type_id written on failure";
  }
  return {r, type_id};
}

void expect_refused(const bytes& in, codec_status status, std::size_t at, const char* what) {
  const peeked p = peek(in);
  EXPECT_EQ(p.result.status, status) << what << ": " << ringkernel::to_string(p.result.status);
  EXPECT_EQ(p.result.size, at) << what;
}

TEST(EnvelopePeek, ReadsTheTypeIdOfEveryPayloadKind) {
  for (const auto& [id, envelope] : envelopes()) {
    ASSERT_GE(id, 1u << 16) << "the test expects a uint 32 type id";
    const peeked p = peek(envelope);
    EXPECT_EQ(p.result.status, codec_status::ok);
    EXPECT_EQ(p.type_id, id);
    EXPECT_EQ(p.result.size, 6u) << "array header and the type id element";
  }
}

// Only the array header and the type id are read: the rest may be missing or anything at all.
TEST(EnvelopePeek, ReadsEveryIntegerWidthAndNothingAfterTheTypeId) {
  const auto ok = [](const bytes& in, std::uint32_t id, std::size_t size, const char* what) {
    const peeked p = peek(in);
    EXPECT_EQ(p.result.status, codec_status::ok) << what << ": " << ringkernel::to_string(p.result.status);
    EXPECT_EQ(p.type_id, id) << what;
    EXPECT_EQ(p.result.size, size) << what;
  };
  ok({0x98, 0x07}, 7, 2, "positive fixint");
  ok({0x98, 0xcc, 0xc8}, 200, 3, "uint 8");
  ok({0x98, 0xcd, 0x12, 0x34}, 0x1234, 4, "uint 16");
  ok({0x98, 0xce, 0xff, 0xff, 0xff, 0xff, 0xc1}, 0xffffffffu, 6, "uint 32, never-used byte after it");
  ok({0x98, 0xcf, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, 0xffffffffu, 10, "uint 64 of a 32-bit value");
  ok({0x98, 0xd3, 0, 0, 0, 0, 0, 0, 0, 5}, 5, 10, "int 64 of a positive value");
  ok({0x98, 0x00}, 0, 2, "0 (names no message; every decode_envelope refuses it)");
  ok({0xdc, 0x00, 0x08, 0x09}, 9, 4, "array 16");
  ok({0xdd, 0x00, 0x00, 0x00, 0x0a, 0x0b}, 11, 6, "array 32 of 10 elements (extras are skipped by decode)");
}

TEST(EnvelopePeek, RefusesWhatDecodeEnvelopeRefusesBeforeTheTypeIdAndAtIt) {
  expect_refused({}, codec_status::truncated_input, 0, "empty");
  expect_refused({0x98}, codec_status::truncated_input, 1, "no type id");
  expect_refused({0x98, 0xce, 0x01, 0x02}, codec_status::truncated_input, 1, "type id cut");
  expect_refused({0xdc, 0x00}, codec_status::truncated_input, 0, "array 16 header cut");
  expect_refused({0x97, 0x01}, codec_status::missing_field, 0, "7 elements");
  expect_refused({0x90}, codec_status::missing_field, 0, "empty array");
  expect_refused({0x88, 0x01}, codec_status::type_mismatch, 0, "a map");
  expect_refused({0x01}, codec_status::type_mismatch, 0, "an int");
  expect_refused({0xc1}, codec_status::invalid_input, 0, "never-used byte");
  expect_refused({0x98, 0xc1}, codec_status::invalid_input, 1, "never-used byte as the type id");
  expect_refused({0x98, 0xa1, 'x'}, codec_status::type_mismatch, 1, "a str type id");
  expect_refused({0x98, 0xc0}, codec_status::type_mismatch, 1, "a nil type id");
  expect_refused({0x98, 0xca, 0x3f, 0x80, 0, 0}, codec_status::type_mismatch, 1, "a float type id");
  expect_refused({0x98, 0xff}, codec_status::value_out_of_range, 1, "-1");
  expect_refused({0x98, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0}, codec_status::value_out_of_range, 1, "2^32");
  std::uint32_t id = untouched;
  EXPECT_EQ(ringkernel::peek_envelope_type_id(nullptr, 0, id).status, codec_status::truncated_input);
  EXPECT_EQ(id, untouched);
}

TEST(EnvelopePeek, EveryTruncationBeforeTheTypeIdEndsIsTruncatedAndAfterItIsEnough) {
  for (const auto& [id, envelope] : envelopes()) {
    for (std::size_t n = 0; n <= envelope.size(); ++n) {
      const peeked p = peek(bytes(envelope.begin(), envelope.begin() + static_cast<std::ptrdiff_t>(n)));
      if (n < 6) {
        EXPECT_EQ(p.result.status, codec_status::truncated_input) << "length " << n;
        EXPECT_LE(p.result.size, n);
      } else {
        EXPECT_EQ(p.result.status, codec_status::ok) << "length " << n;
        EXPECT_EQ(p.type_id, id) << "length " << n;
      }
    }
  }
}

// decode_envelope<T> fails where peek fails, with the same status at the same offset; where peek
// reads another type's id it says wrong_message_type at the type id; it never says so otherwise.
template <class T>
void expect_decode_agrees(const bytes& in, const peeked& p) {
  KernelMessage<T> out{};
  const auto r = ringkernel::decode_envelope(in.data(), in.size(), out);
  if (p.result.status != codec_status::ok) {
    ASSERT_EQ(r.status, p.result.status);
    ASSERT_EQ(r.size, p.result.size);
  } else if (p.type_id != id_of<T>) {
    ASSERT_EQ(r.status, codec_status::wrong_message_type);
    ASSERT_LT(r.size, p.result.size);
  } else {
    ASSERT_NE(r.status, codec_status::wrong_message_type);
    if (r.status == codec_status::ok) {
      ASSERT_GE(r.size, p.result.size);
    }
  }
}

TEST(EnvelopePeek, HostileBytesAgreeWithDecodeEnvelopeAndNeverReadOutOfBounds) {
  std::mt19937 rng(2026);
  const auto valid = envelopes();
  for (int round = 0; round < 20000; ++round) {
    bytes in = valid[static_cast<std::size_t>(round) % valid.size()].second;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) in[rng() % 8] = static_cast<std::uint8_t>(rng());  // mostly the header
    in.resize(rng() % (in.size() + 1));
    const peeked p = peek(in);
    expect_decode_agrees<Tagged>(in, p);
    expect_decode_agrees<Tick>(in, p);
    expect_decode_agrees<Reading>(in, p);
    if (HasFatalFailure()) return;
  }
}

// The use it is for: envelopes of several types on one channel, each decoded as its own type.
TEST(EnvelopePeek, RoutesEnvelopesOfSeveralTypesToTheirDecoders) {
  const auto valid = envelopes();
  int tagged = 0, ticks = 0, readings = 0, unknown = 0;
  const auto route = [&](const bytes& in) {
    std::uint32_t id = 0;
    ASSERT_EQ(ringkernel::peek_envelope_type_id(in.data(), in.size(), id).status, codec_status::ok);
    if (id == id_of<Tagged>) {
      KernelMessage<Tagged> m{};
      ASSERT_EQ(ringkernel::decode_envelope(in.data(), in.size(), m).status, codec_status::ok);
      tagged += m.payload.index == 42;
    } else if (id == id_of<Tick>) {
      KernelMessage<Tick> m{};
      ASSERT_EQ(ringkernel::decode_envelope(in.data(), in.size(), m).status, codec_status::ok);
      ticks += m.payload.value == -7;
    } else if (id == id_of<Reading>) {
      KernelMessage<Reading> m{};
      ASSERT_EQ(ringkernel::decode_envelope(in.data(), in.size(), m).status, codec_status::ok);
      readings += m.payload.samples[2] == 2.0;
    } else {
      ++unknown;
    }
  };
  for (int i = 0; i < 3; ++i) {
    for (const auto& envelope : valid) route(envelope.second);
  }
  route({0x98, 0x07});
  EXPECT_EQ(tagged, 3);
  EXPECT_EQ(ticks, 3);
  EXPECT_EQ(readings, 3);
  EXPECT_EQ(unknown, 1);
}

}  // namespace
