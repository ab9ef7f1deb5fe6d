// Copyright RingKernel authors.
// Round trips (encode, decode, compare field by field) for every field kind in both wire formats,
// with the boundary values of each kind, plus the encode-side contract (sizes, capacity).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "codec_test_support.h"

namespace codec_test {
namespace {

using ringkernel::codec_status;

template <class T>
void expect_round_trip(const T& original) {
  const bytes encoded = encode_to_vector(original);
  ASSERT_FALSE(encoded.empty());
  ASSERT_LE(encoded.size(), ringkernel::max_encoded_size<T>);
  auto decoded = std::make_unique<T>();
  const ringkernel::codec_result r = ringkernel::decode(encoded.data(), encoded.size(), *decoded);
  ASSERT_EQ(r.status, codec_status::ok) << ringkernel::to_string(r.status) << " at " << r.size;
  EXPECT_EQ(r.size, encoded.size());
  EXPECT_TRUE(values_equal(original, *decoded)) << hex(encoded);
}

const std::int64_t signed_boundaries[] = {0, 1, -1, 127, 128, -32, -33, -128, -129, 255, 256, 32767, -32768,
                                          -32769, 65535, 65536, std::numeric_limits<std::int32_t>::min(),
                                          std::numeric_limits<std::int32_t>::max(),
                                          std::numeric_limits<std::int64_t>::min(),
                                          std::numeric_limits<std::int64_t>::max()};
const std::uint64_t unsigned_boundaries[] = {0, 1, 127, 128, 255, 256, 65535, 65536, 4294967295u, 4294967296u,
                                             std::numeric_limits<std::uint64_t>::max()};
const double double_boundaries[] = {0.0, -0.0, 1.0, -1.0, 0.1, std::numeric_limits<double>::quiet_NaN(),
                                    std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min()};
const float float_boundaries[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.1f, std::numeric_limits<float>::quiet_NaN(),
                                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min()};


/// Scalars whose integer fields all hold the boundary value `v` where it fits (0 elsewhere).
template <class S>
S scalars_with_signed(std::int64_t v) {
  S m{};
  m.flag = v != 0;
  m.letter = fit_or_zero<char>(v);
  m.i8 = fit_or_zero<std::int8_t>(v);
  m.i16 = fit_or_zero<std::int16_t>(v);
  m.i32 = fit_or_zero<std::int32_t>(v);
  m.i64 = v;
  m.u8 = fit_or_zero<std::uint8_t>(v);
  m.u16 = fit_or_zero<std::uint16_t>(v);
  m.u32 = fit_or_zero<std::uint32_t>(v);
  m.u64 = fit_or_zero<std::uint64_t>(v);
  m.color = static_cast<Color>(fit_or_zero<std::uint8_t>(v));
  m.offset = static_cast<Offset>(v);
  m.level = static_cast<Level>(fit_or_zero<int>(v));
  m.raw = static_cast<std::byte>(fit_or_zero<std::uint8_t>(v));
  return m;
}

template <class S>
class ScalarRoundTrip : public ::testing::Test {};
using ScalarTypes = ::testing::Types<Scalars, ScalarsMap>;
TYPED_TEST_SUITE(ScalarRoundTrip, ScalarTypes);

TYPED_TEST(ScalarRoundTrip, SignedBoundaries) {
  for (std::int64_t v : signed_boundaries) {
    SCOPED_TRACE(v);
    expect_round_trip(scalars_with_signed<TypeParam>(v));
  }
}

TYPED_TEST(ScalarRoundTrip, UnsignedBoundaries) {
  for (std::uint64_t v : unsigned_boundaries) {
    SCOPED_TRACE(v);
    TypeParam m{};
    m.u8 = fit_or_zero<std::uint8_t>(v);
    m.u16 = fit_or_zero<std::uint16_t>(v);
    m.u32 = fit_or_zero<std::uint32_t>(v);
    m.u64 = v;
    expect_round_trip(m);
  }
}

TYPED_TEST(ScalarRoundTrip, FloatingPointSpecials) {
  for (std::size_t i = 0; i < std::size(double_boundaries); ++i) {
    SCOPED_TRACE(i);
    TypeParam m{};
    m.f32 = float_boundaries[i];
    m.f64 = double_boundaries[i];
    expect_round_trip(m);
  }
}

TYPED_TEST(ScalarRoundTrip, SampleAndBooleans) {
  TypeParam m = sample_scalars<TypeParam>();
  expect_round_trip(m);
  m.flag = false;
  expect_round_trip(m);
}

template <class A>
class ArrayRoundTrip : public ::testing::Test {};
using ArrayTypes = ::testing::Types<Arrays, ArraysMap>;
TYPED_TEST_SUITE(ArrayRoundTrip, ArrayTypes);

TYPED_TEST(ArrayRoundTrip, EveryArrayKindNestedMessages) { expect_round_trip(sample_arrays<TypeParam>()); }

TYPED_TEST(ArrayRoundTrip, EmptyAndFullStrings) {
  TypeParam m = sample_arrays<TypeParam>();
  set_text(m.name, "");
  set_text(m.words[0], "");
  expect_round_trip(m);
  set_text(m.name, "0123456789abcdef");  // all 16 characters, no terminating NUL
  set_text(m.words[1], "12345");
  expect_round_trip(m);
}

TEST(RoundTrip, WideLengthsAcrossHeaderBoundaries) {
  for (std::size_t length : {0u, 1u, 31u, 32u, 255u, 256u, 299u, 300u}) {
    SCOPED_TRACE(length);
    Wide m{};
    set_text(m.text, std::string(length, 'x'));
    for (std::size_t i = 0; i < 300; ++i) m.data[i] = static_cast<std::uint8_t>(i);
    for (int i = 0; i < 20; ++i) m.series[i] = static_cast<std::int16_t>(i * -1700);
    expect_round_trip(m);
  }
}

TEST(RoundTrip, HugeUses32BitHeaders) {
  auto m = std::make_unique<Huge>();
  std::memset(m->text, 'q', sizeof m->text);
  for (std::size_t i = 0; i < sizeof m->data; ++i) m->data[i] = static_cast<std::uint8_t>(i * 7);
  for (std::size_t i = 0; i < 65536; i += 3) m->marks[i] = true;
  const bytes encoded = encode_to_vector(*m);
  ASSERT_EQ(encoded.size(), ringkernel::max_encoded_size<Huge>);  // everything at full length
  EXPECT_EQ(encoded[1], 0xdb);                                     // str32
  EXPECT_EQ(encoded[1 + 5 + 70000], 0xc6);                         // bin32
  EXPECT_EQ(encoded[1 + 5 + 70000 + 5 + 70000], 0xdd);             // array32
  expect_round_trip(*m);
}

TEST(RoundTrip, NestedMapsAndArrays) {
  Outer m{};
  m.origin = {-1, 2.5f};
  m.tags[0].id = 1;
  set_text(m.tags[0].label, "x");
  m.tags[1].id = 300;
  set_text(m.tags[1].label, "wxyz");
  m.sequence = 1ULL << 40;
  expect_round_trip(m);
}

// char[N] carries bytes, not checked text (docs/wire-format.md §3): bytes that are not UTF-8, and a
// multi-byte UTF-8 character cut by the fixed buffer, are sent as they are and come back exactly.
TEST(RoundTrip, CharFieldsCarryBytesNotText) {
  const struct {
    const char* text;
    bytes str;  // the label's str as sent
  } cases[] = {
      {"\xff\xfe", {0xa2, 0xff, 0xfe}},                 // no UTF-8 at all
      {"abc\xc3\xa9", {0xa4, 0x61, 0x62, 0x63, 0xc3}},  // "abcé" cut after the first byte of é
      {"\x80", {0xa1, 0x80}},                           // a lone continuation byte
      {"\xc3\xa9", {0xa2, 0xc3, 0xa9}},                 // "é", whole
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(hex(c.str));
    Tag m{};
    m.id = 1;
    set_text(m.label, c.text);
    bytes expected = {0x82, 0xa2, 0x69, 0x64, 0x01, 0xa5, 0x6c, 0x61, 0x62, 0x65, 0x6c};
    expected.insert(expected.end(), c.str.begin(), c.str.end());
    EXPECT_EQ(hex(encode_to_vector(m)), hex(expected));
    expect_round_trip(m);
    // The same bytes from another producer decode to them too.
    Tag decoded{};
    const ringkernel::codec_result r = ringkernel::decode(expected.data(), expected.size(), decoded);
    ASSERT_EQ(r.status, codec_status::ok) << ringkernel::to_string(r.status) << " at " << r.size;
    EXPECT_EQ(r.size, expected.size());
    EXPECT_TRUE(values_equal(decoded, m));
  }
}

TEST(RoundTrip, RepresentativeMessages) {
  expect_round_trip(sample_telemetry());
  expect_round_trip(sample_order());
}

TEST(Encode, CapacityBelowMaxUsesCheckedWritesAndReportsNeededSize) {
  const Telemetry64 m = sample_telemetry();
  const bytes reference = encode_to_vector(m);
  ASSERT_LT(reference.size(), ringkernel::max_encoded_size<Telemetry64>);
  // Exactly enough space, though less than max_encoded_size: succeeds with identical bytes.
  bytes exact(reference.size() + 4, 0xee);
  ringkernel::codec_result r = ringkernel::encode(m, exact.data(), reference.size());
  ASSERT_EQ(r.status, codec_status::ok);
  EXPECT_EQ(bytes(exact.begin(), exact.begin() + static_cast<long>(r.size)), reference);
  EXPECT_EQ(exact[reference.size()], 0xee);
  // Every smaller capacity fails, never writes past it, and reports the size it needs.
  for (std::size_t capacity = 0; capacity < reference.size(); ++capacity) {
    bytes out(reference.size(), 0xee);
    r = ringkernel::encode(m, out.data(), capacity);
    EXPECT_EQ(r.status, codec_status::buffer_too_small) << capacity;
    EXPECT_EQ(r.size, reference.size()) << capacity;
    for (std::size_t i = capacity; i < out.size(); ++i) ASSERT_EQ(out[i], 0xee) << capacity;
  }
}

TEST(Encode, MaxEncodedSizeIsReachedAndCompileTime) {
  static_assert(ringkernel::max_encoded_size<Point> == 1 + 5 + 5);
  static_assert(ringkernel::max_encoded_size<Tag> == 1 + (1 + 2) + 3 + (1 + 5) + (1 + 4));
  Point p{std::numeric_limits<std::int32_t>::min(), 1.0f};
  EXPECT_EQ(encode_to_vector(p).size(), ringkernel::max_encoded_size<Point>);
  Tag t{65535, {'a', 'b', 'c', 'd'}};
  EXPECT_EQ(encode_to_vector(t).size(), ringkernel::max_encoded_size<Tag>);
}

}  // namespace
}  // namespace codec_test
