// Copyright RingKernel authors.
// Decoder rules shown on messages defined here, with traits written by hand (the contract of
// ringkernel/message.h): nested messages with padding (decode writes fields, never padding, at
// any level) and an enum whose underlying type is bool (only 0 and 1, in every int form).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ringkernel/codec.h"
#include "ringkernel/envelope_codec.h"

namespace local_messages {

struct Padded {  // 3 padding bytes after `a`
  std::uint8_t a;
  std::uint32_t b;
};
struct HoldsPadded {  // padding inside `in` and `pair`, and 3 bytes after `tail`
  Padded in;
  Padded pair[2];
  std::uint8_t tail;
};
enum class Switch : bool { off = false, on = true };
struct WithSwitch {
  Switch s;
};

}  // namespace local_messages

namespace ringkernel {

template <class T, std::size_t N>
struct local_traits {
  using type = T;
  static constexpr bool is_message = true;
  static constexpr ringkernel::direction direction = ringkernel::direction::bidirectional;
  static constexpr std::uint8_t priority = 128;
  static constexpr bool causal = false;
  static constexpr ringkernel::wire_format format = ringkernel::wire_format::array;
  static constexpr std::size_t size = sizeof(T);
  static constexpr std::size_t alignment = alignof(T);
  static constexpr std::size_t field_count = N;
  static constexpr const char* kernel = "Local";
  static constexpr std::uint32_t kernel_id = ringkernel::fnv1a32("Local");
};

template <class F>
constexpr field_descriptor local_field(const char* name, std::size_t offset, field_kind kind, field_kind underlying) {
  field_descriptor d{};
  d.name = name;
  d.kind = kind;
  d.underlying = underlying;
  d.offset = static_cast<std::uint32_t>(offset);
  d.size = sizeof(F);
  d.element_size = sizeof(std::remove_all_extents_t<F>);
  d.rank = std::rank_v<F>;
  if constexpr (std::rank_v<F> > 0) d.extents[0] = std::extent_v<F, 0>;
  return d;
}

template <>
struct message_traits<local_messages::Padded> : local_traits<local_messages::Padded, 2> {
  using M = local_messages::Padded;
  static constexpr std::uint32_t type_id = fnv1a32("local_messages::Padded");
  static constexpr const char* name = "local_messages::Padded";
  static constexpr field_descriptor field(std::size_t i) {
    const field_descriptor all[] = {local_field<std::uint8_t>("a", offsetof(M, a), field_kind::uint8, field_kind::uint8),
                                    local_field<std::uint32_t>("b", offsetof(M, b), field_kind::uint32, field_kind::uint32)};
    return i < 2 ? all[i] : field_descriptor{};
  }
  template <class V>
  static constexpr void visit_fields(M& m, V&& v) { v(field_index<0>{}, m.a); v(field_index<1>{}, m.b); }
  template <class V>
  static constexpr void visit_fields(const M& m, V&& v) { v(field_index<0>{}, m.a); v(field_index<1>{}, m.b); }
};

template <>
struct message_traits<local_messages::HoldsPadded> : local_traits<local_messages::HoldsPadded, 3> {
  using M = local_messages::HoldsPadded;
  static constexpr std::uint32_t type_id = fnv1a32("local_messages::HoldsPadded");
  static constexpr const char* name = "local_messages::HoldsPadded";
  static constexpr field_descriptor field(std::size_t i) {
    field_descriptor all[] = {local_field<local_messages::Padded>("in", offsetof(M, in), field_kind::message, field_kind::message),
                              local_field<local_messages::Padded[2]>("pair", offsetof(M, pair), field_kind::message, field_kind::message),
                              local_field<std::uint8_t>("tail", offsetof(M, tail), field_kind::uint8, field_kind::uint8)};
    all[0].message_type_id = message_traits<local_messages::Padded>::type_id;
    all[1].message_type_id = message_traits<local_messages::Padded>::type_id;
    return i < 3 ? all[i] : field_descriptor{};
  }
  template <class Msg, class V>
  static constexpr void visit_all(Msg& m, V& v) {
    v(field_index<0>{}, m.in);
    v(field_index<1>{}, m.pair);
    v(field_index<2>{}, m.tail);
  }
  template <class V>
  static constexpr void visit_fields(M& m, V&& v) { visit_all(m, v); }
  template <class V>
  static constexpr void visit_fields(const M& m, V&& v) { visit_all(m, v); }
};

template <>
struct message_traits<local_messages::WithSwitch> : local_traits<local_messages::WithSwitch, 1> {
  using M = local_messages::WithSwitch;
  static constexpr std::uint32_t type_id = fnv1a32("local_messages::WithSwitch");
  static constexpr const char* name = "local_messages::WithSwitch";
  static constexpr field_descriptor field(std::size_t i) {
    const field_descriptor all[] = {local_field<local_messages::Switch>("s", offsetof(M, s), field_kind::enumeration, field_kind::boolean)};
    return i < 1 ? all[i] : field_descriptor{};
  }
  template <class V>
  static constexpr void visit_fields(M& m, V&& v) { v(field_index<0>{}, m.s); }
  template <class V>
  static constexpr void visit_fields(const M& m, V&& v) { v(field_index<0>{}, m.s); }
};

}  // namespace ringkernel

