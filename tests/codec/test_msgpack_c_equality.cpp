// Copyright RingKernel authors.
// Byte equality with msgpack-c's packer: each message is packed a second time by hand with the
// msgpack_pack_* function for each field's C type, and the bytes must match exactly. Also checks the
// host interop (ringkernel::msgpack::pack/unpack) against msgpack-c's own unpacker.
#include <gtest/gtest.h>
#include <msgpack.h>

#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "codec_test_support.h"
#include "msgpack_c_stream.h"
#include "ringkernel/msgpack_interop.h"

namespace codec_test {
namespace {

using ringkernel::codec_status;

/// msgpack-c packer into an sbuffer, with the per-type pack calls a hand-written packer would use.
class reference_packer {
 public:
  msgpack_packer* pk() { return stream_.pk(); }
  bytes data() const { return stream_.data(); }

  void key(const char* name) {
    msgpack_pack_str(pk(), std::strlen(name));
    msgpack_pack_str_body(pk(), name, std::strlen(name));
  }
  void value(bool v) { v ? msgpack_pack_true(pk()) : msgpack_pack_false(pk()); }
  // Plain char is signed on the wire everywhere; msgpack_pack_char follows the platform's char.
  void value(char v) { msgpack_pack_signed_char(pk(), static_cast<signed char>(v)); }
  void value(std::int8_t v) { msgpack_pack_int8(pk(), v); }
  void value(std::int16_t v) { msgpack_pack_int16(pk(), v); }
  void value(std::int32_t v) { msgpack_pack_int32(pk(), v); }
  void value(std::int64_t v) { msgpack_pack_int64(pk(), v); }
  void value(std::uint8_t v) { msgpack_pack_uint8(pk(), v); }
  void value(std::uint16_t v) { msgpack_pack_uint16(pk(), v); }
  void value(std::uint32_t v) { msgpack_pack_uint32(pk(), v); }
  void value(std::uint64_t v) { msgpack_pack_uint64(pk(), v); }
  void value(float v) { msgpack_pack_float(pk(), v); }
  void value(double v) { msgpack_pack_double(pk(), v); }
  void value(Color v) { msgpack_pack_uint8(pk(), static_cast<std::uint8_t>(v)); }
  void value(Offset v) { msgpack_pack_int64(pk(), static_cast<std::int64_t>(v)); }
  void value(Level v) { msgpack_pack_int(pk(), static_cast<int>(v)); }
  void value(std::byte v) { msgpack_pack_unsigned_char(pk(), static_cast<unsigned char>(v)); }
  template <std::size_t N>
  void value(const char (&s)[N]) {
    const std::size_t length = strnlen(s, N);
    msgpack_pack_str(pk(), length);
    msgpack_pack_str_body(pk(), s, length);
  }
  template <std::size_t N>
  void value(const std::uint8_t (&b)[N]) {
    msgpack_pack_bin(pk(), N);
    msgpack_pack_bin_body(pk(), b, N);
  }
  template <std::size_t N>
  void value(const std::byte (&b)[N]) {
    msgpack_pack_bin(pk(), N);
    msgpack_pack_bin_body(pk(), b, N);
  }
  template <class E, std::size_t N>
  void value(const E (&a)[N]) {
    msgpack_pack_array(pk(), N);
    for (const E& e : a) value(e);
  }
  void value(const Point& p) {
    msgpack_pack_array(pk(), 2);
    value(p.x);
    value(p.y);
  }
  void value(const Tag& t) {
    msgpack_pack_map(pk(), 2);
    key("id");
    value(t.id);
    key("label");
    value(t.label);
  }

