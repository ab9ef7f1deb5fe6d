// Copyright RingKernel authors.
// Envelope MessagePack, decode_envelope on input encode_envelope did not write: every truncation,
// another message type's envelope, a corrupt type id, an unknown MessageType, a stray hlc, too few
// elements, negative sender and below-broadcast receiver ids in every int width, extra trailing
// elements (skipped), and random bytes (no overread, no partial decode). What encode_envelope writes
// and refuses: envelope_codec_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "envelope_test_support.h"
#include "messaging_messages.rk.h"
#include "ringkernel/envelope_codec.h"

namespace {

using messaging_test::envelope_bytes;
using messaging_test::stamped_broadcast_tick;
using messaging_test::Tagged;
using messaging_test::Tick;
using ringkernel::codec_status;
using ringkernel::KernelMessage;

TEST(EnvelopeCodec, EveryTruncationFailsWithoutTouchingTheOutput) {
  const auto m = stamped_broadcast_tick();
  const auto bytes = envelope_bytes(m);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    KernelMessage<Tick> out = KernelMessage<Tick>::create_data(99, 99, Tick{});
    const auto before = out;
    const auto r = ringkernel::decode_envelope(bytes.data(), n, out);
    EXPECT_EQ(r.status, codec_status::truncated_input) << "length " << n;
    EXPECT_LE(r.size, n);
    EXPECT_EQ(out, before) << "output written on failure at length " << n;
  }
}

TEST(EnvelopeCodec, RejectsAnotherMessageTypeUnknownTypesAndStrayHlc) {
  // A Tagged envelope decoded as a Tick: wrong message type at the type id (offset 1), a status
  // of its own so that a consumer can try another decoder rather than drop corrupt bytes.
  const auto tagged = envelope_bytes(KernelMessage<Tagged>::create_data(1, 2, Tagged{}));
  KernelMessage<Tick> tick{};
  auto r = ringkernel::decode_envelope(tagged.data(), tagged.size(), tick);
  EXPECT_EQ(r.status, codec_status::wrong_message_type);
  EXPECT_EQ(r.size, 1u);
  EXPECT_EQ(tick, KernelMessage<Tick>{});

  // A type id that is no uint at all is corrupt input, not another message type.
  auto corrupt = tagged;
  corrupt[1] = 0xa4;  // fixstr of 4 over the uint 32 type id
  KernelMessage<Tagged> tagged_back{};
  r = ringkernel::decode_envelope(corrupt.data(), corrupt.size(), tagged_back);
  EXPECT_EQ(r.status, codec_status::type_mismatch);
  EXPECT_EQ(r.size, 1u);

  // MessageType 6 (positive fixint at offset 1 + 5 + 1 + 1).
  auto bytes = tagged;
  ASSERT_EQ(bytes[0], 0x98);  // fixarray of 8
  ASSERT_EQ(bytes[1], 0xce);  // uint32 type id
  const std::size_t type_at = 1 + 5 + 1 + 1;
  ASSERT_EQ(bytes[type_at], 0x00);
  bytes[type_at] = ringkernel::message_type_count;
  KernelMessage<Tagged> out{};
  r = ringkernel::decode_envelope(bytes.data(), bytes.size(), out);
  EXPECT_EQ(r.status, codec_status::value_out_of_range);
  EXPECT_EQ(r.size, type_at);

  // A non-zero hlc for a non-causal payload (sequence 0, timestamp 0 are one byte each).
  bytes = tagged;
  const std::size_t hlc_at = type_at + 3;
  ASSERT_EQ(bytes[hlc_at], 0x00);
  bytes[hlc_at] = 0x01;
  r = ringkernel::decode_envelope(bytes.data(), bytes.size(), out);
  EXPECT_EQ(r.status, codec_status::value_out_of_range);
  EXPECT_EQ(r.size, hlc_at);

  // Fewer than 8 elements; not an array at all; the never-used byte.
  bytes = tagged;
  bytes[0] = 0x97;
  EXPECT_EQ(ringkernel::decode_envelope(bytes.data(), bytes.size(), out).status, codec_status::missing_field);
  bytes[0] = 0x81;
  EXPECT_EQ(ringkernel::decode_envelope(bytes.data(), bytes.size(), out).status, codec_status::type_mismatch);
  bytes[0] = 0xc1;
  EXPECT_EQ(ringkernel::decode_envelope(bytes.data(), bytes.size(), out).status, codec_status::invalid_input);
}

