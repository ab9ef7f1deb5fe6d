// Copyright RingKernel authors.
// ringkernel::describe_decode_failure<KernelMessage<T>> (ringkernel/decode_diagnostic.h): which
// envelope element decode_envelope refused (".header.<field>") or which value of the payload
// (".payload.<path>"), with decode_envelope's own status and offset, for the header's checks, a
// short envelope, an extra element, array and map payloads and a causal one.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "envelope_test_support.h"
#include "messaging_messages.rk.h"
#include "ringkernel/decode_diagnostic.h"
#include "ringkernel/envelope_codec.h"

namespace messaging_test {
namespace {

using ringkernel::codec_status;
using ringkernel::KernelMessage;
using bytes = std::vector<std::uint8_t>;

bytes cat(std::initializer_list<bytes> parts) {
  bytes out;
  for (const bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

bytes uint32(std::uint32_t v) { return {0xce, std::uint8_t(v >> 24), std::uint8_t(v >> 16), std::uint8_t(v >> 8), std::uint8_t(v)}; }

bytes str(const std::string& s) {
  bytes out{static_cast<std::uint8_t>(0xa0 | s.size())};
  for (const char c : s) out.push_back(static_cast<std::uint8_t>(c));  // (insert: g++ 12 -Warray-bounds false positive)
  return out;
}

/// An envelope of `T`'s type id: the type id in its uint 32 form (bytes 1-5), then one byte each for
/// sender (6), receiver (7), type (8), sequence (9), timestamp (10) and hlc (11) unless given,
/// the payload from byte 12.
template <class T>
bytes envelope(const bytes& payload, bytes sender = {0x01}, bytes receiver = {0x02}, bytes type = {0x00},
               bytes sequence = {0x07}, bytes hlc = {0x00}) {
  return cat({{0x98}, uint32(ringkernel::message_traits<T>::type_id), sender, receiver, type, sequence, {0x00}, hlc,
              payload});
}

const bytes tagged_payload = {0x93, 0x01, 0x02, 0x03};

/// decode_envelope<T> refuses `wire` with `status`, and the description is `expected`, which names
/// decode_envelope's status and offset.
template <class T>
void expect_described(const bytes& wire, codec_status status, const std::string& expected) {
  KernelMessage<T> m{};
  const ringkernel::codec_result r = ringkernel::decode_envelope(wire.data(), wire.size(), m);
  ASSERT_EQ(r.status, status) << ringkernel::to_string(r.status);
  const std::string text = ringkernel::describe_decode_failure<KernelMessage<T>>(wire.data(), wire.size());
  EXPECT_EQ(text, expected);
  const std::string verdict = std::string(": ") + ringkernel::to_string(r.status) + " at byte " + std::to_string(r.size);
  EXPECT_NE(text.find(verdict), std::string::npos) << text << " lacks '" << verdict << "'";
}

TEST(EnvelopeDecodeDiagnostic, AcceptedEnvelopesAreDescribedAsNothing) {
  const bytes wire = envelope_bytes(KernelMessage<Tagged>::create_data(1, 2, Tagged{1, 2, 3}));
  EXPECT_EQ(ringkernel::describe_decode_failure<KernelMessage<Tagged>>(wire.data(), wire.size()), "");
  const bytes tick = envelope_bytes(stamped_broadcast_tick());
  EXPECT_EQ(ringkernel::describe_decode_failure<KernelMessage<Tick>>(tick.data(), tick.size()), "");
}

TEST(EnvelopeDecodeDiagnostic, HeaderChecksNameTheirElement) {
  const std::string name = "KernelMessage<messaging_test::Tagged>";
  expect_described<Tagged>(envelope<Tagged>(tagged_payload, {0xfd}), codec_status::value_out_of_range,
                           name + ".header.sender_id: value out of range at byte 6 (sender_id -3 is negative)");
  expect_described<Tagged>(envelope<Tagged>(tagged_payload, {0x01}, {0xfe}), codec_status::value_out_of_range,
                           name + ".header.receiver_id: value out of range at byte 7 (receiver_id -2 is below -1 "
                                  "(broadcast))");
  expect_described<Tagged>(envelope<Tagged>(tagged_payload, {0x01}, {0x02}, {0x09}), codec_status::value_out_of_range,
                           name + ".header.type: value out of range at byte 8 (type 9 is not a MessageType (0 to 5))");
  expect_described<Tagged>(envelope<Tagged>(tagged_payload, {0x01}, {0x02}, {0x00}, {0x07}, {0x05}),
                           codec_status::value_out_of_range,
                           name + ".header.hlc: value out of range at byte 11 (hlc 5 for messaging_test::Tagged, which "
                                  "is not causal: 0 expected)");
  expect_described<Tagged>(envelope<Tagged>(tagged_payload, {0x01}, {0x02}, {0x00}, {0xff}),
                           codec_status::value_out_of_range,
                           name + ".header.sequence: value out of range at byte 9 (uint64 field given -1)");
  expect_described<Tagged>(envelope<Tagged>(tagged_payload, str("me")), codec_status::type_mismatch,
                           name + ".header.sender_id: type mismatch at byte 6 (a str of 2 bytes where int32 takes an int)");
}

TEST(EnvelopeDecodeDiagnostic, AnotherTypesIdIsWrongMessageTypeAtTheTypeId) {
  char expected[256];
  std::snprintf(expected, sizeof expected,
                "KernelMessage<messaging_test::Tagged>.header.type_id: wrong message type at byte 1 (the type id "
                "0x%08x is not messaging_test::Tagged's 0x%08x: decode it as the message type with that id)",
                static_cast<unsigned>(ringkernel::message_traits<Tick>::type_id),
                static_cast<unsigned>(ringkernel::message_traits<Tagged>::type_id));
  expect_described<Tagged>(envelope<Tick>(tagged_payload), codec_status::wrong_message_type, expected);
}

TEST(EnvelopeDecodeDiagnostic, ShortCutAndForeignEnvelopes) {
  const std::string name = "KernelMessage<messaging_test::Tagged>";
  expect_described<Tagged>({0x93, 0x01, 0x02, 0x03}, codec_status::missing_field,
                           name + ".header.type: missing field at byte 0 (an envelope array of 3 elements where 8 are "
                                  "expected: type_id, sender_id, receiver_id, type, sequence, timestamp_us, hlc, payload)");
  expect_described<Tagged>({0x98, 0xce, 0x00}, codec_status::truncated_input,
                           name + ".header.type_id: truncated input at byte 1 (a uint 32 cut by the end of the input, 2 "
                                  "bytes left)");
  expect_described<Tagged>({0x80}, codec_status::type_mismatch,
                           name + ": type mismatch at byte 0 (a map of 0 entries where an envelope takes an array of 8 "
                                  "elements)");
  bytes extra = envelope<Tagged>(cat({tagged_payload, {0xc1}}));
  extra[0] = 0x99;
  expect_described<Tagged>(extra, codec_status::invalid_input,
                           name + ": invalid input (the byte 0xc1, or a misaligned raw message) at byte 16 (the byte "
                                  "0xc1, which MessagePack never uses, in extra element 8 of the envelope (after its 8), "
                                  "which decode skips)");
}

TEST(EnvelopeDecodeDiagnostic, PayloadValuesArePathsUnderPayload) {
  const std::string name = "KernelMessage<messaging_test::Tagged>";
  expect_described<Tagged>(envelope<Tagged>(cat({{0x93, 0x01, 0x02}, str("3")})), codec_status::type_mismatch,
                           name + ".payload.index: type mismatch at byte 15 (a str of 1 byte where uint64 takes an int)");
  expect_described<Tagged>(envelope<Tagged>({0x92, 0x01, 0x02}), codec_status::missing_field,
                           name + ".payload.index: missing field at byte 12 (an array of 2 elements where "
                                  "messaging_test::Tagged has 3 fields; missing: \"index\")");
  expect_described<Tagged>(envelope<Tagged>({0x93, 0x01}), codec_status::truncated_input,
                           name + ".payload.pad: truncated input at byte 14 (the input ends at byte 14, before this "
                                  "value)");
}

TEST(EnvelopeDecodeDiagnostic, MapAndCausalPayloads) {
  const std::string name = "KernelMessage<messaging_test::Reading>";
  const bytes origin = cat({str("origin"), {0x93, 0xff, 0x02, 0x03}});
  expect_described<Reading>(envelope<Reading>(cat({{0x81}, origin})), codec_status::value_out_of_range,
                            name + ".payload.origin.producer: value out of range at byte 21 (uint32 field given -1)");
  const bytes good_origin = cat({str("origin"), tagged_payload});
  expect_described<Reading>(envelope<Reading>(cat({{0x81}, good_origin})), codec_status::missing_field,
                            name + ".payload.samples: missing field at byte 12 (the map at byte 12 has no key "
                                   "\"samples\"; keys present: \"origin\")");
  const bytes samples = cat({str("samples"), {0x93, 0x00, 0x00, 0xcf, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01}});
  expect_described<Reading>(envelope<Reading>(cat({{0x82}, good_origin, samples})), codec_status::value_out_of_range,
                            name + ".payload.samples[2]: value out of range at byte 35 (double field given the int "
                                   "9007199254740993, which it cannot hold exactly)");
  const bytes tick = cat({{0x93, 0x01, 0x00}, str("a note too long")});
  expect_described<Tick>(envelope<Tick>(tick, {0x01}, {0x02}, {0x00}, {0x07}, {0x05}), codec_status::wrong_length,
                         "KernelMessage<messaging_test::Tick>.payload.note: wrong array/str/bin length at byte 15 (a str "
                         "of 15 bytes for char[12])");
}

}  // namespace
}  // namespace messaging_test
