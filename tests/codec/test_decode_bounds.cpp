// Copyright RingKernel authors.
// The decoder at the edges of its input and of its containers: the integer forms of a float and a
// double field cut at every byte, a char[N] str that ends exactly where the input ends, a map with
// fewer entries than fields followed by bytes that spell the missing ones, and the fix container
// tags next to the other kind's range. Inputs are heap blocks of exactly the input's size, so that
// AddressSanitizer (asan preset) reports any read past them.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "codec_test_support.h"
#include "reference/wire_forms.h"

namespace decode_bounds {

// char[N] as the only (last) field, for N at the SSE2 vector widths.
template <std::size_t N>
struct Text {
  char text[N];
};

}  // namespace decode_bounds

namespace ringkernel {

template <std::size_t N>
struct message_traits<decode_bounds::Text<N>> {
  using type = decode_bounds::Text<N>;
  static constexpr bool is_message = true;
  static constexpr ringkernel::direction direction = ringkernel::direction::bidirectional;
  static constexpr std::uint8_t priority = 128;
  static constexpr bool causal = false;
  static constexpr ringkernel::wire_format format = ringkernel::wire_format::array;
  static constexpr std::size_t size = sizeof(type);
  static constexpr std::size_t alignment = alignof(type);
  static constexpr std::size_t field_count = 1;
  static constexpr const char* kernel = "DecodeBounds";
  static constexpr std::uint32_t kernel_id = fnv1a32("DecodeBounds");
  static constexpr const char* name = N == 16 ? "decode_bounds::Text16" : N == 32 ? "decode_bounds::Text32"
                                      : N == 48 ? "decode_bounds::Text48" : "decode_bounds::Text64";
  static constexpr std::uint32_t type_id = fnv1a32(name, 21);  // strlen(name)
  static constexpr field_descriptor field(std::size_t i) {
    field_descriptor d{};
    if (i != 0) return d;
    d.name = "text";
    d.kind = field_kind::character;
    d.underlying = field_kind::character;
    d.offset = 0;
    d.size = N;
    d.element_size = 1;
    d.rank = 1;
    d.extents[0] = N;
    return d;
  }
  template <class V>
  static constexpr void visit_fields(type& m, V&& v) { v(field_index<0>{}, m.text); }
  template <class V>
  static constexpr void visit_fields(const type& m, V&& v) { v(field_index<0>{}, m.text); }
};

}  // namespace ringkernel