// A receiver id is -1 (broadcast) or an id >= 0: below -1, in any int width, decode says
// value_out_of_range at element 2 (offset 7 after a uint 32 type id) without writing the message,
// and encode refuses the header (nothing written). Sender ids are any int32.
TEST(EnvelopeCodec, SenderIdsBelowZeroAndReceiverIdsBelowBroadcastAreRefused) {
  constexpr std::uint32_t id = ringkernel::message_traits<Tagged>::type_id;
  const auto envelope = [](std::vector<std::uint8_t> sender, std::vector<std::uint8_t> receiver) {
    std::vector<std::uint8_t> bytes{0x98, 0xce, static_cast<std::uint8_t>(id >> 24), static_cast<std::uint8_t>(id >> 16),
                                    static_cast<std::uint8_t>(id >> 8), static_cast<std::uint8_t>(id)};
    // One byte at a time: g++ 12 -O3 reports a false -Warray-bounds in vector::insert of a range here.
    for (const std::uint8_t b : sender) bytes.push_back(b);
    for (const std::uint8_t b : receiver) bytes.push_back(b);
    for (const std::uint8_t b : {0x00, 0x05, 0x06, 0x00, 0x93, 0x03, 0x00, 0x2a}) bytes.push_back(b);
    return bytes;
  };
  // Every int width of a negative value: negative fixint, int 8, 16, 32 and 64.
  const struct {
    std::vector<std::uint8_t> bytes;
    std::int32_t value;
  } below_zero[] = {{{0xff}, -1},
                    {{0xe0}, -32},
                    {{0xd0, 0x80}, -128},
                    {{0xd1, 0xff, 0xfe}, -2},
                    {{0xd2, 0x80, 0x00, 0x00, 0x00}, std::numeric_limits<std::int32_t>::min()},
                    {{0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, -1}};
  const auto refused = [](const std::vector<std::uint8_t>& bytes, std::size_t at, std::int32_t sender_id,
                          std::int32_t receiver_id) {
    SCOPED_TRACE(::testing::Message() << "sender " << sender_id << ", receiver " << receiver_id);
    KernelMessage<Tagged> out = KernelMessage<Tagged>::create_data(99, 99, Tagged{});
    const auto before = out;
    const auto r = ringkernel::decode_envelope(bytes.data(), bytes.size(), out);
    EXPECT_EQ(r.status, codec_status::value_out_of_range);
    EXPECT_EQ(r.size, at);
    EXPECT_EQ(out, before) << "output written on failure";

    auto m = KernelMessage<Tagged>::create_data(sender_id, receiver_id, Tagged{3, 0, 42});
    std::vector<std::uint8_t> written(ringkernel::max_envelope_encoded_size<Tagged>, 0xee);
    const auto e = ringkernel::encode_envelope(m, written.data(), written.size());
    EXPECT_EQ(e.status, codec_status::value_out_of_range);
    EXPECT_EQ(e.size, 0u);
    EXPECT_EQ(written, std::vector<std::uint8_t>(written.size(), 0xee)) << "output written";
  };
  for (const auto& c : below_zero) {
    // A negative sender: refused at element 1 (offset 6), whatever the receiver.
    refused(envelope(c.bytes, {0x01}), 6, c.value, 1);
    refused(envelope(c.bytes, {0xff}), 6, c.value, -1);
    // A receiver below -1 (broadcast_receiver): refused at element 2 (offset 7).
    if (c.value < -1) refused(envelope({0x01}, c.bytes), 7, 1, c.value);
  }
  refused(envelope({0x01}, {0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}), 7, 1, -2);

  // Senders 0 and INT32_MAX; receivers -1 (broadcast), 0 and INT32_MAX: they come back.
  const struct {
    std::vector<std::uint8_t> sender, receiver;
    std::int32_t sender_id, receiver_id;
  } accepted[] = {{{0x00}, {0xff}, 0, -1},
                  {{0x01}, {0x00}, 1, 0},
                  {{0xce, 0x7f, 0xff, 0xff, 0xff}, {0xce, 0x7f, 0xff, 0xff, 0xff}, std::numeric_limits<std::int32_t>::max(),
                   std::numeric_limits<std::int32_t>::max()}};
  for (const auto& c : accepted) {
    const auto bytes = envelope(c.sender, c.receiver);
    KernelMessage<Tagged> out{};
    const auto r = ringkernel::decode_envelope(bytes.data(), bytes.size(), out);
    ASSERT_EQ(r.status, codec_status::ok) << c.sender_id << " -> " << c.receiver_id;
    EXPECT_EQ(r.size, bytes.size());
    EXPECT_EQ(out.header.sender_id, c.sender_id);
    EXPECT_EQ(out.header.receiver_id, c.receiver_id);
    EXPECT_EQ(envelope_bytes(out), bytes);
  }
}

TEST(EnvelopeCodec, SkipsExtraTrailingElements) {
  const auto m = KernelMessage<Tagged>::create_data(1, 2, Tagged{7, 0, 8});
  auto bytes = envelope_bytes(m);
  bytes[0] = 0x9a;  // 10 elements: two more follow
  bytes.push_back(0xc0);
  bytes.push_back(0x92);
  bytes.push_back(0x01);
  bytes.push_back(0xa1);
  bytes.push_back('x');
  KernelMessage<Tagged> out{};
  const auto r = ringkernel::decode_envelope(bytes.data(), bytes.size(), out);
  ASSERT_EQ(r.status, codec_status::ok);
  EXPECT_EQ(r.size, bytes.size());
  EXPECT_EQ(out, m);
}

TEST(EnvelopeCodec, RandomBytesNeverReadOutOfBoundsOrDecodePartially) {
  std::mt19937 rng(1234);
  const auto valid = envelope_bytes(stamped_broadcast_tick());
  for (int round = 0; round < 20000; ++round) {
    std::vector<std::uint8_t> bytes = valid;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<std::uint8_t>(rng());
    bytes.resize(rng() % (bytes.size() + 1));
    std::vector<std::uint8_t> exact(bytes);  // exact-size heap copy: ASan sees any overread
    KernelMessage<Tick> out{};
    const auto r = ringkernel::decode_envelope(exact.data(), exact.size(), out);
    ASSERT_LE(r.size, exact.size());
    if (r.status != codec_status::ok) {
      ASSERT_EQ(out, KernelMessage<Tick>{});
    }
  }
}

}  // namespace