namespace local_messages {
namespace {

using bytes = std::vector<std::uint8_t>;
using ringkernel::codec_status;

// Leaves a pattern on the stack below the caller's frame, where decode's temporary will lie: a
// decoder that copied the temporary's padding would carry these bytes into the message.
[[gnu::noinline]] void scribble_on_the_stack() {
  volatile unsigned char junk[4096];
  for (unsigned char& b : const_cast<unsigned char(&)[4096]>(junk)) b = 0xcd;
}

[[gnu::noinline]] ringkernel::codec_result decode_after_scribbling(const bytes& wire, HoldsPadded& m) {
  scribble_on_the_stack();
  return ringkernel::decode(wire.data(), wire.size(), m);
}

TEST(DecodeLocalMessages, PaddingOfNestedMessagesKeepsTheTargetsBytes) {
  HoldsPadded source{};
  source.in = {1, 0x01020304};
  source.pair[0] = {2, 5};
  source.pair[1] = {3, 70000};
  source.tail = 9;
  bytes wire(ringkernel::max_encoded_size<HoldsPadded>);
  const ringkernel::codec_result encoded = ringkernel::encode(source, wire.data(), wire.size());
  ASSERT_EQ(encoded.status, codec_status::ok);
  wire.resize(encoded.size);

  HoldsPadded m;
  std::memset(static_cast<void*>(&m), 0xab, sizeof m);
  const ringkernel::codec_result r = decode_after_scribbling(wire, m);
  ASSERT_EQ(r.status, codec_status::ok);
  EXPECT_EQ(m.in.a, 1);
  EXPECT_EQ(m.in.b, 0x01020304u);
  EXPECT_EQ(m.pair[0].a, 2);
  EXPECT_EQ(m.pair[0].b, 5u);
  EXPECT_EQ(m.pair[1].a, 3);
  EXPECT_EQ(m.pair[1].b, 70000u);
  EXPECT_EQ(m.tail, 9);
  const auto* raw = reinterpret_cast<const unsigned char*>(&m);
  const std::size_t padding_starts[] = {offsetof(HoldsPadded, in) + 1, offsetof(HoldsPadded, pair) + 1,
                                        offsetof(HoldsPadded, pair) + sizeof(Padded) + 1, offsetof(HoldsPadded, tail) + 1};
  for (const std::size_t at : padding_starts) {
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(raw[at + k], 0xab) << "padding byte " << at + k << " was written";
  }
}

TEST(DecodeLocalMessages, AnEnumOnBoolTakesZeroAndOneInAnyIntForm) {
  const bytes accepted[] = {{0x91, 0x00}, {0x91, 0x01}, {0x91, 0xcc, 0x01}, {0x91, 0xcd, 0x00, 0x01},
                            {0x91, 0xd0, 0x01}, {0x91, 0xd3, 0, 0, 0, 0, 0, 0, 0, 0x01}};
  for (const bytes& wire : accepted) {
    WithSwitch m{Switch::off};
    const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), m);
    EXPECT_EQ(r.status, codec_status::ok) << ringkernel::to_string(r.status);
    EXPECT_EQ(m.s, wire.back() == 1 ? Switch::on : Switch::off);
  }
  const bytes rejected[] = {{0x91, 0x02}, {0x91, 0x05}, {0x91, 0x7f}, {0x91, 0xcc, 0x05}, {0x91, 0xcd, 0x00, 0x05},
                            {0x91, 0xd0, 0x05}, {0x91, 0xff}, {0x91, 0xd0, 0xff}, {0x91, 0xcc, 0xff}};
  for (const bytes& wire : rejected) {
    WithSwitch m{Switch::on};
    const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), m);
    EXPECT_EQ(r.status, codec_status::value_out_of_range) << ringkernel::to_string(r.status) << " for byte " << int{wire[1]};
    EXPECT_EQ(r.size, 1u);
    EXPECT_EQ(m.s, Switch::on) << "decode wrote the message on failure";
  }
  // Encoding writes 0 and 1 (a positive fixint).
  std::uint8_t out[ringkernel::max_encoded_size<WithSwitch>];
  const ringkernel::codec_result e = ringkernel::encode(WithSwitch{Switch::on}, out, sizeof out);
  ASSERT_EQ(e.status, codec_status::ok);
  EXPECT_EQ(bytes(out, out + e.size), (bytes{0x91, 0x01}));
  // A byte other than 0 and 1 (a raw message) is 1, never the byte itself: g++ wrote 0x02 as 02 and
  // 0xff as ff (a negative fixint), both of which the decoder refuses for this field.
  for (const unsigned char byte : {0x02, 0x7f, 0x80, 0xff}) {
    WithSwitch m{};
    std::memcpy(&m.s, &byte, 1);
    const ringkernel::codec_result g = ringkernel::encode(m, out, sizeof out);
    ASSERT_EQ(g.status, codec_status::ok);
    EXPECT_EQ(bytes(out, out + g.size), (bytes{0x91, 0x01})) << "byte " << int{byte};
  }
}

