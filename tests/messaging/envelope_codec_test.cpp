// Copyright RingKernel authors.
// Envelope MessagePack, what encode_envelope writes and what it refuses: round trips, the documented
// byte layout (checked against msgpack-c and the example of wire format §9), exact-size buffers, and
// the headers encode refuses (envelope_header_problem). decode_envelope on input encode_envelope did
// not write: envelope_decode_input_test.cpp.
#include <gtest/gtest.h>
#include <msgpack.h>

#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "envelope_test_support.h"
#include "messaging_messages.rk.h"
#include "ringkernel/envelope_codec.h"

namespace {

using messaging_test::envelope_bytes;
using messaging_test::stamped;
using messaging_test::stamped_broadcast_tick;
using messaging_test::Aligned16;
using messaging_test::Reading;
using messaging_test::Tagged;
using messaging_test::Tick;
using ringkernel::codec_status;
using ringkernel::KernelMessage;

TEST(EnvelopeCodec, RoundTripsCausalPlainAndMapPayloads) {
  const auto tick = stamped_broadcast_tick();
  KernelMessage<Tick> tick_back{};
  const auto bytes = envelope_bytes(tick);
  ASSERT_EQ(ringkernel::decode_envelope(bytes.data(), bytes.size(), tick_back).status, codec_status::ok);
  EXPECT_EQ(tick_back, tick);

  auto plain = KernelMessage<Tagged>::create_data(1, 2, Tagged{3, 0, 0xffffffffffull});
  plain.header.sequence = 1u << 20;
  plain.header.timestamp_us = -1;
  KernelMessage<Tagged> plain_back{};
  const auto plain_bytes = envelope_bytes(plain);
  const auto r = ringkernel::decode_envelope(plain_bytes.data(), plain_bytes.size(), plain_back);
  ASSERT_EQ(r.status, codec_status::ok);
  EXPECT_EQ(r.size, plain_bytes.size());
  EXPECT_EQ(plain_back, plain);

  const auto reading = KernelMessage<Reading>::create_data(4, 5, Reading{Tagged{1, 0, 2}, {0.5, -1.0, 3e100}});
  KernelMessage<Reading> reading_back{};
  const auto reading_bytes = envelope_bytes(reading);
  ASSERT_EQ(ringkernel::decode_envelope(reading_bytes.data(), reading_bytes.size(), reading_back).status, codec_status::ok);
  EXPECT_EQ(reading_back, reading);
}

TEST(EnvelopeCodec, BytesAreTheDocumentedArrayAsMsgpackCWritesIt) {
  const auto m = stamped_broadcast_tick();
  msgpack_sbuffer buf;
  msgpack_sbuffer_init(&buf);
  msgpack_packer pk;
  msgpack_packer_init(&pk, &buf, msgpack_sbuffer_write);
  msgpack_pack_array(&pk, 8);
  msgpack_pack_uint32(&pk, ringkernel::message_traits<Tick>::type_id);
  msgpack_pack_int32(&pk, m.header.sender_id);
  msgpack_pack_int32(&pk, m.header.receiver_id);
  msgpack_pack_uint8(&pk, static_cast<std::uint8_t>(m.header.type));
  msgpack_pack_uint64(&pk, m.header.sequence);
  msgpack_pack_int64(&pk, m.header.timestamp_us);
  msgpack_pack_uint64(&pk, m.header.hlc.bits);
  std::uint8_t payload[ringkernel::max_encoded_size<Tick>];
  const auto p = ringkernel::encode(m.payload, payload, sizeof payload);
  ASSERT_EQ(p.status, codec_status::ok);
  msgpack_sbuffer_write(&buf, reinterpret_cast<const char*>(payload), p.size);
  const std::vector<std::uint8_t> expected(buf.data, buf.data + buf.size);
  msgpack_sbuffer_destroy(&buf);
  EXPECT_EQ(envelope_bytes(m), expected);
}

TEST(EnvelopeCodec, MatchesTheExampleOfWireFormatSection9) {
  auto m = KernelMessage<Tagged>::create_data(1, ringkernel::broadcast_receiver, Tagged{3, 0, 42});
  m.header.sequence = 5;
  m.header.timestamp_us = 1'763'000'000'000'000;
  const std::uint32_t id = ringkernel::message_traits<Tagged>::type_id;
  const std::vector<std::uint8_t> expected{0x98, 0xce, static_cast<std::uint8_t>(id >> 24), static_cast<std::uint8_t>(id >> 16),
                                           static_cast<std::uint8_t>(id >> 8), static_cast<std::uint8_t>(id), 0x01, 0xff, 0x00,
                                           0x05, 0xcf, 0x00, 0x06, 0x43, 0x70, 0x6c, 0xbd, 0x30, 0x00, 0x00, 0x93, 0x03,
                                           0x00, 0x2a};
  ASSERT_GE(id, 1u << 16) << "the example shows a uint 32 type id";
  EXPECT_EQ(envelope_bytes(m), expected);
}

// A buffer below max_envelope_encoded_size takes the checked writer: the exact size is enough (ok,
// the bytes a full buffer gets, nothing past them), one byte less is buffer_too_small with the size.
TEST(EnvelopeCodec, EncodeIntoAnExactBufferBelowTheMaximum) {
  const auto m = stamped_broadcast_tick();
  const auto full = envelope_bytes(m);
  ASSERT_LT(full.size(), ringkernel::max_envelope_encoded_size<Tick>);
  std::vector<std::uint8_t> out(full.size() + 1, 0xee);
  auto r = ringkernel::encode_envelope(m, out.data(), full.size());
  EXPECT_EQ(r.status, codec_status::ok);
  EXPECT_EQ(r.size, full.size());
  EXPECT_EQ(out, [&] { auto v = full; v.push_back(0xee); return v; }());
  r = ringkernel::encode_envelope(m, out.data(), full.size() - 1);
  EXPECT_EQ(r.status, codec_status::buffer_too_small);
  EXPECT_EQ(r.size, full.size());
}

// What decode_envelope would refuse, or give back different, is not encoded: nothing written.
TEST(EnvelopeCodec, EncodeRefusesWhatWouldNotComeBackEqual) {
  const auto good = stamped_broadcast_tick();
  const auto refused = [](const KernelMessage<Tick>& m, codec_status expected, const char* what) {
    std::vector<std::uint8_t> out(ringkernel::max_envelope_encoded_size<Tick>, 0xee);
    const auto r = ringkernel::encode_envelope(m, out.data(), out.size());
    EXPECT_EQ(r.status, expected) << what;
    EXPECT_EQ(r.size, 0u) << what;
    EXPECT_EQ(out, std::vector<std::uint8_t>(out.size(), 0xee)) << what << ": output written";
    std::vector<std::uint8_t> small(4, 0xee);  // the same answer with a buffer that is too small
    EXPECT_EQ(ringkernel::encode_envelope(m, small.data(), small.size()).status, expected) << what;
  };
  auto m = good;
  m.header.type_id += 1;
  refused(m, codec_status::wrong_message_type, "another type id");
  m = good;
  m.header.type = static_cast<ringkernel::MessageType>(200);
  refused(m, codec_status::value_out_of_range, "unknown MessageType");
  m = good;
  m.header.flags = 1;
  refused(m, codec_status::value_out_of_range, "flags (not on the wire)");
  m = good;
  m.header.reserved = 1;
  refused(m, codec_status::value_out_of_range, "reserved (not on the wire)");
  KernelMessage<Tick> back{};
  const auto bytes = envelope_bytes(good);
  ASSERT_EQ(ringkernel::decode_envelope(bytes.data(), bytes.size(), back).status, codec_status::ok);
  EXPECT_EQ(back, good);
}

// envelope_header_problem names the field encode_envelope refuses (status as for that field), and
// is nullptr exactly when encode_envelope accepts the header.
TEST(EnvelopeCodec, HeaderProblemNamesTheFieldThatEncodeRefuses) {
  using Header = KernelMessage<Tick>::header_type;
  constexpr codec_status range = codec_status::value_out_of_range;
  const struct {
    void (*spoil)(Header&);
    codec_status status;
    const char* problem;
  } bad[] = {
      {[](Header& h) { h.type_id += 1; }, codec_status::wrong_message_type, "header.type_id is not this message type's id"},
      {[](Header& h) { h.sender_id = -1; }, range, "header.sender_id is negative"},
      {[](Header& h) { h.sender_id = std::numeric_limits<std::int32_t>::min(); }, range, "header.sender_id is negative"},
      {[](Header& h) { h.receiver_id = -2; }, range, "header.receiver_id is below -1 (broadcast)"},
      {[](Header& h) { h.type = static_cast<ringkernel::MessageType>(6); }, range, "header.type is not a MessageType"},
      {[](Header& h) { h.type = static_cast<ringkernel::MessageType>(255); }, range, "header.type is not a MessageType"},
      {[](Header& h) { h.flags = 1; }, range, "header.flags is not 0 (not on the wire)"},
      {[](Header& h) { h.flags = 0x80; }, range, "header.flags is not 0 (not on the wire)"},
      {[](Header& h) { h.reserved = 1; }, range, "header.reserved is not 0 (not on the wire)"},
      {[](Header& h) { h.reserved = 0x8000; }, range, "header.reserved is not 0 (not on the wire)"},
  };
  std::uint8_t out[ringkernel::max_envelope_encoded_size<Tick>];
  for (const auto& c : bad) {
    auto m = stamped_broadcast_tick();
    c.spoil(m.header);
    const char* problem = ringkernel::envelope_header_problem(m);
    ASSERT_NE(problem, nullptr) << c.problem;
    EXPECT_STREQ(problem, c.problem);
    const auto r = ringkernel::encode_envelope(m, out, sizeof out);
    EXPECT_EQ(r.status, c.status) << c.problem;
    EXPECT_EQ(r.size, 0u) << c.problem;
  }

  // Accepted: broadcast (-1) and other receivers, senders 0 and INT32_MAX, every MessageType, any
  // timestamp and hlc (a non-causal payload type: the static_asserts below).
  std::vector<KernelMessage<Tick>> good{stamped_broadcast_tick()};
  for (std::uint8_t t = 0; t < ringkernel::message_type_count; ++t) {
    good.push_back(KernelMessage<Tick>::create(0, 0, static_cast<ringkernel::MessageType>(t), Tick{}));
  }
  good.back().header.sender_id = std::numeric_limits<std::int32_t>::max();
  good.back().header.receiver_id = std::numeric_limits<std::int32_t>::max();
  good.back().header.timestamp_us = -1;
  good.back().header.hlc = ringkernel::hlc_timestamp{~0ull};
  for (const auto& m : good) {
    EXPECT_EQ(ringkernel::envelope_header_problem(m), nullptr) << m.header.sender_id << " -> " << m.header.receiver_id;
    EXPECT_EQ(ringkernel::encode_envelope(m, out, sizeof out).status, codec_status::ok);
  }
}

// Several bad fields: the first in the documented order (type_id, sender_id, receiver_id, type,
// flags, reserved) is named, and encode_envelope's status is that field's.
TEST(EnvelopeCodec, HeaderProblemReportsTheFirstInTheDocumentedOrder) {
  auto m = stamped_broadcast_tick();
  m.header.reserved = 1;
  m.header.flags = 1;
  m.header.type = static_cast<ringkernel::MessageType>(9);
  m.header.receiver_id = -2;
  m.header.sender_id = -1;
  m.header.type_id += 1;
  const auto good = stamped_broadcast_tick();
  std::uint8_t out[ringkernel::max_envelope_encoded_size<Tick>];
  const auto expect = [&](const char* problem, codec_status status) {
    EXPECT_STREQ(ringkernel::envelope_header_problem(m), problem);
    EXPECT_EQ(ringkernel::encode_envelope(m, out, sizeof out).status, status) << problem;
  };
  expect("header.type_id is not this message type's id", codec_status::wrong_message_type);
  m.header.type_id = good.header.type_id;
  expect("header.sender_id is negative", codec_status::value_out_of_range);
  m.header.sender_id = 0;
  expect("header.receiver_id is below -1 (broadcast)", codec_status::value_out_of_range);
  m.header.receiver_id = 0;
  expect("header.type is not a MessageType", codec_status::value_out_of_range);
  m.header.type = ringkernel::MessageType::heartbeat;
  expect("header.flags is not 0 (not on the wire)", codec_status::value_out_of_range);
  m.header.flags = 0;
  expect("header.reserved is not 0 (not on the wire)", codec_status::value_out_of_range);
  m.header.reserved = 0;
  EXPECT_EQ(ringkernel::envelope_header_problem(m), nullptr);
}

// A constant expression for a constant message; a broadcast is accepted.
constexpr auto constant_broadcast = KernelMessage<Tagged>::create_data(1, ringkernel::broadcast_receiver, Tagged{3, 0, 42});
static_assert(ringkernel::envelope_header_problem(constant_broadcast) == nullptr);
static_assert(std::string_view(ringkernel::envelope_header_problem(KernelMessage<Tagged>::create_data(-1, 2, Tagged{}))) ==
              "header.sender_id is negative");

// A causal payload aligned to 16 (payload at 48 in the raw layout) round-trips like any other.
TEST(EnvelopeCodec, RoundTripsAPayloadAlignedTo16) {
  const auto sent = stamped(KernelMessage<Aligned16>::create_data(3, 4, Aligned16{0xffffffffu, -1.5e300}), 3);
  ASSERT_NE(sent.header.hlc.bits, 0u);
  const auto bytes = envelope_bytes(sent);
  alignas(16) KernelMessage<Aligned16> back{};
  const auto r = ringkernel::decode_envelope(bytes.data(), bytes.size(), back);
  ASSERT_EQ(r.status, codec_status::ok);
  EXPECT_EQ(r.size, bytes.size());
  EXPECT_EQ(back, sent);
  EXPECT_EQ(back.payload.lane, 0xffffffffu);
  EXPECT_EQ(back.payload.value, -1.5e300);
}

}  // namespace