namespace codec_test {
namespace {

using ringkernel::codec_status;

using codec_variants::cat;
using codec_variants::str;

// Decodes a copy of wire[0..n) in a heap block of exactly n bytes; the message starts as 0x5a bytes.
template <class T>
ringkernel::codec_result decode_prefix(const bytes& wire, std::size_t n, T& m) {
  std::memset(static_cast<void*>(&m), 0x5a, sizeof m);
  const std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[n == 0 ? 1 : n]);
  if (n != 0) std::memcpy(exact.get(), wire.data(), n);
  return ringkernel::decode(exact.get(), n, m);
}

template <class T>
bool untouched(const T& m) {
  T sentinel;
  std::memset(static_cast<void*>(&sentinel), 0x5a, sizeof sentinel);
  return std::memcmp(&m, &sentinel, sizeof m) == 0;
}

// 5 in every integer form; a float or double field takes each (the value is exact).
const bytes int_forms_of_5[] = {{0xcc, 5}, {0xcd, 0, 5}, {0xce, 0, 0, 0, 5}, {0xcf, 0, 0, 0, 0, 0, 0, 0, 5},
                                {0xd0, 5}, {0xd1, 0, 5}, {0xd2, 0, 0, 0, 5}, {0xd3, 0, 0, 0, 0, 0, 0, 0, 5}};

// `head`, the value, `tail`: every cut inside the value (its first byte included) is truncated_input at
// the value's offset, and the whole decodes to 5.
template <class T, class Get>
void check_cuts(const bytes& head, const bytes& tail, Get get) {
  for (const bytes& five : int_forms_of_5) {
    SCOPED_TRACE(hex(five));
    const bytes wire = cat({head, five, tail});
    T m;
    for (std::size_t n = head.size(); n < head.size() + five.size(); ++n) {
      const ringkernel::codec_result r = decode_prefix(wire, n, m);
      EXPECT_EQ(r.status, codec_status::truncated_input) << n << " of " << hex(wire);
      EXPECT_EQ(r.size, head.size()) << n << " of " << hex(wire);
      EXPECT_TRUE(untouched(m)) << "decode wrote the message on failure";
    }
    const ringkernel::codec_result r = decode_prefix(wire, wire.size(), m);
    ASSERT_EQ(r.status, codec_status::ok) << hex(wire);
    EXPECT_EQ(r.size, wire.size());
    EXPECT_EQ(get(m), 5.0);
  }
}

TEST(DecodeRejects, IntFormsOfAFloatingPointFieldTruncatedAtEveryPrefix) {
  // Point {x, y}: the float y is the last field.
  check_cuts<Point>({0x92, 0x01}, {}, [](const Point& p) { return double{p.y}; });
  // Scalars: the double f64 comes after flag, letter, eight integers (fixint 0) and f32 (0.5f);
  // color, offset, level and raw follow it.
  const bytes before_f64 = cat({{0xdc, 0x00, 0x10, 0xc2, 0x00, 0, 0, 0, 0, 0, 0, 0, 0}, {0xca, 0x3f, 0x00, 0x00, 0x00}});
  check_cuts<Scalars>(before_f64, {0x01, 0x00, 0x00, 0x00}, [](const Scalars& s) { return s.f64; });
}

template <std::size_t N>
void check_str_at_the_end() {
  SCOPED_TRACE("char[" + std::to_string(N) + "]");
  for (std::size_t length = 0; length <= N; ++length) {
    bytes wire{0x91};
    if (length < 32) {
      wire.push_back(static_cast<std::uint8_t>(0xa0 | length));
    } else {
      wire.insert(wire.end(), {0xd9, static_cast<std::uint8_t>(length)});
    }
    for (std::size_t i = 0; i < length; ++i) wire.push_back(static_cast<std::uint8_t>(1 + (i * 37) % 255));
    decode_bounds::Text<N> m;
    const ringkernel::codec_result r = decode_prefix(wire, wire.size(), m);
    ASSERT_EQ(r.status, codec_status::ok) << "str of " << length << ": " << hex(wire);
    EXPECT_EQ(r.size, wire.size());
    for (std::size_t i = 0; i < N; ++i) {
      ASSERT_EQ(static_cast<std::uint8_t>(m.text[i]), i < length ? wire[wire.size() - length + i] : 0)
          << "str of " << length << ", byte " << i;
    }
  }
}

// The str's bytes end where the input ends: one short of a whole vector (16k - 1), and every other
// length, must be read without a load past the input.
TEST(CharFields, StrEndingAtTheBufferEndIsReadInBounds) {
  check_str_at_the_end<16>();
  check_str_at_the_end<32>();
  check_str_at_the_end<48>();
  check_str_at_the_end<64>();
}

TEST(DecodeRejects, AShortMapDoesNotTakeEntriesFromTheBytesAfterIt) {
  // Tag {id, label} as a map of 1 entry, then bytes that spell the missing entry.
  const bytes top = cat({{0x81}, str("id"), {0x07}, str("label"), str("ab")});
  Tag t;
  ringkernel::codec_result r = decode_prefix(top, top.size(), t);
  EXPECT_EQ(r.status, codec_status::missing_field);
  EXPECT_EQ(r.size, 0u) << "the map's header";
  EXPECT_TRUE(untouched(t));
  // Nested: Outer.tags[0] is that map, and its sibling tags[1] is the str "label"; a decoder that
  // read past the short map would take "label": "ab" and then tags[1] from what follows.
  const bytes origin = {0x92, 0x01, 0xca, 0x3f, 0x00, 0x00, 0x00};
  const bytes second_tag = cat({{0x82}, str("id"), {0x08}, str("label"), str("c")});
  const bytes nested = cat({{0x83}, str("origin"), origin, str("tags"), {0x92}, {0x81}, str("id"), {0x07},
                            str("label"), str("ab"), second_tag, str("sequence"), {0x05}});
  const std::size_t first_tag_at = 1 + 7 + origin.size() + 5 + 1;
  ASSERT_EQ(nested[first_tag_at], 0x81);
  Outer o;
  r = decode_prefix(nested, nested.size(), o);
  EXPECT_EQ(r.status, codec_status::missing_field);
  EXPECT_EQ(r.size, first_tag_at) << "the short map's header";
  EXPECT_TRUE(untouched(o));
}

TEST(DecodeRejects, FixContainerTagsOfTheOtherKind) {
  // fixmap is 0x80..0x8f and fixarray 0x90..0x9f: 0x90 (the empty fixarray) is no map, and 0xa0 (the
  // empty fixstr) and 0x80 (the empty fixmap) are no array.
  for (const std::uint8_t tag : {std::uint8_t{0x90}, std::uint8_t{0x9f}, std::uint8_t{0xa0}}) {
    Tag t;
    const ringkernel::codec_result r = decode_prefix(bytes{tag}, 1, t);
    EXPECT_EQ(r.status, codec_status::type_mismatch) << hex({tag}) << " for a map";
    EXPECT_EQ(r.size, 0u);
    EXPECT_TRUE(untouched(t));
  }
  for (const std::uint8_t tag : {std::uint8_t{0x80}, std::uint8_t{0x8f}, std::uint8_t{0xa0}}) {
    Point p;
    const ringkernel::codec_result r = decode_prefix(bytes{tag}, 1, p);
    EXPECT_EQ(r.status, codec_status::type_mismatch) << hex({tag}) << " for an array";
    EXPECT_EQ(r.size, 0u);
    EXPECT_TRUE(untouched(p));
  }
  // The same inside a message: Outer.origin (an array) given 0x80, Outer.tags[0] (a map) given 0x90.
  const bytes origin_as_map = cat({{0x83}, str("origin"), {0x80}});
  Outer o;
  ringkernel::codec_result r = decode_prefix(origin_as_map, origin_as_map.size(), o);
  EXPECT_EQ(r.status, codec_status::type_mismatch);
  EXPECT_EQ(r.size, 8u);
  const bytes tag_as_array = cat({{0x83}, str("origin"), {0x92, 0x01, 0x02}, str("tags"), {0x92, 0x90, 0x90}});
  r = decode_prefix(tag_as_array, tag_as_array.size(), o);
  EXPECT_EQ(r.status, codec_status::type_mismatch);
  EXPECT_EQ(r.size, 17u);
  EXPECT_TRUE(untouched(o));
}

}  // namespace
}  // namespace codec_test