TEST(DecodeLocalMessages, EnvelopeDecodeKeepsThePayloadsPaddingBytes) {
  ringkernel::KernelMessage<HoldsPadded> source{};
  source.header.type_id = ringkernel::message_traits<HoldsPadded>::type_id;
  source.header.sender_id = 4;
  source.header.receiver_id = -1;
  source.payload.in = {1, 0x01020304};
  source.payload.pair[1] = {3, 70000};
  source.payload.tail = 9;
  bytes wire(ringkernel::max_envelope_encoded_size<HoldsPadded>);
  const ringkernel::codec_result encoded = ringkernel::encode_envelope(source, wire.data(), wire.size());
  ASSERT_EQ(encoded.status, codec_status::ok);
  wire.resize(encoded.size);

  ringkernel::KernelMessage<HoldsPadded> m;
  std::memset(static_cast<void*>(&m), 0xab, sizeof m);
  ASSERT_EQ(ringkernel::decode_envelope(wire.data(), wire.size(), m).status, codec_status::ok);
  EXPECT_EQ(m.header.sender_id, 4);
  EXPECT_EQ(m.header.receiver_id, -1);
  EXPECT_EQ(m.payload.in.b, 0x01020304u);
  EXPECT_EQ(m.payload.pair[1].b, 70000u);
  EXPECT_EQ(m.payload.tail, 9);
  const auto* raw = reinterpret_cast<const unsigned char*>(&m.payload);
  for (const std::size_t at : {offsetof(HoldsPadded, in) + 1, offsetof(HoldsPadded, tail) + 1}) {
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(raw[at + k], 0xab) << "payload padding byte " << at + k << " was written";
  }
}

}  // namespace
}  // namespace local_messages