 private:
  msgpack_c_stream stream_;
};

template <class S>
bytes reference_scalars(const S& m, bool as_map) {
  reference_packer r;
  as_map ? msgpack_pack_map(r.pk(), 16) : msgpack_pack_array(r.pk(), 16);
  auto field = [&](const char* name, const auto& v) {
    if (as_map) r.key(name);
    r.value(v);
  };
  field("flag", m.flag);
  field("letter", m.letter);
  field("i8", m.i8);
  field("i16", m.i16);
  field("i32", m.i32);
  field("i64", m.i64);
  field("u8", m.u8);
  field("u16", m.u16);
  field("u32", m.u32);
  field("u64", m.u64);
  field("f32", m.f32);
  field("f64", m.f64);
  field("color", m.color);
  field("offset", m.offset);
  field("level", m.level);
  field("raw", m.raw);
  return r.data();
}

template <class A>
bytes reference_arrays(const A& m, bool as_map) {
  reference_packer r;
  as_map ? msgpack_pack_map(r.pk(), 11) : msgpack_pack_array(r.pk(), 11);
  auto field = [&](const char* name, const auto& v) {
    if (as_map) r.key(name);
    r.value(v);
  };
  field("name", m.name);
  field("blob", m.blob);
  field("raw", m.raw);
  field("grid", m.grid);
  field("words", m.words);
  field("blobs", m.blobs);
  field("flags", m.flags);
  field("values", m.values);
  field("colors", m.colors);
  field("points", m.points);
  field("tag", m.tag);
  return r.data();
}

template <class T>
bytes interop_pack(const T& m) {
  reference_packer r;
  EXPECT_EQ(ringkernel::msgpack::pack(r.pk(), m), 0);
  return r.data();
}

const std::int64_t boundaries[] = {0, 1, -1, 127, 128, -32, -33, -128, -129, 255, 256, 32767, -32768, -32769,
                                   65535, 65536, std::numeric_limits<std::int32_t>::min(),
                                   std::numeric_limits<std::int32_t>::max(), 4294967295LL, 4294967296LL,
                                   std::numeric_limits<std::int64_t>::min(),
                                   std::numeric_limits<std::int64_t>::max()};


template <class S>
S scalars_at(std::int64_t v, std::size_t float_case) {
  const double doubles[] = {0.0, -0.0, 1.5, std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  S m{};
  m.flag = (v & 1) != 0;
  m.letter = fit_or_zero<char>(v);
  m.i8 = fit_or_zero<std::int8_t>(v);
  m.i16 = fit_or_zero<std::int16_t>(v);
  m.i32 = fit_or_zero<std::int32_t>(v);
  m.i64 = v;
  m.u8 = fit_or_zero<std::uint8_t>(v);
  m.u16 = fit_or_zero<std::uint16_t>(v);
  m.u32 = fit_or_zero<std::uint32_t>(v);
  m.u64 = v < 0 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(v);
  m.f32 = static_cast<float>(doubles[float_case % std::size(doubles)]);
  m.f64 = doubles[float_case % std::size(doubles)];
  m.color = static_cast<Color>(fit_or_zero<std::uint8_t>(v));
  m.offset = static_cast<Offset>(v);
  m.level = static_cast<Level>(fit_or_zero<int>(v));
  m.raw = static_cast<std::byte>(fit_or_zero<std::uint8_t>(v));
  return m;
}

template <class S>
class ScalarEquality : public ::testing::Test {};
using ScalarTypes = ::testing::Types<Scalars, ScalarsMap>;
TYPED_TEST_SUITE(ScalarEquality, ScalarTypes);

TYPED_TEST(ScalarEquality, EveryIntegerBoundaryAndFloatSpecial) {
  constexpr bool as_map = ringkernel::message_traits<TypeParam>::format == ringkernel::wire_format::map;
  std::size_t float_case = 0;
  for (std::int64_t v : boundaries) {
    const TypeParam m = scalars_at<TypeParam>(v, float_case++);
    SCOPED_TRACE(v);
    const bytes expected = reference_scalars(m, as_map);
    EXPECT_EQ(hex(encode_to_vector(m)), hex(expected));
    EXPECT_EQ(hex(interop_pack(m)), hex(expected));
  }
}

template <class A>
class ArrayEquality : public ::testing::Test {};
using ArrayTypes = ::testing::Types<Arrays, ArraysMap>;
TYPED_TEST_SUITE(ArrayEquality, ArrayTypes);

TYPED_TEST(ArrayEquality, StringsBinsNestedArraysAndMessages) {
  constexpr bool as_map = ringkernel::message_traits<TypeParam>::format == ringkernel::wire_format::map;
  TypeParam m = sample_arrays<TypeParam>();
  EXPECT_EQ(hex(encode_to_vector(m)), hex(reference_arrays(m, as_map)));
  set_text(m.name, "");  // empty str
  EXPECT_EQ(hex(encode_to_vector(m)), hex(reference_arrays(m, as_map)));
  set_text(m.name, "0123456789abcdef");  // full str, no NUL
  EXPECT_EQ(hex(encode_to_vector(m)), hex(reference_arrays(m, as_map)));
  EXPECT_EQ(hex(interop_pack(m)), hex(reference_arrays(m, as_map)));
}

// A bool whose byte is neither 0 nor 1 (a raw message written by device code or copied in from
// memory) is true, as msgpack-c's packer has it: c3. Read as a bool, g++ computed the tag as
// 0xc2 + byte (0x02 -> c4, a bin 8 header) and clang as 0xc2 | byte (0x7f -> ff).
TEST(Equality, BoolBytesOtherThanZeroAndOneAreTrue) {
  for (const unsigned char byte : {0x02, 0x03, 0x7f, 0x80, 0xc1, 0xfe, 0xff}) {
    SCOPED_TRACE(static_cast<int>(byte));
    Scalars m = sample_scalars<Scalars>();
    std::memcpy(&m.flag, &byte, 1);
    Scalars as_true = sample_scalars<Scalars>();
    as_true.flag = true;
    const bytes expected = reference_scalars(as_true, false);
    EXPECT_EQ(hex(encode_to_vector(m)), hex(expected));
    EXPECT_EQ(hex(interop_pack(m)), hex(expected));
    bytes checked(expected.size());  // capacity below max_encoded_size: the checked writer
    ASSERT_LT(checked.size(), ringkernel::max_encoded_size<Scalars>);
    ASSERT_EQ(ringkernel::encode(m, checked.data(), checked.size()).status, codec_status::ok);
    EXPECT_EQ(hex(checked), hex(expected));

    Arrays a = sample_arrays<Arrays>();  // a bool array, unrolled
    std::memcpy(&a.flags[1], &byte, 1);
    Arrays a_true = sample_arrays<Arrays>();
    a_true.flags[1] = true;
    EXPECT_EQ(hex(encode_to_vector(a)), hex(reference_arrays(a_true, false)));
    EXPECT_EQ(hex(interop_pack(a)), hex(reference_arrays(a_true, false)));
  }
}

TEST(Equality, HeaderWidthsOfStrBinArray) {
  for (std::size_t length : {0u, 31u, 32u, 255u, 256u, 300u}) {
    Wide m{};
    set_text(m.text, std::string(length, 'z'));
    reference_packer r;
    msgpack_pack_array(r.pk(), 3);
    r.value(m.text);
    r.value(m.data);
    r.value(m.series);
    EXPECT_EQ(hex(encode_to_vector(m)), hex(r.data())) << length;
  }
  auto huge = std::make_unique<Huge>();
  std::memset(huge->text, 'h', sizeof huge->text);
  reference_packer r;
  msgpack_pack_array(r.pk(), 3);
  r.value(huge->text);
  r.value(huge->data);
  r.value(huge->marks);
  EXPECT_TRUE(encode_to_vector(*huge) == r.data());
}

TEST(Interop, UnpackFromMsgpackCObjects) {
  const Order128 original = sample_order();
  const bytes packed = interop_pack(original);
  msgpack_zone zone;
  msgpack_zone_init(&zone, 2048);
  msgpack_object object;
  ASSERT_EQ(msgpack_unpack(reinterpret_cast<const char*>(packed.data()), packed.size(), nullptr, &zone, &object),
            MSGPACK_UNPACK_SUCCESS);
  Order128 back{};
  EXPECT_EQ(ringkernel::msgpack::unpack(object, back), codec_status::ok);
  EXPECT_TRUE(values_equal(original, back));

  // A wrong-shaped object (a map where an array message is expected) leaves the target untouched.
  msgpack_object not_array = object;
  not_array.type = MSGPACK_OBJECT_MAP;
  not_array.via.map.size = 0;
  not_array.via.map.ptr = nullptr;
  Order128 untouched = sample_order();
  untouched.quantity = 42;
  EXPECT_EQ(ringkernel::msgpack::unpack(not_array, untouched), codec_status::type_mismatch);
  EXPECT_EQ(untouched.quantity, 42);
  msgpack_zone_destroy(&zone);
}

TEST(Interop, PackFailsWhenTheStreamFails) {
  msgpack_packer pk;
  msgpack_packer_init(&pk, nullptr, [](void*, const char*, size_t) { return -1; });
  EXPECT_NE(ringkernel::msgpack::pack(&pk, sample_telemetry()), 0);
}

// A stream whose write fails once, at call `fail_at`, and takes every other write. pack used to go on
// writing after the failure: the stream got the rest of the message without the part that failed,
// MessagePack that reads as something else.
struct failing_once_stream {
  int calls = 0;
  int fail_at = 0;
  std::size_t bytes_after_failure = 0;
  static int write(void* data, const char*, size_t length) {
    auto& self = *static_cast<failing_once_stream*>(data);
    ++self.calls;
    if (self.calls == self.fail_at) return -7;
    if (self.calls > self.fail_at) self.bytes_after_failure += length;
    return 0;
  }
};

TEST(Interop, PackWritesNothingAfterTheFirstFailedWrite) {
  int writes = 0;
  {
    failing_once_stream counter{0, -1, 0};
    msgpack_packer pk;
    msgpack_packer_init(&pk, &counter, failing_once_stream::write);
    ASSERT_EQ(ringkernel::msgpack::pack(&pk, sample_order()), 0);
    writes = counter.calls;
  }
  ASSERT_GT(writes, 3);
  for (int fail_at = 1; fail_at <= writes; ++fail_at) {
    failing_once_stream stream{0, fail_at, 0};
    msgpack_packer pk;
    msgpack_packer_init(&pk, &stream, failing_once_stream::write);
    EXPECT_EQ(ringkernel::msgpack::pack(&pk, sample_order()), -7) << "failing write " << fail_at;
    EXPECT_EQ(stream.calls, fail_at) << "writes after the failed write " << fail_at;
    EXPECT_EQ(stream.bytes_after_failure, 0u) << "failing write " << fail_at;
  }
}

}  // namespace
}  // namespace codec_test
